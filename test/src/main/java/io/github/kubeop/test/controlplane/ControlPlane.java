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

package io.github.kubeop.test.controlplane;

import java.nio.file.Path;

import io.kubernetes.client.openapi.ApiClient;

/**
 * A real Kubernetes API server for tests: local kube-apiserver and etcd processes
 * ({@link LocalControlPlane}) or a K3s container ({@link K3sControlPlane}). Both are used
 * the same way, so a test does not care which one it runs on.
 *
 * @author Kubeop authors
 */
public interface ControlPlane extends AutoCloseable {

	/**
	 * Returns what this control plane is, for logs, such as
	 * {@code kube-apiserver v1.35.4 (local processes)}.
	 * @return the description
	 */
	String description();

	/**
	 * Returns the URL of the API server.
	 * @return the URL, such as {@code https://127.0.0.1:41234}
	 */
	String serverUrl();

	/**
	 * Returns a kubeconfig document for a cluster administrator.
	 * @return the kubeconfig YAML
	 */
	String kubeconfig();

	/**
	 * Returns a file holding {@link #kubeconfig()}, for tools and for {@code KUBECONFIG}.
	 * @return the kubeconfig file
	 */
	Path kubeconfigFile();

	/**
	 * Returns a new client authenticated as a cluster administrator.
	 * @return the client
	 */
	ApiClient apiClient();

	/**
	 * Returns a new client authenticated as the given user, subject to RBAC like any
	 * other user.
	 * @param user the user name
	 * @param groups the groups of the user
	 * @return the client
	 */
	ApiClient apiClientFor(String user, String... groups);

	/**
	 * Returns a new administrator client that reaches the API server through another URL,
	 * such as a {@link io.github.kubeop.test.FaultProxy}, still verifying its
	 * certificate.
	 * @param url the URL to use instead of {@link #serverUrl()}
	 * @return the client
	 */
	default ApiClient apiClientVia(String url) {
		ApiClient client = apiClient();
		client.setBasePath(url);
		return client;
	}

	/**
	 * Stops the control plane and deletes its state.
	 */
	@Override
	void close();

}
