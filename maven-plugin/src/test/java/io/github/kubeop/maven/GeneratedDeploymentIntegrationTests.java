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

package io.github.kubeop.maven;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The operator's Deployment that {@link DeploymentGenerator} writes, created on a real
 * API server: the server accepts it as written (its validation of Deployments, probes and
 * resources is the one that counts), and with leader election the generated Role lets the
 * operator's service account hold a Lease in its namespace, and nowhere else.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class GeneratedDeploymentIntegrationTests {

	@Test
	void generatedDeploymentIsAcceptedAndItsRoleGrantsTheLease(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws ApiException {
		String yaml = new DeploymentGenerator("greeting-operator", namespace.name() + "/greeting-operator",
				"registry.example.com/greeting-operator:1.0.0", 2, true, 8080, "100m", "512Mi")
			.yaml();
		new Manifests(admin).apply(yaml, null);
		V1Deployment deployment = new AppsV1Api(admin).readNamespacedDeployment("greeting-operator", namespace.name())
			.execute();
		assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
		assertThat(deployment.getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo("greeting-operator");
		V1Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
		assertThat(container.getImage()).isEqualTo("registry.example.com/greeting-operator:1.0.0");
		assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
		assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
		assertThat(container.getStartupProbe().getHttpGet().getPort().getStrValue()).isEqualTo("management");
		assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
		assertThat(container.getEnv()).anySatisfy((env) -> {
			assertThat(env.getName()).isEqualTo("KUBEOP_LEADER_ELECTION_ENABLED");
			assertThat(env.getValue()).isEqualTo("true");
		});
		ApiClient operator = controlPlane.apiClientFor(
				"system:serviceaccount:" + namespace.name() + ":greeting-operator", "system:serviceaccounts",
				"system:authenticated");
		CoordinationV1Api leases = new CoordinationV1Api(operator);
		assertThat(leases.createNamespacedLease(namespace.name(), lease()).execute().getMetadata().getName())
			.isEqualTo("greeting-operator-leader");
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> leases.createNamespacedLease("default", lease()).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
	}

	private static V1Lease lease() {
		return new V1Lease().metadata(new V1ObjectMeta().name("greeting-operator-leader"));
	}

}
