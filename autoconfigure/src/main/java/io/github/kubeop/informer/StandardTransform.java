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

import java.util.Arrays;
import java.util.stream.Collectors;

import com.google.gson.JsonObject;

/**
 * The ready-made transforms, selected by name in
 * {@code kubeop.informers.resources.<name>.transforms}. They drop parts of an object's
 * JSON (or, for {@link #DEDUPLICATE_STRINGS}, share its repeated strings) before it is
 * decoded, so that what they drop is never decoded at all, and they work for every Java
 * type, dynamic objects included. They apply in the order they are declared here.
 *
 * @author Kubeop authors
 */
public enum StandardTransform {

	/**
	 * Drops {@code metadata.managedFields}, the server-side apply bookkeeping that is
	 * often the largest part of an object's metadata. On by default, through
	 * {@code kubeop.informers.resources.<name>.strip-managed-fields}.
	 */
	STRIP_MANAGED_FIELDS("strip-managed-fields") {

		@Override
		void apply(JsonObject object) {
			JsonObject metadata = object.getAsJsonObject("metadata");
			if (metadata != null) {
				metadata.remove("managedFields");
			}
		}

	},

	/**
	 * Drops the {@code kubectl.kubernetes.io/last-applied-configuration} annotation, a
	 * full copy of the object as last applied by {@code kubectl apply}.
	 */
	STRIP_LAST_APPLIED_CONFIGURATION("strip-last-applied-configuration") {

		@Override
		void apply(JsonObject object) {
			JsonObject metadata = object.getAsJsonObject("metadata");
			if (metadata != null && metadata.get("annotations") instanceof JsonObject annotations) {
				annotations.remove(LAST_APPLIED_CONFIGURATION);
			}
		}

	},

	/**
	 * Drops {@code status}, for operators that read only what users declare.
	 */
	STRIP_STATUS("strip-status") {

		@Override
		void apply(JsonObject object) {
			object.remove("status");
		}

	},

	/**
	 * Keeps the strings that many objects repeat (namespaces, label and annotation keys
	 * and values, images, node names, owner references, container names) once for all
	 * cached objects instead of once per object. It drops nothing: the objects keep every
	 * value and stay the client's models. On by default, through
	 * {@code kubeop.informers.resources.<name>.lean}; it comes after the transforms that
	 * drop parts, so that it never pools what they drop.
	 * @see StringDeduplication
	 */
	DEDUPLICATE_STRINGS("deduplicate-strings") {

		@Override
		void apply(JsonObject object) {
			StringDeduplication.deduplicate(object);
		}

	};

	/**
	 * The annotation {@code kubectl apply} keeps the applied configuration in.
	 */
	public static final String LAST_APPLIED_CONFIGURATION = "kubectl.kubernetes.io/last-applied-configuration";

	private final String propertyValue;

	StandardTransform(String propertyValue) {
		this.propertyValue = propertyValue;
	}

	/**
	 * Returns the name the transform is selected by in properties, such as
	 * {@code strip-status}.
	 * @return the name
	 */
	public String propertyValue() {
		return this.propertyValue;
	}

	/**
	 * Returns the transform selected by a name, such as {@code strip-status}.
	 * @param propertyValue the name
	 * @return the transform, or {@code null} if no ready-made transform has that name
	 */
	public static StandardTransform forPropertyValue(String propertyValue) {
		return Arrays.stream(values())
			.filter((transform) -> transform.propertyValue.equals(propertyValue))
			.findFirst()
			.orElse(null);
	}

	/**
	 * Returns the names of every ready-made transform, for messages.
	 * @return the names, comma-separated
	 */
	public static String propertyValues() {
		return Arrays.stream(values()).map(StandardTransform::propertyValue).collect(Collectors.joining(", "));
	}

	abstract void apply(JsonObject object);

}
