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
import io.github.kubeop.test.controlplane.K3sControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.VersionApi;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a {@code @ServiceConnection} K3s container connects the operator; runs where
 * Docker does and is skipped elsewhere.
 *
 * @author Kubeop authors
 */
@SpringBootTest
@Testcontainers(disabledWithoutDocker = true)
class K3sServiceConnectionTests {

	@Container
	@ServiceConnection
	static K3sContainer k3s = new K3sContainer(DockerImageName.parse(K3sControlPlane.DEFAULT_IMAGE));

	@Autowired
	private KubernetesConnectionDetails connectionDetails;

	@Autowired
	private ApiClient client;

	@Test
	void operatorTalksToK3s() throws Exception {
		assertThat(this.connectionDetails.kubeconfig()).isEqualTo(k3s.getKubeConfigYaml());
		assertThat(new VersionApi(this.client).getCode().execute().getGitVersion()).contains("k3s");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Operator {

	}

}
