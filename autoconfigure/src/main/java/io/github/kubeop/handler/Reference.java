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

package io.github.kubeop.handler;

import io.kubernetes.client.common.KubernetesObject;

/**
 * A relation by reference of a handler: objects of a type map to the handled objects (the
 * primaries) that reference them, by a path in the primary or by a
 * {@link ReferenceMapper}. Declared by {@link io.github.kubeop.annotation.References} or
 * built here for {@link HandlerEndpoint.Builder#references(Reference)}.
 *
 * @param type the referenced type
 * @param informer the informer of referenced objects, or empty to pick it by type
 * @param path the path of the referenced name in the primary, or {@code null} with a
 * mapper
 * @param namespacePath the path of the referenced namespace in the primary, or
 * {@code null} for the primary's own
 * @param mapper the mapping function, or {@code null} with a path
 * @param referencedOnly whether the informer keeps only referenced objects
 * @author Kubeop authors
 */
public record Reference(Class<? extends KubernetesObject> type, String informer, String path, String namespacePath,
		ReferenceMapper<?> mapper, boolean referencedOnly) {

	public Reference {
		informer = (informer != null) ? informer : "";
		path = blankToNull(path);
		namespacePath = blankToNull(namespacePath);
		if ((path == null) == (mapper == null)) {
			throw new IllegalArgumentException("A reference to " + type.getSimpleName()
					+ " needs either a path or a mapper, not " + ((path == null) ? "neither" : "both"));
		}
		if (namespacePath != null && path == null) {
			throw new IllegalArgumentException("A reference to " + type.getSimpleName()
					+ " by a mapper takes no namespace path; the mapper returns whole keys");
		}
		if (referencedOnly && path == null) {
			throw new IllegalArgumentException("A reference to " + type.getSimpleName()
					+ " by a mapper cannot cache referenced objects only: a mapper cannot say ahead which objects it "
					+ "wants; use a path");
		}
	}

	/**
	 * Returns a reference by a path in the primary, the namespace being the primary's.
	 * @param type the referenced type
	 * @param path the path of the referenced name, such as {@code spec.configRef.name}
	 * @return the reference
	 */
	public static Reference byPath(Class<? extends KubernetesObject> type, String path) {
		return new Reference(type, "", path, null, null, false);
	}

	/**
	 * Returns a reference by a mapping function.
	 * @param <S> the referenced type
	 * @param type the referenced type
	 * @param mapper the mapping function
	 * @return the reference
	 */
	public static <S extends KubernetesObject> Reference byMapper(Class<S> type, ReferenceMapper<? super S> mapper) {
		return new Reference(type, "", null, null, mapper, false);
	}

	/**
	 * Returns this reference with the referenced namespace read from a path beside the
	 * name's.
	 * @param namespacePath the path, such as {@code spec.consumers[].secretRef.namespace}
	 * @return the new reference
	 */
	public Reference withNamespacePath(String namespacePath) {
		return new Reference(this.type, this.informer, this.path, namespacePath, this.mapper, this.referencedOnly);
	}

	/**
	 * Returns this reference reading referenced objects from a named informer.
	 * @param informer the informer name
	 * @return the new reference
	 */
	public Reference withInformer(String informer) {
		return new Reference(this.type, informer, this.path, this.namespacePath, this.mapper, this.referencedOnly);
	}

	/**
	 * Returns this reference with an informer that keeps only the referenced objects; see
	 * {@link io.github.kubeop.annotation.References#referencedOnly()}.
	 * @return the new reference
	 */
	public Reference withReferencedOnlyCache() {
		return new Reference(this.type, this.informer, this.path, this.namespacePath, this.mapper, true);
	}

	@Override
	public String toString() {
		return this.type.getSimpleName() + ((this.path != null) ? " by path '" + this.path + "'" : " by mapper");
	}

	private static String blankToNull(String value) {
		return (value == null || value.isBlank()) ? null : value.trim();
	}

}
