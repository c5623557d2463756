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

package io.github.kubeop.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.reactive.ReactiveWebApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The webhooks of {@link WebhooksIntegrationTests} in a reactive (WebFlux) application,
 * served by Reactor Netty over TLS and called by a real kube-apiserver on loopback.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ReactiveWebhooksIntegrationTests {

	private static final String GROUP = "webhooks.kubeop.test";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static ConfigurableApplicationContext operator;

	private static ApiClient admin;

	@BeforeAll
	static void startOperator(ApiClient apiClient) throws Exception {
		admin = apiClient;
		new Manifests(apiClient).apply(new ClassPathResource("io/github/kubeop/webhook/widgets.yaml")
			.getContentAsString(StandardCharsets.UTF_8), null);
		operator = new SpringApplicationBuilder(WebhooksIntegrationTests.WidgetOperator.class)
			.web(WebApplicationType.REACTIVE)
			.initializers((context) -> context.getBeanFactory().registerSingleton("kubeopTestApiClient", apiClient))
			.run("--server.port=0", "--kubeop.webhooks.port=0", "--kubeop.webhooks.local.register=true",
					"--spring.application.name=reactive-widget-operator", "--management.endpoints.access.default=none");
	}

	@AfterAll
	static void stopOperator() {
		if (operator != null) {
			operator.close();
		}
	}

	@Test
	void theOperatorIsAReactiveApplicationWithoutTomcat() {
		assertThat(operator).isInstanceOf(ReactiveWebApplicationContext.class);
		assertThat(operator.containsBean("kubeopWebhookServer")).isTrue();
		assertThat(operator.containsBean("kubeopWebhookConnector")).isFalse();
	}

	@Test
	void aCreateIsDeniedWithTheMethodsMessage(TestNamespace namespace) {
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create(namespace, widget("huge", 11, "red")))
			.satisfies((ex) -> {
				assertThat(ex.getCode()).isEqualTo(403);
				assertThat(ex.getResponseBody()).contains(
						"admission webhook \\\"vwidget.webhooks.kubeop.test\\\" denied the request: size 11 is more than 10");
			});
	}

	@Test
	@SuppressWarnings("unchecked")
	void aMutationIsVisibleOnTheStoredObject(TestNamespace namespace) throws Exception {
		create(namespace, widget("plain", 3, null));
		Map<String, Object> stored = get(namespace, "v1", "plain");
		assertThat((Map<String, Object>) stored.get("spec")).containsEntry("color", "blue");
	}

	@Test
	@SuppressWarnings("unchecked")
	void aV1alpha1ObjectIsConvertedToV1(TestNamespace namespace) throws Exception {
		Map<String, Object> old = Map.of("apiVersion", GROUP + "/v1alpha1", "kind", "Widget", "metadata",
				Map.of("name", "vintage"), "spec", Map.of("replicas", 3, "colour", "green"));
		// the CRD's conversion was set at startup; wait until the API server uses it
		await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
			new CustomObjectsApi(admin)
				.createNamespacedCustomObject(GROUP, "v1alpha1", namespace.name(), "widgets", old)
				.dryRun("All")
				.execute();
			assertThat(operator.getBean(WebhooksIntegrationTests.WidgetWebhooks.class).sizes).containsEntry("vintage",
					3);
		});
		new CustomObjectsApi(admin).createNamespacedCustomObject(GROUP, "v1alpha1", namespace.name(), "widgets", old)
			.execute();
		Map<String, Object> asV1 = get(namespace, "v1", "vintage");
		assertThat(asV1).containsEntry("apiVersion", GROUP + "/v1");
		assertThat((Map<String, Object>) asV1.get("spec")).containsEntry("size", 3.0).containsEntry("color", "green");
		assertThat(new ApiextensionsV1Api(admin).readCustomResourceDefinition("widgets." + GROUP)
			.execute()
			.getStatus()
			.getStoredVersions()).containsExactly("v1");
	}

	private static Map<String, Object> widget(String name, Integer size, String color) {
		Map<String, Object> spec = new ConcurrentHashMap<>();
		spec.put("size", size);
		if (color != null) {
			spec.put("color", color);
		}
		return new ConcurrentHashMap<>(Map.of("apiVersion", GROUP + "/v1", "kind", "Widget", "metadata",
				new ConcurrentHashMap<>(Map.of("name", name)), "spec", spec));
	}

	private static void create(TestNamespace namespace, Map<String, Object> widget) throws ApiException {
		new CustomObjectsApi(admin).createNamespacedCustomObject(GROUP, "v1", namespace.name(), "widgets", widget)
			.execute();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> get(TestNamespace namespace, String version, String name) throws ApiException {
		return (Map<String, Object>) new CustomObjectsApi(admin)
			.getNamespacedCustomObject(GROUP, version, namespace.name(), "widgets", name)
			.execute();
	}

}
