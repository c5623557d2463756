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

package io.github.kubeop.sample;

import java.time.Duration;
import java.util.Map;

import io.github.kubeop.autoconfigure.KubernetesConnectionDetails;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample operator end to end against a real API server.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class SampleOperatorApplicationTests {

	@Test
	void greetingIsAnsweredWithAnOwnedReply(ControlPlane controlPlane, ApiClient client, TestNamespace namespace)
			throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleOperatorApplication.class)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("testConnectionDetails", (KubernetesConnectionDetails) controlPlane::kubeconfig))
			.run("--kubeop.informers.resources.greetings.namespaces=" + namespace.name(),
					"--spring.main.banner-mode=off")) {
			V1ConfigMap greeting = api
				.createNamespacedConfigMap(namespace.name(), new V1ConfigMap()
					.metadata(new V1ObjectMeta().name("hi").labels(Map.of(GreetingReconciler.GREETING_LABEL, "true")))
					.data(Map.of("from", "a test")))
				.execute();
			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				V1ConfigMap reply = api.readNamespacedConfigMap("hi-reply", namespace.name()).execute();
				assertThat(reply.getData()).containsEntry("reply", "Hello back, a test!");
				assertThat(reply.getMetadata().getOwnerReferences()).singleElement()
					.satisfies((owner) -> assertThat(owner.getUid()).isEqualTo(greeting.getMetadata().getUid()));
			});
		}
	}

}
