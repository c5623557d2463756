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

package io.github.kubeop.test.autoconfigure;

import io.github.kubeop.autoconfigure.KubernetesConnectionDetails;
import org.testcontainers.k3s.K3sContainer;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

/**
 * Lets a {@code @ServiceConnection} {@link K3sContainer} supply Kubeop's connection: the
 * operator under test talks to K3s with the container's administrator kubeconfig.
 *
 * @author Kubeop authors
 */
class K3sContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<K3sContainer, KubernetesConnectionDetails> {

	K3sContainerConnectionDetailsFactory() {
		super(ANY_CONNECTION_NAME, "org.testcontainers.k3s.K3sContainer");
	}

	@Override
	protected KubernetesConnectionDetails getContainerConnectionDetails(
			ContainerConnectionSource<K3sContainer> source) {
		return new K3sConnectionDetails(source);
	}

	/**
	 * Connection details read from the running container.
	 */
	static final class K3sConnectionDetails extends ContainerConnectionDetails<K3sContainer>
			implements KubernetesConnectionDetails {

		K3sConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
			super(source);
		}

		@Override
		public String kubeconfig() {
			return getContainer().getKubeConfigYaml();
		}

	}

}
