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

import java.util.regex.Pattern;

import io.github.kubeop.resource.ResourceType;

/**
 * Where the API server reaches the operator's conversion webhook for kinds with several
 * versions: a Service in the cluster, configured in the plugin as
 * {@code <conversionWebhook><serviceName>...</serviceName>...</conversionWebhook>}. Each
 * kind's CustomResourceDefinition gets {@code spec.conversion.strategy: Webhook},
 * {@code conversionReviewVersions: [v1]} and a {@code clientConfig.service} with the path
 * {@code /convert/<group>/<plural>} unless another is configured; with a cert-manager
 * Certificate named, the CRD carries {@code cert-manager.io/inject-ca-from} so that
 * cert-manager fills in the {@code caBundle}.
 *
 * @author Kubeop authors
 */
public class ConversionWebhook {

	/**
	 * The annotation by which cert-manager's CA injector fills in a webhook's
	 * {@code caBundle} from a Certificate's CA.
	 */
	public static final String CERT_MANAGER_INJECT_CA_FROM = "cert-manager.io/inject-ca-from";

	/**
	 * The path of a kind's conversion webhook unless one is configured; {@code {group}}
	 * and {@code {plural}} stand for the kind's group and plural name.
	 */
	public static final String DEFAULT_PATH = "/convert/{group}/{plural}";

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private String serviceName;

	private String serviceNamespace;

	private int servicePort = 443;

	private String path = DEFAULT_PATH;

	private String certManagerCertificate;

	/**
	 * Creates an empty configuration, for Maven to fill in.
	 */
	public ConversionWebhook() {
	}

	/**
	 * Creates a configuration.
	 * @param serviceName the name of the operator's Service
	 * @param serviceNamespace its namespace
	 * @param servicePort its port
	 * @param path the path, {@code null} for {@link #DEFAULT_PATH}
	 * @param certManagerCertificate the cert-manager Certificate as
	 * {@code <namespace>/<name>}, {@code null} for none
	 */
	public ConversionWebhook(String serviceName, String serviceNamespace, int servicePort, String path,
			String certManagerCertificate) {
		this.serviceName = serviceName;
		this.serviceNamespace = serviceNamespace;
		this.servicePort = servicePort;
		this.path = (path != null) ? path : DEFAULT_PATH;
		this.certManagerCertificate = certManagerCertificate;
	}

	/**
	 * Checks the configuration.
	 * @return this configuration
	 * @throws IllegalArgumentException naming the parameter that is missing or wrong
	 */
	ConversionWebhook validated() {
		if (this.serviceName == null || !DNS_LABEL.matcher(this.serviceName.trim()).matches()) {
			throw invalid(
					"<serviceName> must be the DNS label of the operator's Service, got '" + this.serviceName + "'");
		}
		if (this.serviceNamespace == null || !DNS_LABEL.matcher(this.serviceNamespace.trim()).matches()) {
			throw invalid("<serviceNamespace> must be the namespace of the operator's Service, got '"
					+ this.serviceNamespace + "'");
		}
		if (this.servicePort < 1 || this.servicePort > 65535) {
			throw invalid("<servicePort> must be a port number, got " + this.servicePort);
		}
		if (this.path == null || !this.path.startsWith("/")) {
			throw invalid("<path> must start with '/', got '" + this.path + "'");
		}
		String certificate = certManagerCertificate();
		if (certificate != null && certificate.split("/").length != 2) {
			throw invalid("<certManagerCertificate> must be <namespace>/<name> of a cert-manager Certificate, got '"
					+ certificate + "'");
		}
		return this;
	}

	private static IllegalArgumentException invalid(String message) {
		return new IllegalArgumentException("Invalid <conversionWebhook>: " + message);
	}

	String serviceName() {
		return this.serviceName.trim();
	}

	String serviceNamespace() {
		return this.serviceNamespace.trim();
	}

	int servicePort() {
		return this.servicePort;
	}

	/**
	 * Returns the path of a kind's conversion webhook.
	 * @param type the kind
	 * @return the path, such as {@code /convert/sample.kubeop.io/staticsites}
	 */
	String path(ResourceType type) {
		return this.path.trim().replace("{group}", type.group()).replace("{plural}", type.plural());
	}

	String certManagerCertificate() {
		return (this.certManagerCertificate != null && !this.certManagerCertificate.isBlank())
				? this.certManagerCertificate.trim() : null;
	}

}
