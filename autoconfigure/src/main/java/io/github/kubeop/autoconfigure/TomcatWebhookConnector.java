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

package io.github.kubeop.autoconfigure;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.github.kubeop.webhook.CertificateWatcher;
import io.github.kubeop.webhook.SelfSignedCertificates;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * Adds to the application's Tomcat a TLS connector of its own for the webhooks. The API
 * server calls webhooks only over HTTPS, while the application's main port often serves
 * health probes and metrics in plain HTTP; a port of their own (controller-runtime's
 * 9443) lets both be as they need, and lets a NetworkPolicy or Service expose only the
 * webhooks to the API server. When the certificate's files change, the connector's TLS
 * configuration is replaced, as Spring Boot replaces it for a reloaded SSL bundle.
 *
 * @author Kubeop authors
 */
final class TomcatWebhookConnector
		implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, DisposableBean {

	private final KubeopProperties.Webhooks properties;

	private final Supplier<SelfSignedCertificates> certificates;

	private final BooleanSupplier hasWebhooks;

	private volatile Connector connector;

	private volatile CertificateWatcher watcher;

	TomcatWebhookConnector(KubeopProperties.Webhooks properties, Supplier<SelfSignedCertificates> certificates,
			BooleanSupplier hasWebhooks) {
		this.properties = properties;
		this.certificates = certificates;
		this.hasWebhooks = hasWebhooks;
	}

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		// an application without webhooks gets no port and no certificate
		if (!this.hasWebhooks.getAsBoolean()) {
			return;
		}
		Connector connector = new Connector(TomcatServletWebServerFactory.DEFAULT_PROTOCOL);
		connector.setPort(this.properties.getPort());
		connector.setScheme("https");
		connector.setSecure(true);
		if (this.properties.getAddress() != null) {
			connector.setProperty("address", this.properties.getAddress());
		}
		((AbstractHttp11Protocol<?>) connector.getProtocolHandler()).setSSLEnabled(true);
		CertificateWatcher watcher = WebhookCertificates.watch(this.properties, this.certificates);
		connector.addSslHostConfig(sslHostConfig(watcher));
		watcher.onChange(() -> ((AbstractHttp11Protocol<?>) connector.getProtocolHandler())
			.addSslHostConfig(sslHostConfig(watcher), true));
		factory.addAdditionalConnectors(connector);
		this.connector = connector;
		this.watcher = watcher;
	}

	private static SSLHostConfig sslHostConfig(CertificateWatcher watcher) {
		SSLHostConfig ssl = new SSLHostConfig();
		SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(ssl,
				SSLHostConfigCertificate.Type.UNDEFINED);
		certificate.setCertificateKeystore(watcher.keyStore());
		certificate.setCertificateKeystorePassword("");
		certificate.setCertificateKeyAlias(watcher.alias());
		ssl.addCertificate(certificate);
		return ssl;
	}

	@Override
	public void destroy() {
		CertificateWatcher watcher = this.watcher;
		if (watcher != null) {
			watcher.close();
		}
	}

	/**
	 * Returns the port the connector listens on.
	 * @return the port
	 * @throws IllegalStateException if the web server has not started the connector
	 */
	int localPort() {
		Connector connector = this.connector;
		if (connector == null || connector.getLocalPort() <= 0) {
			throw new IllegalStateException("The webhook connector is not listening");
		}
		return connector.getLocalPort();
	}

	boolean isWebhookPort(int port) {
		Connector connector = this.connector;
		return connector != null && connector.getLocalPort() == port;
	}

}
