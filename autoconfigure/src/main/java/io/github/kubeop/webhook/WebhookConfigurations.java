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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.openapi.models.AdmissionregistrationV1ServiceReference;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;

/**
 * Builds the {@code ValidatingWebhookConfiguration} and
 * {@code MutatingWebhookConfiguration} of a set of webhooks: one webhook entry per
 * method, whose rule is the method's resource and operations, with its selectors, side
 * effects, timeout and failure policy, and a client configuration that points either at a
 * Service (in a cluster) or at a URL (a local run). Used by the Maven plugin and by the
 * local registration alike.
 *
 * @author Kubeop authors
 */
public final class WebhookConfigurations {

	/**
	 * The annotation by which cert-manager's CA injector fills in the {@code caBundle} of
	 * every webhook of a configuration from a Certificate's CA, as
	 * {@code <namespace>/<certificate>}.
	 */
	public static final String CERT_MANAGER_INJECT_CA_FROM = "cert-manager.io/inject-ca-from";

	private WebhookConfigurations() {
	}

	/**
	 * Builds the validating configuration of the validating webhooks among some.
	 * @param name the configuration's name
	 * @param annotations the configuration's annotations, such as
	 * {@link #CERT_MANAGER_INJECT_CA_FROM}
	 * @param webhooks the webhooks
	 * @param clientConfig the client configuration for a path
	 * @return the configuration, or {@code null} if there are no validating webhooks
	 */
	public static V1ValidatingWebhookConfiguration validating(String name, Map<String, String> annotations,
			List<WebhookDefinition> webhooks,
			Function<String, AdmissionregistrationV1WebhookClientConfig> clientConfig) {
		List<V1ValidatingWebhook> entries = webhooks.stream()
			.filter((webhook) -> webhook.admission() == WebhookDefinition.Kind.VALIDATING)
			.map((webhook) -> new V1ValidatingWebhook().name(webhook.name())
				.admissionReviewVersions(List.of("v1"))
				.clientConfig(clientConfig.apply(webhook.path()))
				.rules(List.of(rule(webhook)))
				.failurePolicy(webhook.failurePolicy().value())
				.sideEffects(webhook.sideEffects().value())
				.timeoutSeconds(webhook.timeoutSeconds())
				.matchPolicy("Equivalent")
				.namespaceSelector(LabelSelectors.parse(webhook.namespaceSelector()))
				.objectSelector(LabelSelectors.parse(webhook.objectSelector())))
			.toList();
		if (entries.isEmpty()) {
			return null;
		}
		return new V1ValidatingWebhookConfiguration().apiVersion("admissionregistration.k8s.io/v1")
			.kind("ValidatingWebhookConfiguration")
			.metadata(metadata(name, annotations))
			.webhooks(new ArrayList<>(entries));
	}

	/**
	 * Builds the mutating configuration of the mutating webhooks among some.
	 * @param name the configuration's name
	 * @param annotations the configuration's annotations, such as
	 * {@link #CERT_MANAGER_INJECT_CA_FROM}
	 * @param webhooks the webhooks
	 * @param clientConfig the client configuration for a path
	 * @return the configuration, or {@code null} if there are no mutating webhooks
	 */
	public static V1MutatingWebhookConfiguration mutating(String name, Map<String, String> annotations,
			List<WebhookDefinition> webhooks,
			Function<String, AdmissionregistrationV1WebhookClientConfig> clientConfig) {
		List<V1MutatingWebhook> entries = webhooks.stream()
			.filter((webhook) -> webhook.admission() == WebhookDefinition.Kind.MUTATING)
			.map((webhook) -> new V1MutatingWebhook().name(webhook.name())
				.admissionReviewVersions(List.of("v1"))
				.clientConfig(clientConfig.apply(webhook.path()))
				.rules(List.of(rule(webhook)))
				.failurePolicy(webhook.failurePolicy().value())
				.sideEffects(webhook.sideEffects().value())
				.timeoutSeconds(webhook.timeoutSeconds())
				.matchPolicy("Equivalent")
				.reinvocationPolicy("Never")
				.namespaceSelector(LabelSelectors.parse(webhook.namespaceSelector()))
				.objectSelector(LabelSelectors.parse(webhook.objectSelector())))
			.toList();
		if (entries.isEmpty()) {
			return null;
		}
		return new V1MutatingWebhookConfiguration().apiVersion("admissionregistration.k8s.io/v1")
			.kind("MutatingWebhookConfiguration")
			.metadata(metadata(name, annotations))
			.webhooks(new ArrayList<>(entries));
	}

	/**
	 * Returns a client configuration that points at a URL, trusting a CA.
	 * @param baseUrl the base URL, such as {@code https://127.0.0.1:9443}
	 * @param caPem the CA certificate in PEM
	 * @return a function from path to client configuration
	 */
	public static Function<String, AdmissionregistrationV1WebhookClientConfig> url(String baseUrl, String caPem) {
		byte[] caBundle = caPem.getBytes(StandardCharsets.UTF_8);
		return (path) -> new AdmissionregistrationV1WebhookClientConfig().url(baseUrl + path).caBundle(caBundle);
	}

	/**
	 * Returns a client configuration that points at a Service of the cluster, whose CA
	 * cert-manager injects.
	 * @param namespace the Service's namespace
	 * @param name the Service's name
	 * @param port the Service's port
	 * @return a function from path to client configuration
	 */
	public static Function<String, AdmissionregistrationV1WebhookClientConfig> service(String namespace, String name,
			int port) {
		return (path) -> new AdmissionregistrationV1WebhookClientConfig().service(
				new AdmissionregistrationV1ServiceReference().namespace(namespace).name(name).port(port).path(path));
	}

	private static V1RuleWithOperations rule(WebhookDefinition webhook) {
		return new V1RuleWithOperations().apiGroups(List.of(webhook.resource().group()))
			.apiVersions(List.of(webhook.resource().version()))
			.resources(List.of(webhook.resource().plural()))
			.operations(webhook.operations()
				.stream()
				.map((operation) -> operation.name().toUpperCase(Locale.ROOT))
				.toList())
			.scope("*");
	}

	private static V1ObjectMeta metadata(String name, Map<String, String> annotations) {
		return new V1ObjectMeta().name(name).annotations(annotations.isEmpty() ? null : annotations);
	}

}
