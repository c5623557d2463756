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

/**
 * A resource the API server serves, as discovery describes it.
 *
 * @param group the API group, empty for the core group
 * @param version the API version, such as {@code v1}
 * @param kind the kind, such as {@code ConfigMap}
 * @param plural the plural resource name used in URLs, such as {@code configmaps}
 * @param namespaced whether objects of this kind live in namespaces
 * @author Kubeop authors
 */
public record ResourceKind(String group, String version, String kind, String plural, boolean namespaced) {

	/**
	 * Returns the {@code apiVersion} of objects of this kind, such as {@code apps/v1}.
	 * @return the API version
	 */
	public String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

	/**
	 * Returns the URL path of the collection in a namespace, or across all namespaces.
	 * @param namespace the namespace, or {@code null} for all namespaces and for
	 * cluster-scoped kinds
	 * @return the path
	 */
	public String collectionPath(String namespace) {
		String prefix = this.group.isEmpty() ? "/api/" + this.version : "/apis/" + this.group + "/" + this.version;
		return (namespace != null && this.namespaced) ? prefix + "/namespaces/" + namespace + "/" + this.plural
				: prefix + "/" + this.plural;
	}

	@Override
	public String toString() {
		return this.plural + (this.group.isEmpty() ? "" : "." + this.group) + "/" + this.version;
	}

}
