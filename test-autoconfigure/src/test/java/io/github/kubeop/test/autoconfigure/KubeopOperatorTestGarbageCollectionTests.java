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

// tag::imports[]
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlanes;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
// end::imports[]

/**
 * Tests that kube-controller-manager of a {@link KubeopOperatorTest} knows the
 * CustomResourceDefinitions of {@link KubeopOperatorTest#manifests()} by the time the
 * operator runs: the objects an operator creates for a custom resource go with it within
 * seconds, not after the garbage collector's next discovery resync (every 30 s). The
 * garbage collector is at work before the manifests are applied, as it is when an earlier
 * test class of the run started the shared control plane.
 *
 * @author Kubeop authors
 */
@ExtendWith(KubeopOperatorTestGarbageCollectionTests.GarbageCollectorAtWork.class)
// tag::operator-test[]
@KubeopOperatorTest(manifests = "src/test/resources/queues.yaml", components = Component.CONTROLLER_MANAGER,
		properties = { "kubeop.informers.resources.queues.api-version=gc.kubeop.test/v1",
				"kubeop.informers.resources.queues.kind=Queue" })
class KubeopOperatorTestGarbageCollectionTests {

	@Test
	void objectsOwnedByACustomResourceAreCollectedWithinSecondsOfItsDeletion(ApiClient admin, TestNamespace namespace)
			throws ApiException {
		new Manifests(admin).apply("""
				apiVersion: gc.kubeop.test/v1
				kind: Queue
				metadata:
				  name: orders
				spec:
				  partitions: 3
				""", namespace.name());
		CoreV1Api core = new CoreV1Api(admin);
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> core.readNamespacedConfigMap("orders-settings", namespace.name()).execute() != null);
		new CustomObjectsApi(admin)
			.deleteNamespacedCustomObject("gc.kubeop.test", "v1", namespace.name(), "queues", "orders")
			.body(new V1DeleteOptions().propagationPolicy("Background"))
			.execute();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThatExceptionOfType(ApiException.class)
				.isThrownBy(() -> core.readNamespacedConfigMap("orders-settings", namespace.name()).execute())
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404)));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class QueueOperator {

		@Bean
		QueueHandler queueHandler(ApiClient client) {
			return new QueueHandler(client);
		}

	}

	/**
	 * Creates a ConfigMap owned by each new queue, as an operator creates the objects of
	 * a custom resource.
	 */
	static class QueueHandler {

		private final CoreV1Api core;

		QueueHandler(ApiClient client) {
			this.core = new CoreV1Api(client);
		}

		@OnAdd(informer = "queues")
		void added(DynamicKubernetesObject queue) throws ApiException {
			V1ObjectMeta metadata = queue.getMetadata();
			V1OwnerReference owner = new V1OwnerReference().apiVersion(queue.getApiVersion())
				.kind(queue.getKind())
				.name(metadata.getName())
				.uid(metadata.getUid())
				.controller(true)
				.blockOwnerDeletion(true);
			this.core
				.createNamespacedConfigMap(metadata.getNamespace(), new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(metadata.getName() + "-settings").ownerReferences(List.of(owner)))
					.data(Map.of("partitions", "3")))
				.execute();
		}

	}

	// end::operator-test[]
	/**
	 * Waits, before the application context starts, until the garbage collector of the
	 * shared control plane has collected an object: its discovery of the API's resources
	 * is then done, without the CRD of this test.
	 */
	static class GarbageCollectorAtWork implements BeforeAllCallback {

		@Override
		public void beforeAll(ExtensionContext context) throws ApiException {
			CoreV1Api core = new CoreV1Api(ControlPlanes.shared(Set.of(Component.CONTROLLER_MANAGER)).apiClient());
			String name = "gc-at-work-" + UUID.randomUUID();
			V1ConfigMap owner = core
				.createNamespacedConfigMap("default", new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
				.execute();
			core.createNamespacedConfigMap("default",
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name + "-owned")
						.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
							.kind("ConfigMap")
							.name(name)
							.uid(owner.getMetadata().getUid())))))
				.execute();
			core.deleteNamespacedConfigMap(name, "default").execute();
			await().atMost(Duration.ofSeconds(90))
				.untilAsserted(() -> assertThatExceptionOfType(ApiException.class)
					.isThrownBy(() -> core.readNamespacedConfigMap(name + "-owned", "default").execute())
					.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404)));
		}

	}

}
