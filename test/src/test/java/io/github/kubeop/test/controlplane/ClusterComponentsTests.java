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

// tag::imports[]
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
// end::imports[]

/**
 * Tests that a control plane with every component behaves like a cluster: the garbage
 * collector, the Deployment and ReplicaSet controllers, the scheduler, simulated nodes
 * and namespace deletion all do their part.
 *
 * @author Kubeop authors
 */
// tag::components[]
@KubernetesTest(components = { Component.CONTROLLER_MANAGER, Component.SCHEDULER, Component.NODES })
class ClusterComponentsTests {

	// end::components[]

	private static final Duration CONVERGENCE = Duration.ofSeconds(90);

	@Test
	void ownerDeletedWithBackgroundPropagationTakesItsOwnedObjectsWithIt(ApiClient client, TestNamespace namespace)
			throws ApiException {
		CoreV1Api core = new CoreV1Api(client);
		AppsV1Api apps = new AppsV1Api(client);
		String ns = namespace.name();
		V1ConfigMap owner = core
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("owner")))
			.execute();
		V1OwnerReference reference = new V1OwnerReference().apiVersion("v1")
			.kind("ConfigMap")
			.name("owner")
			.uid(owner.getMetadata().getUid())
			.controller(true);
		core.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(owned("owned-pages", reference))).execute();
		apps.createNamespacedDeployment(ns, deployment(owned("owned-web", reference), 1)).execute();
		core.createNamespacedService(ns,
				new V1Service().metadata(owned("owned-web", reference))
					.spec(new V1ServiceSpec().selector(Map.of("app", "owned-web"))
						.addPortsItem(new V1ServicePort().port(80).targetPort(new IntOrString(8080)))))
			.execute();

		core.deleteNamespacedConfigMap("owner", ns)
			.body(new V1DeleteOptions().propagationPolicy("Background"))
			.execute();

		await().atMost(CONVERGENCE).untilAsserted(() -> {
			assertNotFound(() -> core.readNamespacedConfigMap("owned-pages", ns).execute());
			assertNotFound(() -> apps.readNamespacedDeployment("owned-web", ns).execute());
			assertNotFound(() -> core.readNamespacedService("owned-web", ns).execute());
		});
	}

	// tag::deployment[]
	@Test
	void deploymentOfThreeReplicasBecomesAvailableOnSimulatedNodes(ApiClient client, TestNamespace namespace)
			throws ApiException {
		AppsV1Api apps = new AppsV1Api(client);
		String ns = namespace.name();
		apps.createNamespacedDeployment(ns, deployment(new V1ObjectMeta().name("web"), 3)).execute();

		await().atMost(CONVERGENCE).untilAsserted(() -> {
			V1Deployment deployment = apps.readNamespacedDeployment("web", ns).execute();
			assertThat(deployment.getStatus().getAvailableReplicas()).isEqualTo(3);
		});
		List<V1Pod> pods = new CoreV1Api(client).listNamespacedPod(ns).labelSelector("app=web").execute().getItems();
		assertThat(pods).hasSize(3).allSatisfy((pod) -> {
			assertThat(pod.getSpec().getNodeName()).isEqualTo(LocalControlPlane.NODE_NAME);
			assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
			assertThat(pod.getStatus().getPodIP()).isNotBlank();
			assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies((container) -> {
				assertThat(container.getName()).isEqualTo("web");
				assertThat(container.getReady()).isTrue();
				assertThat(container.getState().getRunning()).isNotNull();
			});
		});
	}
	// end::deployment[]

	@Test
	void namespaceDeletionCompletes(ApiClient client) throws ApiException {
		CoreV1Api core = new CoreV1Api(client);
		String name = "doomed-" + Long.toString(System.nanoTime(), 36);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
		core.createNamespacedConfigMap(name, new V1ConfigMap().metadata(new V1ObjectMeta().name("content"))).execute();
		new AppsV1Api(client).createNamespacedDeployment(name, deployment(new V1ObjectMeta().name("web"), 1)).execute();

		core.deleteNamespace(name).execute();

		await().atMost(CONVERGENCE).untilAsserted(() -> assertNotFound(() -> core.readNamespace(name).execute()));
	}

	private static V1ObjectMeta owned(String name, V1OwnerReference owner) {
		return new V1ObjectMeta().name(name).ownerReferences(List.of(owner));
	}

	// tag::deployment[]
	private static V1Deployment deployment(V1ObjectMeta metadata, int replicas) {
		Map<String, String> labels = Map.of("app", metadata.getName());
		return new V1Deployment().metadata(metadata)
			.spec(new V1DeploymentSpec().replicas(replicas)
				.selector(new V1LabelSelector().matchLabels(labels))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
					// no container runtime runs: the image is never pulled
					.spec(new V1PodSpec().addContainersItem(new V1Container().name("web").image("nginx:1.27-alpine"))
						// the generated model sends an empty overhead map, which the API
						// server rejects for pods without a RuntimeClass
						.overhead(null))));
	}
	// end::deployment[]

	private static void assertNotFound(Read read) {
		assertThatExceptionOfType(ApiException.class).isThrownBy(read::execute)
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
	}

	@FunctionalInterface
	private interface Read {

		void execute() throws ApiException;

	}

}
