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

package io.github.kubeop.write;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KubernetesTemplate} against a real API server, which alone decides how
 * server-side applies of several field managers merge.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class KubernetesTemplateIntegrationTests {

	@Test
	void applyKeepsAnotherManagersFieldsAndRepairsDriftInItsOwn(ControlPlane controlPlane, TestNamespace namespace)
			throws ApiException {
		KubernetesTemplate operator = template(controlPlane.apiClient(), "operator");
		KubernetesTemplate other = template(controlPlane.apiClient(), "other");
		V1Deployment first = operator.apply(deployment(namespace, "web", 2));
		assertThat(first.getSpec().getReplicas()).isEqualTo(2);
		other.apply(
				new V1Deployment()
					.metadata(new V1ObjectMeta().name("web")
						.namespace(namespace.name())
						.annotations(Map.of("other.example/owner", "yes")))
					.spec(new V1DeploymentSpec().replicas(5)));
		// The operator applies the object it read back before the drift, resourceVersion
		// and
		// managedFields included: they must not turn the apply into a stale write.
		V1Deployment repaired = operator.apply(first);
		assertThat(repaired.getSpec().getReplicas()).isEqualTo(2);
		assertThat(repaired.getMetadata().getAnnotations()).containsEntry("other.example/owner", "yes");
		V1Deployment stored = new AppsV1Api(controlPlane.apiClient()).readNamespacedDeployment("web", namespace.name())
			.execute();
		assertThat(stored.getSpec().getReplicas()).isEqualTo(2);
		assertThat(stored.getMetadata().getAnnotations()).containsEntry("other.example/owner", "yes");
	}

	@Test
	void unchangedStatusIsNotWrittenAndObservedGenerationIsSet(ControlPlane controlPlane, TestNamespace namespace)
			throws ApiException {
		List<String> statusPatches = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			if (chain.request().method().equals("PATCH") && chain.request().url().encodedPath().endsWith("/status")) {
				statusPatches.add(chain.request().url().encodedPath());
			}
			return chain.proceed(chain.request());
		}).build());
		KubernetesTemplate operator = template(client, "operator");
		V1Deployment deployment = operator.apply(deployment(namespace, "web-status", 1));
		V1Deployment written = operator.applyStatus(deployment, new V1DeploymentStatus().replicas(0).readyReplicas(0));
		assertThat(statusPatches).hasSize(1);
		assertThat(written.getStatus().getObservedGeneration()).isEqualTo(deployment.getMetadata().getGeneration());
		V1Deployment again = operator.applyStatus(written, new V1DeploymentStatus().replicas(0).readyReplicas(0));
		assertThat(again).isSameAs(written);
		assertThat(statusPatches).hasSize(1);
		operator.applyStatus(written, new V1DeploymentStatus().replicas(1).readyReplicas(0));
		assertThat(statusPatches).hasSize(2);
	}

	@Test
	void rejectedApplyCarriesTheServersMessage(ControlPlane controlPlane, TestNamespace namespace) {
		KubernetesTemplate operator = template(controlPlane.apiClient(), "operator");
		V1Service invalid = new V1Service().metadata(new V1ObjectMeta().name("bad").namespace(namespace.name()))
			.spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(70000))));
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> operator.apply(invalid))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(422))
			.withMessageContaining("/bad' failed (422)")
			.withMessageContaining("spec.ports[0].port");
	}

	private static KubernetesTemplate template(ApiClient client, String fieldManager) {
		return new KubernetesTemplate(client, new InformerRegistry(client), fieldManager, true);
	}

	private static V1Deployment deployment(TestNamespace namespace, String name, int replicas) {
		Map<String, String> labels = Map.of("app", name);
		return new V1Deployment().metadata(new V1ObjectMeta().name(name).namespace(namespace.name()))
			.spec(new V1DeploymentSpec().replicas(replicas)
				.selector(new V1LabelSelector().matchLabels(labels))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("nginx"))))));
	}

}
