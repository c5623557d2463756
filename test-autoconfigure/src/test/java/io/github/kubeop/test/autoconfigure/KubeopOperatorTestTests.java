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
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeopOperatorTest}: the CRD is installed before the context starts,
 * and the operator handles custom resources created by the test.
 *
 * @author Kubeop authors
 */
@KubeopOperatorTest(manifests = "src/test/resources/widgets.yaml",
		properties = { "kubeop.informers.resources.gadgets.api-version=kubeop.test/v1",
				"kubeop.informers.resources.gadgets.kind=Gadget" })
class KubeopOperatorTestTests {

	@Autowired
	private GadgetHandler handler;

	@Autowired
	private ApiClient operatorClient;

	@Test
	void operatorSeesCustomResourcesOfAnInstalledDefinition(ApiClient admin, TestNamespace namespace) {
		assertThat(this.operatorClient.getBasePath()).startsWith("https://127.0.0.1:");
		new Manifests(admin).apply("""
				apiVersion: kubeop.test/v1
				kind: Gadget
				metadata:
				  name: sprocket
				spec:
				  teeth: 12
				""", namespace.name());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.handler.names.contains("sprocket"));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class GadgetOperator {

		@Bean
		GadgetHandler gadgetHandler() {
			return new GadgetHandler();
		}

	}

	static class GadgetHandler {

		final List<String> names = new CopyOnWriteArrayList<>();

		@OnAdd(informer = "gadgets")
		void added(DynamicKubernetesObject gadget) {
			this.names.add(gadget.getMetadata().getName());
		}

	}

}
