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

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.ApiResponse;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Admission and conversion webhooks called by a real kube-apiserver on loopback: an
 * operator application with a mutating and a validating webhook method for {@link Widget}
 * and a {@link WidgetConverter}, served by its Tomcat over TLS and registered with the
 * control plane at startup.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WebhooksIntegrationTests {

	private static final String GROUP = "webhooks.kubeop.test";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final Gson gson = new Gson();

	private static ConfigurableApplicationContext operator;

	private static ApiClient admin;

	@BeforeAll
	static void startOperator(ApiClient apiClient) throws Exception {
		admin = apiClient;
		new Manifests(apiClient).apply(new ClassPathResource("io/github/kubeop/webhook/widgets.yaml")
			.getContentAsString(StandardCharsets.UTF_8), null);
		operator = new SpringApplicationBuilder(WidgetOperator.class)
			.initializers((context) -> context.getBeanFactory().registerSingleton("kubeopTestApiClient", apiClient))
			.run("--server.port=0", "--kubeop.webhooks.port=0", "--kubeop.webhooks.local.register=true",
					"--spring.application.name=widget-operator", "--management.endpoints.access.default=none");
	}

	@AfterAll
	static void stopOperator() {
		if (operator != null) {
			operator.close();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void createAndUpdateAreDeniedWithTheMethodsMessage(TestNamespace namespace) throws Exception {
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create(namespace, widget("huge", 11, "red")))
			.satisfies((ex) -> {
				assertThat(ex.getCode()).isEqualTo(403);
				assertThat(ex.getResponseBody()).contains(
						"admission webhook \\\"vwidget.webhooks.kubeop.test\\\" denied the request: size 11 is more than 10");
			});
		create(namespace, widget("shrinking", 5, "red"));
		Map<String, Object> stored = get(namespace, "v1", "shrinking");
		((Map<String, Object>) stored.get("spec")).put("size", 4);
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new CustomObjectsApi(admin)
				.replaceNamespacedCustomObject(GROUP, "v1", namespace.name(), "widgets", "shrinking", stored)
				.execute())
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("size may not shrink from 5 to 4"));
		WidgetWebhooks webhooks = operator.getBean(WidgetWebhooks.class);
		assertThat(webhooks.users.get("shrinking")).isEqualTo("kubeop-admin");
	}

	@Test
	@SuppressWarnings("unchecked")
	void mutationIsVisibleOnTheStoredObjectAndWarningsReachTheClient(TestNamespace namespace) throws Exception {
		ApiResponse<Object> response = create(namespace, widget("plain", 7, null));
		assertThat(response.getHeaders().get("Warning"))
			.anySatisfy((warning) -> assertThat(warning).contains("7 is an unlucky size"));
		Map<String, Object> stored = get(namespace, "v1", "plain");
		assertThat((Map<String, Object>) stored.get("spec")).containsEntry("color", "blue");
	}

	@Test
	void dryRunIsAdmittedButNotStored(TestNamespace namespace) throws Exception {
		ApiResponse<Object> response = new CustomObjectsApi(admin)
			.createNamespacedCustomObject(GROUP, "v1", namespace.name(), "widgets", widget("dry", 2, null))
			.dryRun("All")
			.executeWithHttpInfo();
		assertThat(gson.toJson(response.getData())).contains("\"color\":\"blue\"");
		assertThat(operator.getBean(WidgetWebhooks.class).dryRuns.get("dry")).isTrue();
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> get(namespace, "v1", "dry"))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new CustomObjectsApi(admin)
				.createNamespacedCustomObject(GROUP, "v1", namespace.name(), "widgets", widget("dry-huge", 12, null))
				.dryRun("All")
				.execute())
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("size 12 is more than 10"));
	}

	@Test
	void aThrowingWebhookDeniesSayingSoAndIsCounted(TestNamespace namespace) {
		MeterRegistry meters = operator.getBean(MeterRegistry.class);
		double before = meters.get("controller.runtime.webhook.panics").counter().count();
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create(namespace, widget("explode", 1, "red")))
			.satisfies((ex) -> assertThat(ex.getResponseBody())
				.contains("webhook vwidget.webhooks.kubeop.test threw java.lang.IllegalStateException: boom"));
		assertThat(meters.get("controller.runtime.webhook.panics").counter().count()).isEqualTo(before + 1);
		assertThat(meters.get("controller.runtime.webhook.requests")
			.tags("webhook", "/validate-webhooks-kubeop-test-v1-widget", "code", "500")
			.counter()
			.count()).isGreaterThanOrEqualTo(1);
	}

	@Test
	@SuppressWarnings("unchecked")
	void anObjectTheMethodCannotReadIsDeniedWithAMessage(TestNamespace namespace) {
		Map<String, Object> unreadable = widget("unreadable", 1, "red");
		((Map<String, Object>) unreadable.get("spec")).put("size", "lots");
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create(namespace, unreadable))
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains(
					"webhook mwidget.webhooks.kubeop.test could not read the Widget as " + Widget.class.getName()));
	}

	@Test
	@SuppressWarnings("unchecked")
	void aV1alpha1ObjectIsReadAsV1AndStoredAsTheStorageVersion(TestNamespace namespace) throws Exception {
		Map<String, Object> old = Map.of("apiVersion", GROUP + "/v1alpha1", "kind", "Widget", "metadata",
				Map.of("name", "vintage"), "spec", Map.of("replicas", 3, "colour", "green"));
		// the CRD's conversion was set at startup; wait until the API server uses it:
		// the webhooks (for v1) see the size of a v1alpha1 object only once converted
		await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
			new CustomObjectsApi(admin)
				.createNamespacedCustomObject(GROUP, "v1alpha1", namespace.name(), "widgets", old)
				.dryRun("All")
				.execute();
			assertThat(operator.getBean(WidgetWebhooks.class).sizes).containsEntry("vintage", 3);
		});
		new CustomObjectsApi(admin).createNamespacedCustomObject(GROUP, "v1alpha1", namespace.name(), "widgets", old)
			.execute();
		Map<String, Object> asV1 = get(namespace, "v1", "vintage");
		assertThat(asV1).containsEntry("apiVersion", GROUP + "/v1");
		assertThat((Map<String, Object>) asV1.get("spec")).containsEntry("size", 3.0).containsEntry("color", "green");
		Map<String, Object> asV1alpha1 = get(namespace, "v1alpha1", "vintage");
		assertThat((Map<String, Object>) asV1alpha1.get("spec")).containsEntry("replicas", 3.0)
			.containsEntry("colour", "green");
		assertThat(new ApiextensionsV1Api(admin).readCustomResourceDefinition("widgets." + GROUP)
			.execute()
			.getStatus()
			.getStoredVersions()).containsExactly("v1");
	}

	@Test
	void failurePolicyIsHonouredWhileTheWebhooksAreDown(TestNamespace namespace) throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		String name = "kubeop-test-down-" + UUID.randomUUID().toString().substring(0, 8);
		V1ValidatingWebhookConfiguration configuration = WebhookConfigurations.validating(name, Map.of(),
				WebhookMethods.definitions(DownWebhooks.class), WebhookConfigurations
					.url("https://127.0.0.1:" + closedPort, SelfSignedCertificates.create(List.of()).authorityPem()));
		AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(admin);
		api.createValidatingWebhookConfiguration(configuration).execute();
		try {
			await().atMost(TIMEOUT).untilAsserted(() -> {
				Map<String, Object> failing = labelled(widget("fail-" + UUID.randomUUID(), 1, "red"), "fail");
				assertThatExceptionOfType(ApiException.class).isThrownBy(() -> create(namespace, failing))
					.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("failed calling webhook"));
			});
			create(namespace, labelled(widget("ignored", 1, "red"), "ignore"));
			assertThat(get(namespace, "v1", "ignored")).isNotNull();
		}
		finally {
			api.deleteValidatingWebhookConfiguration(name).execute();
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> labelled(Map<String, Object> widget, String policy) {
		((Map<String, Object>) widget.get("metadata")).put("labels", Map.of("policy", policy));
		return widget;
	}

	private static Map<String, Object> widget(String name, Integer size, String color) {
		Map<String, Object> spec = new ConcurrentHashMap<>();
		spec.put("size", size);
		if (color != null) {
			spec.put("color", color);
		}
		Map<String, Object> metadata = new ConcurrentHashMap<>(Map.of("name", name));
		return new ConcurrentHashMap<>(
				Map.of("apiVersion", GROUP + "/v1", "kind", "Widget", "metadata", metadata, "spec", spec));
	}

	private static ApiResponse<Object> create(TestNamespace namespace, Map<String, Object> widget) throws ApiException {
		return new CustomObjectsApi(admin)
			.createNamespacedCustomObject(GROUP, "v1", namespace.name(), "widgets", widget)
			.executeWithHttpInfo();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> get(TestNamespace namespace, String version, String name) throws ApiException {
		return (Map<String, Object>) new CustomObjectsApi(admin)
			.getNamespacedCustomObject(GROUP, version, namespace.name(), "widgets", name)
			.execute();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WidgetOperator {

		@Bean
		WidgetWebhooks widgetWebhooks() {
			return new WidgetWebhooks();
		}

		@Bean
		WidgetConverter widgetConverter() {
			return new WidgetConverter();
		}

	}

	static class WidgetWebhooks {

		final Map<String, Boolean> dryRuns = new ConcurrentHashMap<>();

		final Map<String, String> users = new ConcurrentHashMap<>();

		final Map<String, Integer> sizes = new ConcurrentHashMap<>();

		@MutatingWebhook
		Widget setDefaults(Widget widget, AdmissionRequest request) {
			this.dryRuns.put(widget.getMetadata().getName(), request.isDryRun());
			if (widget.getSpec() != null && widget.getSpec().size() != null) {
				this.sizes.put(widget.getMetadata().getName(), widget.getSpec().size());
			}
			if (widget.getSpec() != null && widget.getSpec().color() == null) {
				widget.setSpec(new Widget.Spec(widget.getSpec().size(), "blue"));
			}
			return widget;
		}

		@ValidatingWebhook
		Admission validate(Widget widget, Widget old, AdmissionRequest request) {
			this.users.put(widget.getMetadata().getName(), request.getUserInfo().getUsername());
			if ("explode".equals(widget.getMetadata().getName())) {
				throw new IllegalStateException("boom");
			}
			if (widget.getSpec() == null || widget.getSpec().size() == null) {
				return Admission.denied("size is required");
			}
			int size = widget.getSpec().size();
			if (size > 10) {
				return Admission.denied("size " + size + " is more than 10");
			}
			if (old != null && size < old.getSpec().size()) {
				return Admission.denied("size may not shrink from " + old.getSpec().size() + " to " + size);
			}
			Admission allowed = Admission.allowed();
			return (size == 7) ? allowed.withWarning("7 is an unlucky size") : allowed;
		}

	}

	static class DownWebhooks {

		@ValidatingWebhook(path = "/validate-fail", objectSelector = "policy=fail", failurePolicy = FailurePolicy.FAIL)
		void failing(Widget widget) {
		}

		@ValidatingWebhook(path = "/validate-ignore", objectSelector = "policy=ignore",
				failurePolicy = FailurePolicy.IGNORE)
		void ignoring(Widget widget) {
		}

	}

}
