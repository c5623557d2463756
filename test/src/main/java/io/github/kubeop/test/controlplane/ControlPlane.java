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
	 * Makes the running components see the API resources added since they started, such
	 * as those of CustomResourceDefinitions just applied, and returns once they do.
	 * kube-controller-manager reads discovery when it starts and then every 30 s; until
	 * it sees a new kind, its garbage collector cannot collect objects owned by objects
	 * of that kind (its log repeats {@code unable to get REST mapping}). A
	 * {@link LocalControlPlane} restarts kube-controller-manager, when it runs and custom
	 * resources were added since it started, and waits until its garbage collector works
	 * again (a few seconds); K3s does nothing, so that its controllers see new kinds
	 * within 30 s. {@code @KubeopOperatorTest} and
	 * {@link io.github.kubeop.test.Manifests#Manifests(ControlPlane) Manifests} call it
	 * after applying definitions.
	 */
	default void refreshDiscovery() {
	}

	/**
	 * Stops the control plane and deletes its state.
	 */
	@Override
	void close();

}
