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
import java.util.Map;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.webhook.Admission;
import io.github.kubeop.webhook.ValidatingWebhook;
import io.github.kubeop.webhook.VersionConverter;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that {@link KubeopOperatorTest} registers the application's webhooks with the
 * test control plane: the API server calls them with no setup in the test.
 *
 * @author Kubeop authors
 */
@KubeopOperatorTest(manifests = "src/test/resources/sprockets.yaml")
class KubeopOperatorTestWebhooksTests {

	private static final String GROUP = "webhooks.kubeop.test";

	@Test
	void anInvalidObjectIsDeniedByTheApplicationsWebhook(ApiClient admin, TestNamespace namespace) {
		Map<String, Object> sprocket = Map.of("apiVersion", GROUP + "/v1", "kind", "Sprocket", "metadata",
				Map.of("name", "overgrown"), "spec", Map.of("teeth", 500));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new CustomObjectsApi(admin)
				.createNamespacedCustomObject(GROUP, "v1", namespace.name(), "sprockets", sprocket)
				.execute())
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("500 teeth are more than 100"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void anObjectReadAtAnotherVersionIsConverted(ApiClient admin, TestNamespace namespace) throws Exception {
		Map<String, Object> old = Map.of("apiVersion", GROUP + "/v1alpha1", "kind", "Sprocket", "metadata",
				Map.of("name", "vintage"), "spec", Map.of("cogs", 12));
		new CustomObjectsApi(admin).createNamespacedCustomObject(GROUP, "v1alpha1", namespace.name(), "sprockets", old)
			.execute();
		// the definition's conversion is set as the context starts; the API server takes
		// it up on its own schedule
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			Map<String, Object> asV1 = (Map<String, Object>) new CustomObjectsApi(admin)
				.getNamespacedCustomObject(GROUP, "v1", namespace.name(), "sprockets", "vintage")
				.execute();
			assertThat((Map<String, Object>) asV1.get("spec")).containsEntry("teeth", 12.0);
		});
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class SprocketOperator {

		@Bean
		SprocketWebhooks sprocketWebhooks() {
			return new SprocketWebhooks();
		}

		@Bean
		SprocketConverter sprocketConverter() {
			return new SprocketConverter();
		}

	}

	static class SprocketWebhooks {

		@ValidatingWebhook
		Admission validate(Sprocket sprocket) {
			Integer teeth = (sprocket.getSpec() != null) ? sprocket.getSpec().teeth() : null;
			return (teeth != null && teeth > 100) ? Admission.denied(teeth + " teeth are more than 100")
					: Admission.allowed();
		}

	}

	static class SprocketConverter implements VersionConverter<SprocketV1alpha1, Sprocket> {

		@Override
		public Sprocket toHub(SprocketV1alpha1 spoke) {
			Sprocket hub = new Sprocket();
			hub.setSpec(new Sprocket.Spec(spoke.getSpec().cogs()));
			return hub;
		}

		@Override
		public SprocketV1alpha1 fromHub(Sprocket hub) {
			SprocketV1alpha1 spoke = new SprocketV1alpha1();
			spoke.setSpec(new SprocketV1alpha1.Spec(hub.getSpec().teeth()));
			return spoke;
		}

	}

	/**
	 * The hub and storage version.
	 */
	@KubernetesResource(group = GROUP, version = "v1")
	public static class Sprocket extends CustomResource<Sprocket.Spec, Void> {

		/**
		 * The desired state.
		 *
		 * @param teeth the number of teeth
		 */
		public record Spec(Integer teeth) {

		}

	}

	/**
	 * The older version, which counted cogs.
	 */
	@KubernetesResource(group = GROUP, version = "v1alpha1", kind = "Sprocket")
	public static class SprocketV1alpha1 extends CustomResource<SprocketV1alpha1.Spec, Void> {

		/**
		 * The desired state.
		 *
		 * @param cogs the number of teeth
		 */
		public record Spec(Integer cogs) {

		}

	}

}
