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

import java.util.List;
import java.util.Map;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.webhook.Admission;
import io.github.kubeop.webhook.FailurePolicy;
import io.github.kubeop.webhook.InvalidWebhookMethodException;
import io.github.kubeop.webhook.MutatingWebhook;
import io.github.kubeop.webhook.Operation;
import io.github.kubeop.webhook.SideEffects;
import io.github.kubeop.webhook.ValidatingWebhook;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The webhook configurations {@link WebhookGenerator} writes, accepted by a real API
 * server as they are, and the Service and cert-manager Certificate written beside them.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class GeneratedWebhooksIntegrationTests {

	private final WebhookGenerator generator = new WebhookGenerator(List.of(GatewayWebhooks.class));

	@Test
	void theApiServerAcceptsTheConfigurationsWithEveryAttributeOfTheMethods(ApiClient admin) throws Exception {
		String yaml = this.generator.configurations("gateway-operator", "operators/gateway-webhooks");
		AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(admin);
		new Manifests(admin).apply(yaml, null);
		try {
			V1ValidatingWebhookConfiguration validating = api.readValidatingWebhookConfiguration("gateway-operator")
				.execute();
			assertThat(validating.getMetadata().getAnnotations()).containsEntry("cert-manager.io/inject-ca-from",
					"operators/gateway-webhooks-serving-cert");
			V1ValidatingWebhook webhook = validating.getWebhooks().get(0);
			assertThat(webhook.getName()).isEqualTo("vgateway.crdgen.kubeop.test");
			assertThat(webhook.getClientConfig().getService().getNamespace()).isEqualTo("operators");
			assertThat(webhook.getClientConfig().getService().getName()).isEqualTo("gateway-webhooks");
			assertThat(webhook.getClientConfig().getService().getPort()).isEqualTo(443);
			assertThat(webhook.getClientConfig().getService().getPath())
				.isEqualTo("/validate-crdgen-kubeop-test-v1-gateway");
			assertThat(webhook.getRules()).singleElement().satisfies((rule) -> {
				assertThat(rule.getApiGroups()).containsExactly("crdgen.kubeop.test");
				assertThat(rule.getApiVersions()).containsExactly("v1");
				assertThat(rule.getResources()).containsExactly("gateways");
				assertThat(rule.getOperations()).containsExactly("CREATE", "UPDATE", "DELETE");
			});
			assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
			assertThat(webhook.getSideEffects()).isEqualTo("NoneOnDryRun");
			assertThat(webhook.getTimeoutSeconds()).isEqualTo(5);
			assertThat(webhook.getNamespaceSelector().getMatchExpressions()).singleElement()
				.satisfies((requirement) -> assertThat(requirement.getOperator()).isEqualTo("NotIn"));
			assertThat(webhook.getObjectSelector().getMatchLabels()).containsEntry("kubeop.test/never", "true");
			V1MutatingWebhook mutating = api.readMutatingWebhookConfiguration("gateway-operator")
				.execute()
				.getWebhooks()
				.get(0);
			assertThat(mutating.getName()).isEqualTo("mgateway.crdgen.kubeop.test");
			assertThat(mutating.getClientConfig().getService().getPath())
				.isEqualTo("/mutate-crdgen-kubeop-test-v1-gateway");
			assertThat(mutating.getFailurePolicy()).isEqualTo("Fail");
		}
		finally {
			api.deleteValidatingWebhookConfiguration("gateway-operator").execute();
			api.deleteMutatingWebhookConfiguration("gateway-operator").execute();
		}
	}

	@Test
	void theServiceTargetsTheWebhookPortAndTheCertificateNamesTheService(ApiClient admin, TestNamespace namespace)
			throws Exception {
		String yaml = this.generator.serviceAndCertificate(namespace.name() + "/gateway-webhooks",
				Map.of("app.kubernetes.io/name", "gateway-operator"), 9443);
		String service = yaml.substring(0, yaml.indexOf("---"));
		new Manifests(admin).apply(service, null);
		assertThat(new io.kubernetes.client.openapi.apis.CoreV1Api(admin)
			.readNamespacedService("gateway-webhooks", namespace.name())
			.execute()
			.getSpec()
			.getPorts()).singleElement().satisfies((port) -> {
				assertThat(port.getPort()).isEqualTo(443);
				assertThat(port.getTargetPort().getIntValue()).isEqualTo(9443);
			});
		assertThat(yaml).contains("kind: Certificate")
			.contains("name: gateway-webhooks-serving-cert")
			.contains("- gateway-webhooks." + namespace.name() + ".svc")
			.contains("secretName: gateway-webhooks-tls");
	}

	@Test
	void aMethodTheApplicationCouldNotCallFailsTheBuild() {
		assertThatExceptionOfType(InvalidWebhookMethodException.class)
			.isThrownBy(() -> new WebhookGenerator(List.of(WrongWebhooks.class)))
			.withMessageContaining("WrongWebhooks.validate(Gateway, String)");
	}

	static class GatewayWebhooks {

		@ValidatingWebhook(operations = { Operation.CREATE, Operation.UPDATE, Operation.DELETE },
				failurePolicy = FailurePolicy.IGNORE, sideEffects = SideEffects.NONE_ON_DRY_RUN, timeoutSeconds = 5,
				namespaceSelector = "kubernetes.io/metadata.name notin (kube-system)",
				objectSelector = "kubeop.test/never=true")
		Admission validate(Gateway gateway) {
			return Admission.allowed();
		}

		@MutatingWebhook(objectSelector = "kubeop.test/never=true")
		Gateway defaults(Gateway gateway) {
			return gateway;
		}

	}

	static class WrongWebhooks {

		@ValidatingWebhook
		void validate(Gateway gateway, String name) {
		}

	}

}
