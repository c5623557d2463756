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

/**
 * Thrown at startup when the operator may not write the finalizer of a
 * {@link io.github.kubeop.annotation.Cleanup cleanup method}: the API server denied the
 * verb on the resource, as a {@code SelfSubjectAccessReview} showed.
 *
 * @author Kubeop authors
 */
public class FinalizerPermissionException extends RuntimeException {

	private final String verb;

	private final String resource;

	private final String group;

	private final String namespace;

	private final String method;

	/**
	 * Creates a new instance.
	 * @param verb the verb denied, such as {@code patch}
	 * @param resource the resource (plural), such as {@code configmaps}
	 * @param group the API group, empty for the core group
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param method the cleanup method
	 * @param finalizer the finalizer it manages
	 */
	public FinalizerPermissionException(String verb, String resource, String group, String namespace, String method,
			String finalizer) {
		super("Cleanup method " + method + " manages finalizer " + finalizer + ", but the operator may not '" + verb
				+ "' resource '" + resource + "' in API group '" + group + "' "
				+ ((namespace != null) ? "in namespace '" + namespace + "'" : "in all namespaces"));
		this.verb = verb;
		this.resource = resource;
		this.group = group;
		this.namespace = namespace;
		this.method = method;
	}

	/**
	 * Returns the verb denied.
	 * @return the verb
	 */
	public String getVerb() {
		return this.verb;
	}

	/**
	 * Returns the resource (plural).
	 * @return the resource
	 */
	public String getResource() {
		return this.resource;
	}

	/**
	 * Returns the API group.
	 * @return the group, empty for the core group
	 */
	public String getGroup() {
		return this.group;
	}

	/**
	 * Returns the namespace.
	 * @return the namespace, or {@code null} for all namespaces
	 */
	public String getNamespace() {
		return this.namespace;
	}

	/**
	 * Returns the cleanup method.
	 * @return the method
	 */
	public String getMethod() {
		return this.method;
	}

}
