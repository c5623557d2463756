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

package io.github.kubeop.autoconfigure;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details for connecting to a Kubernetes API server. The default comes from
 * {@code kubeop.client.*}, {@code KUBECONFIG}, {@code ~/.kube/config} or the in-cluster
 * service account; tests and development-time services (a local control plane, K3s) can
 * supply their own bean instead.
 *
 * @author Kubeop authors
 */
public interface KubernetesConnectionDetails extends ConnectionDetails {

	/**
	 * Returns the kubeconfig document to connect with.
	 * @return the kubeconfig YAML, or {@code null} to use the in-cluster service account
	 */
	String kubeconfig();

	/**
	 * Returns the kubeconfig context to use.
	 * @return the context, or {@code null} for the kubeconfig's current context
	 */
	default String context() {
		return null;
	}

	/**
	 * Returns the kubeconfig file, when the document came from one; relative certificate
	 * paths in it are resolved against its directory.
	 * @return the file, or {@code null}
	 */
	default java.nio.file.Path kubeconfigFile() {
		return null;
	}

}
