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

package io.github.kubeop.webhook;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.V1UserInfo;

/**
 * What the API server says about an admission request besides the objects: who asks, for
 * what operation, whether it is a dry run. A webhook method declares a parameter of this
 * type to read it, and to add {@link #addWarning(String) warnings} to its answer.
 *
 * @author Kubeop authors
 */
public final class AdmissionRequest {

	private final String uid;

	private final Operation operation;

	private final V1UserInfo userInfo;

	private final boolean dryRun;

	private final String namespace;

	private final String name;

	private final String subResource;

	private final List<String> warnings = new ArrayList<>();

	AdmissionRequest(String uid, Operation operation, V1UserInfo userInfo, boolean dryRun, String namespace,
			String name, String subResource) {
		this.uid = uid;
		this.operation = operation;
		this.userInfo = userInfo;
		this.dryRun = dryRun;
		this.namespace = namespace;
		this.name = name;
		this.subResource = subResource;
	}

	/**
	 * Returns the identifier of the request, the same in the API server's audit log.
	 * @return the uid
	 */
	public String getUid() {
		return this.uid;
	}

	/**
	 * Returns the operation.
	 * @return the operation
	 */
	public Operation getOperation() {
		return this.operation;
	}

	/**
	 * Returns the user who sent the request to the API server: user name, uid, groups and
	 * extra attributes as the authenticator gave them.
	 * @return the user
	 */
	public V1UserInfo getUserInfo() {
		return this.userInfo;
	}

	/**
	 * Returns whether the request is a dry run: the API server does not store its result,
	 * and a webhook with {@link SideEffects#NONE_ON_DRY_RUN} must not act on it.
	 * @return whether the request is a dry run
	 */
	public boolean isDryRun() {
		return this.dryRun;
	}

	/**
	 * Returns the namespace of the object.
	 * @return the namespace, or {@code null} for a cluster-scoped object
	 */
	public String getNamespace() {
		return this.namespace;
	}

	/**
	 * Returns the name of the object. On create the API server may not know it yet (an
	 * object created with {@code generateName}).
	 * @return the name, or {@code null}
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns the subresource, such as {@code status}.
	 * @return the subresource, or {@code null}
	 */
	public String getSubResource() {
		return this.subResource;
	}

	/**
	 * Adds a warning to the answer, which {@code kubectl} prints as
	 * {@code Warning: <warning>}.
	 * @param warning the warning
	 */
	public void addWarning(String warning) {
		this.warnings.add(warning);
	}

	List<String> warnings() {
		return this.warnings;
	}

}
