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

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A serving certificate rotated while the operator runs, as cert-manager renews a Secret
 * and the kubelet swaps the mounted files (a symbolic link {@code ..data} to a new
 * directory): once the webhook configurations carry the new authority, the real
 * kube-apiserver gets through to the webhooks, on Tomcat and on Reactor Netty, without a
 * restart.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class CertificateRotationIntegrationTests {

	private static final String GROUP = "webhooks.kubeop.test";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static ApiClient admin;

	@BeforeAll
	static void applyDefinitions(ApiClient apiClient) throws Exception {
		admin = apiClient;
		new Manifests(apiClient).apply(new ClassPathResource("io/github/kubeop/webhook/widgets.yaml")
			.getContentAsString(StandardCharsets.UTF_8), null);
	}

	@ParameterizedTest
	@EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
	void aRotatedCertificateIsServedWithoutARestart(WebApplicationType type, TestNamespace namespace,
			@TempDir Path directory) throws Exception {
		SelfSignedCertificates first = SelfSignedCertificates.create(List.of());
		SelfSignedCertificates second = SelfSignedCertificates.create(List.of());
		mount(directory, first, "..2026_first");
		String name = "rotating-" + type.name().toLowerCase();
		// the configurations are registered with the first authority, read from ca.crt
		try (ConfigurableApplicationContext operator = new SpringApplicationBuilder(
				WebhooksIntegrationTests.WidgetOperator.class)
			.web(type)
			.initializers((context) -> context.getBeanFactory().registerSingleton("kubeopTestApiClient", admin))
			.run("--server.port=0", "--kubeop.webhooks.port=0", "--kubeop.webhooks.local.register=true",
					"--kubeop.webhooks.certificate-directory=" + directory,
					"--kubeop.webhooks.certificate-reload-interval=200ms", "--spring.application.name=" + name,
					"--management.endpoints.access.default=none")) {
			assertDeniedByTheWebhook(namespace, "before");
			mount(directory, second, "..2026_second");
			trust(name, second);
			await().atMost(TIMEOUT).untilAsserted(() -> assertDeniedByTheWebhook(namespace, "after"));
		}
	}

	private static void assertDeniedByTheWebhook(TestNamespace namespace, String name) {
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new CustomObjectsApi(admin)
				.createNamespacedCustomObject(GROUP, "v1", namespace.name(), "widgets", widget(name))
				.execute())
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("size 11 is more than 10"));
	}

	/**
	 * Writes the authority, serving certificate and key as the kubelet writes the files
	 * of cert-manager's Secret: into a new directory, then swapping the {@code ..data}
	 * link to it, {@code ca.crt}, {@code tls.crt} and {@code tls.key} being links through
	 * {@code ..data}.
	 */
	private static void mount(Path directory, SelfSignedCertificates certificates, String version)
			throws IOException, GeneralSecurityException {
		Path data = Files.createDirectory(directory.resolve(version));
		KeyStore store = certificates.keyStore();
		Files.writeString(data.resolve("tls.crt"), pem(store.getCertificateChain(SelfSignedCertificates.ALIAS)[0]));
		Files.writeString(data.resolve("tls.key"), pem(store.getKey(SelfSignedCertificates.ALIAS, new char[0])));
		Files.writeString(data.resolve("ca.crt"), certificates.authorityPem());
		Path link = Files.createSymbolicLink(directory.resolve("..data_tmp"), data.getFileName());
		Files.move(link, directory.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
				StandardCopyOption.REPLACE_EXISTING);
		for (String file : List.of("ca.crt", "tls.crt", "tls.key")) {
			if (!Files.exists(directory.resolve(file), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
				Files.createSymbolicLink(directory.resolve(file), Path.of("..data", file));
			}
		}
	}

	private static String pem(Object object) throws IOException {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(object);
		}
		return out.toString();
	}

	/**
	 * Gives the webhook configurations Kubeop registered the new authority, as
	 * cert-manager's CA injector does.
	 */
	private static void trust(String applicationName, SelfSignedCertificates certificates) throws ApiException {
		byte[] bundle = certificates.authorityPem().getBytes(StandardCharsets.UTF_8);
		AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(admin);
		String prefix = "kubeop-" + applicationName + "-";
		for (V1ValidatingWebhookConfiguration configuration : api.listValidatingWebhookConfiguration()
			.execute()
			.getItems()) {
			if (configuration.getMetadata().getName().startsWith(prefix)) {
				configuration.getWebhooks().forEach((webhook) -> webhook.getClientConfig().setCaBundle(bundle));
				api.replaceValidatingWebhookConfiguration(configuration.getMetadata().getName(), configuration)
					.execute();
			}
		}
		for (V1MutatingWebhookConfiguration configuration : api.listMutatingWebhookConfiguration()
			.execute()
			.getItems()) {
			if (configuration.getMetadata().getName().startsWith(prefix)) {
				configuration.getWebhooks().forEach((webhook) -> webhook.getClientConfig().setCaBundle(bundle));
				api.replaceMutatingWebhookConfiguration(configuration.getMetadata().getName(), configuration).execute();
			}
		}
	}

	private static Map<String, Object> widget(String name) {
		return new ConcurrentHashMap<>(Map.of("apiVersion", GROUP + "/v1", "kind", "Widget", "metadata",
				Map.of("name", name), "spec", Map.of("size", 11, "color", "red")));
	}

}
