/*
 * Copyright 2026 the Kubeop authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.github.kubeop.informer;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Converts dynamic objects (custom resources watched without a generated model) to the
 * user's own classes or records.
 *
 * @author Kubeop authors
 */
public final class DynamicObjects {

	// the client's Gson reads Kubernetes timestamps and quantities, so V1ObjectMeta works
	// in user classes
	private static final Gson gson = new JSON().getGson();

	private DynamicObjects() {
	}

	/**
	 * Converts a dynamic object to a class of the user's, field by field from its JSON.
	 * @param <R> the target type
	 * @param object the dynamic object
	 * @param type the target type, such as a record with {@code metadata} and
	 * {@code spec} components
	 * @return the converted object
	 * @throws IllegalArgumentException naming the object when its JSON does not fit the
	 * type
	 */
	public static <R> R convert(DynamicKubernetesObject object, Class<R> type) {
		try {
			return gson.fromJson(object.getRaw(), type);
		}
		catch (JsonParseException ex) {
			throw new IllegalArgumentException(
					"Cannot convert " + object.getKind() + " " + object.getMetadata().getNamespace() + "/"
							+ object.getMetadata().getName() + " to " + type.getName() + ": " + ex.getMessage(),
					ex);
		}
	}

}
