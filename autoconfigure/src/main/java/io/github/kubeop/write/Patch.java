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

import java.util.Objects;

/**
 * A patch for {@link KubernetesTemplate#patch}: a JSON merge patch, a JSON patch, a
 * strategic merge patch (built-in kinds only) or a server-side apply patch, optionally
 * for a subresource such as {@code status} or {@code scale}. A body is a JSON text, or an
 * object that is serialised as the client serialises models (so a {@code Map}, a
 * generated model or a {@code @KubernetesResource} class).
 *
 * <pre class="code">
 * template.patch(deployment, Patch.merge(Map.of("spec", Map.of("paused", true))));
 * template.patch(deployment, Patch.json("[{\"op\": \"remove\", \"path\": \"/metadata/labels/tier\"}]"));
 * template.patch(site, Patch.merge(Map.of("status", status)).subresource("status"));
 * </pre>
 *
 * @author Kubeop authors
 */
public final class Patch {

	private final Type type;

	private final Object body;

	private final String subresource;

	private Patch(Type type, Object body, String subresource) {
		this.type = type;
		this.body = Objects.requireNonNull(body, "body");
		this.subresource = subresource;
	}

	/**
	 * A JSON merge patch (RFC 7386): maps merge, {@code null} removes a field, lists are
	 * replaced whole.
	 * @param body the patch, a JSON text or an object
	 * @return the patch
	 */
	public static Patch merge(Object body) {
		return new Patch(Type.MERGE, body, null);
	}

	/**
	 * A JSON patch (RFC 6902): a list of operations, such as a {@code test} of a value
	 * followed by a {@code replace}.
	 * @param operations the operations, a JSON text or a list of maps
	 * @return the patch
	 */
	public static Patch json(Object operations) {
		return new Patch(Type.JSON, operations, null);
	}

	/**
	 * A strategic merge patch, which merges lists by their keys; built-in kinds only.
	 * @param body the patch, a JSON text or an object
	 * @return the patch
	 */
	public static Patch strategicMerge(Object body) {
		return new Patch(Type.STRATEGIC_MERGE, body, null);
	}

	/**
	 * A server-side apply patch under the template's field manager, taken as it is: no
	 * owner reference is added and nothing is compared or left out (see
	 * {@link KubernetesTemplate#apply} for that).
	 * @param body the fully specified intent, with {@code apiVersion} and {@code kind}
	 * @return the patch
	 */
	public static Patch apply(Object body) {
		return new Patch(Type.APPLY, body, null);
	}

	/**
	 * Returns this patch for a subresource of the object.
	 * @param name the subresource, such as {@code status} or {@code scale}
	 * @return the patch
	 */
	public Patch subresource(String name) {
		return new Patch(this.type, this.body, name);
	}

	/**
	 * Returns the type of the patch.
	 * @return the type
	 */
	public Type getType() {
		return this.type;
	}

	/**
	 * Returns the body.
	 * @return the body, a JSON text or an object
	 */
	public Object getBody() {
		return this.body;
	}

	/**
	 * Returns the subresource patched.
	 * @return the subresource, or {@code null} for the object itself
	 */
	public String getSubresource() {
		return this.subresource;
	}

	/**
	 * The kinds of patch, with their content types.
	 */
	public enum Type {

		/**
		 * JSON merge patch.
		 */
		MERGE("application/merge-patch+json"),

		/**
		 * JSON patch.
		 */
		JSON("application/json-patch+json"),

		/**
		 * Strategic merge patch.
		 */
		STRATEGIC_MERGE("application/strategic-merge-patch+json"),

		/**
		 * Server-side apply.
		 */
		APPLY("application/apply-patch+yaml");

		private final String contentType;

		Type(String contentType) {
			this.contentType = contentType;
		}

		/**
		 * Returns the content type the API server expects.
		 * @return the content type
		 */
		public String contentType() {
			return this.contentType;
		}

	}

}
