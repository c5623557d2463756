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

import java.time.Duration;
import java.util.List;

import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that {@link KubeopOperatorTest#components()} connects the operator and the test
 * to a control plane that runs them.
 *
 * @author Kubeop authors
 */
@KubeopOperatorTest(components = Component.CONTROLLER_MANAGER)
class KubeopOperatorTestComponentsTests {

	@Autowired
	private ApiClient operatorClient;

	@Test
	void operatorAndTestShareAControlPlaneWithAGarbageCollector(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws ApiException {
		assertThat(this.operatorClient.getBasePath()).isEqualTo(controlPlane.serverUrl());
		CoreV1Api core = new CoreV1Api(this.operatorClient);
		V1ConfigMap owner = core
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("owner")))
			.execute();
		core.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("owned")
					.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
						.kind("ConfigMap")
						.name("owner")
						.uid(owner.getMetadata().getUid())))))
			.execute();
		core.deleteNamespacedConfigMap("owner", namespace.name())
			.body(new V1DeleteOptions().propagationPolicy("Background"))
			.execute();
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThatExceptionOfType(ApiException.class)
				.isThrownBy(() -> new CoreV1Api(admin).readNamespacedConfigMap("owned", namespace.name()).execute())
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404)));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class NoHandlers {

	}

}
