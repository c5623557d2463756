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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import io.github.kubeop.webhook.WebhookConfigurations;
import io.github.kubeop.webhook.WebhookDefinition;
import io.github.kubeop.webhook.WebhookMethods;
import io.kubernetes.client.openapi.JSON;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Generates what a cluster needs to call the operator's webhooks: the
 * {@code ValidatingWebhookConfiguration} and {@code MutatingWebhookConfiguration} of its
 * {@code @ValidatingWebhook} and {@code @MutatingWebhook} methods (read as the running
 * application reads them, so that names, paths and rules agree), pointing at a Service
 * and annotated for cert-manager's CA injector, and the Service, self-signed Issuer and
 * Certificate whose Secret the operator mounts as its serving certificate.
 *
 * @author Kubeop authors
 */
final class WebhookGenerator {

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	/**
	 * The port of the webhook Service; the API server calls 443 when a Service reference
	 * names none.
	 */
	static final int SERVICE_PORT = 443;

	private static final Gson PLAIN = new GsonBuilder().setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
		.create();

	private final Gson gson = new JSON().getGson();

	private final List<WebhookDefinition> webhooks = new ArrayList<>();

	/**
	 * Reads the webhook methods of classes.
	 * @param classes the classes
	 * @throws io.github.kubeop.webhook.InvalidWebhookMethodException for a method the
	 * application could not call
	 */
	WebhookGenerator(List<Class<?>> classes) {
		classes.forEach((type) -> this.webhooks.addAll(WebhookMethods.definitions(type)));
	}

	boolean isEmpty() {
		return this.webhooks.isEmpty();
	}

	List<WebhookDefinition> webhooks() {
		return this.webhooks;
	}

	/**
	 * Returns the webhook configurations as YAML documents.
	 * @param name the name of the configurations
	 * @param service the Service, {@code <namespace>/<name>}
	 * @return the YAML
	 */
	String configurations(String name, String service) {
		String[] parts = service(service);
		Map<String, String> annotations = Map.of(WebhookConfigurations.CERT_MANAGER_INJECT_CA_FROM,
				parts[0] + "/" + certificateName(parts[1]));
		List<Object> documents = new ArrayList<>();
		Object validating = WebhookConfigurations.validating(name, annotations, this.webhooks,
				WebhookConfigurations.service(parts[0], parts[1], SERVICE_PORT));
		Object mutating = WebhookConfigurations.mutating(name, annotations, this.webhooks,
				WebhookConfigurations.service(parts[0], parts[1], SERVICE_PORT));
		if (validating != null) {
			documents.add(validating);
		}
		if (mutating != null) {
			documents.add(mutating);
		}
		return dump(documents.stream().map(this::toMap).toList());
	}

	/**
	 * Returns the Service in front of the webhook port, and the cert-manager Issuer and
	 * Certificate of its serving certificate, as YAML documents.
	 * @param service the Service, {@code <namespace>/<name>}
	 * @param selector the labels of the operator's pods
	 * @param targetPort the webhook port of the operator ({@code kubeop.webhooks.port})
	 * @return the YAML
	 */
	String serviceAndCertificate(String service, Map<String, String> selector, int targetPort) {
		String[] parts = service(service);
		String namespace = parts[0];
		String name = parts[1];
		Map<String, Object> serviceDocument = document("v1", "Service", name, namespace);
		serviceDocument.put("spec", Map.of("selector", selector, "ports",
				List.of(Map.of("name", "webhooks", "port", SERVICE_PORT, "targetPort", targetPort))));
		Map<String, Object> issuer = document("cert-manager.io/v1", "Issuer", name + "-selfsigned", namespace);
		issuer.put("spec", Map.of("selfSigned", Map.of()));
		Map<String, Object> certificate = document("cert-manager.io/v1", "Certificate", certificateName(name),
				namespace);
		certificate.put("spec",
				Map.of("secretName", name + "-tls", "dnsNames",
						List.of(name + "." + namespace + ".svc", name + "." + namespace + ".svc.cluster.local"),
						"issuerRef", Map.of("kind", "Issuer", "name", name + "-selfsigned")));
		return dump(List.of(serviceDocument, issuer, certificate));
	}

	static String certificateName(String service) {
		return service + "-serving-cert";
	}

	private static String[] service(String service) {
		String[] parts = service.trim().split("/");
		if (parts.length != 2 || !DNS_LABEL.matcher(parts[0]).matches() || !DNS_LABEL.matcher(parts[1]).matches()) {
			throw new IllegalArgumentException(
					"<webhookService> must be <namespace>/<name> with DNS labels: got '" + service + "'");
		}
		return parts;
	}

	private static Map<String, Object> document(String apiVersion, String kind, String name, String namespace) {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("apiVersion", apiVersion);
		document.put("kind", kind);
		document.put("metadata", Map.of("name", name, "namespace", namespace));
		return document;
	}

	private Map<String, Object> toMap(Object model) {
		// integers stay integers: the API server refuses 10.0 for an int32 such as
		// timeoutSeconds
		return PLAIN.fromJson(this.gson.toJson(model), new TypeToken<LinkedHashMap<String, Object>>() {
		}.getType());
	}

	private static String dump(List<?> documents) {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		return new Yaml(options).dumpAll(documents.iterator());
	}

}
