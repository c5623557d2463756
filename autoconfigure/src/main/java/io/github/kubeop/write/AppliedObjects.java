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

package io.github.kubeop.write;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.kubeop.handler.HandlerCall;
import io.github.kubeop.informer.ResourceKind;

/**
 * Tells the handler call running on the current thread what {@link KubernetesTemplate}
 * applied, for pruning ({@code @Reconcile(prune = true)}): the objects a pruning handler
 * owns and its latest call did not apply are deleted. Recorded on every apply, before
 * anything decides whether a request has to be sent: an apply that changes nothing still
 * says that the object is wanted.
 *
 * @author Kubeop authors
 */
final class AppliedObjects {

	private AppliedObjects() {
	}

	/**
	 * Records that the current handler call applies an object.
	 * @param kind the object's resource
	 * @param metadata the desired object's metadata
	 */
	static void record(ResourceKind kind, JsonObject metadata) {
		HandlerCall call = HandlerCall.current();
		if (call != null) {
			call.applied(kind, string(metadata.get("namespace")), string(metadata.get("name")));
		}
	}

	private static String string(JsonElement element) {
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : null;
	}

}
