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

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import okhttp3.Cache;
import okhttp3.OkHttpClient;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the Kubernetes {@link ApiClient}. A user's {@code ApiClient} bean
 * wins; otherwise the client is built from {@link KubernetesConnectionDetails}, and its
 * threads and connections are released when the context closes, or fails to start.
 *
 * @author Kubeop authors
 */
@AutoConfiguration
@ConditionalOnClass(ApiClient.class)
@EnableConfigurationProperties(KubeopProperties.class)
public final class KubeopClientAutoConfiguration implements DisposableBean {

	/**
	 * The client this configuration built, if any: a user's {@code ApiClient} bean is the
	 * user's to close.
	 */
	private volatile ApiClient builtClient;

	@Bean
	@ConditionalOnMissingBean({ KubernetesConnectionDetails.class, ApiClient.class })
	KubernetesConnectionDetails kubernetesConnectionDetails(KubeopProperties properties) {
		return connectionDetails(properties.getClient());
	}

	static KubernetesConnectionDetails connectionDetails(KubeopProperties.Client properties) {
		return new PropertiesKubernetesConnectionDetails(properties, System::getenv,
				PropertiesKubernetesConnectionDetails.homeDirectory(System::getenv, System.getProperty("user.home")));
	}

	@Bean
	@ConditionalOnMissingBean
	ApiClient kubernetesApiClient(KubernetesConnectionDetails connectionDetails, BeanFactory beanFactory)
			throws IOException {
		ApiClient client = KubernetesClientPreparation.client(beanFactory, connectionDetails);
		this.builtClient = client;
		return client;
	}

	/**
	 * Shuts down the HTTP client of the {@code ApiClient} this configuration built: its
	 * dispatcher's threads are not daemons and idle for a minute, which kept a JVM whose
	 * startup had failed alive that long. The client bean depends on this configuration,
	 * so every bean using it has been destroyed by then.
	 */
	@Override
	public void destroy() throws IOException {
		close(this.builtClient);
	}

	/**
	 * Shuts down the HTTP client of a client built here.
	 * @param client the client, or {@code null}
	 * @throws IOException if its response cache cannot be closed
	 */
	static void close(ApiClient client) throws IOException {
		if (client == null) {
			return;
		}
		OkHttpClient http = client.getHttpClient();
		http.dispatcher().executorService().shutdown();
		http.connectionPool().evictAll();
		Cache cache = http.cache();
		if (cache != null) {
			cache.close();
		}
	}

	static ApiClient buildClient(KubernetesConnectionDetails connectionDetails) throws IOException {
		String kubeconfig = connectionDetails.kubeconfig();
		if (kubeconfig == null) {
			return ClientBuilder.cluster().build();
		}
		KubeConfig config = KubeConfig.loadKubeConfig(new StringReader(kubeconfig));
		Path file = connectionDetails.kubeconfigFile();
		if (file != null) {
			config.setFile(file.toAbsolutePath().toFile());
		}
		String context = connectionDetails.context();
		if (context != null && !config.setContext(context)) {
			throw new NoKubernetesClusterException(
					"kubeop.client.context names context '" + context + "', which the kubeconfig does not define");
		}
		try {
			ClientBuilder builder = ClientBuilder.kubeconfig(config);
			JdkClientCertificate certificate = clientCertificate(config);
			if (certificate != null) {
				builder.setAuthentication(certificate);
			}
			return builder.build();
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * Returns the kubeconfig's client certificate read with the JDK alone, or
	 * {@code null} if it has none or the JDK cannot read its key: the client's own
	 * {@code KubeconfigAuthentication} chooses the certificate first too, when the user
	 * has one, and reads it with Bouncy Castle registered (see
	 * {@link JdkClientCertificate}).
	 */
	private static JdkClientCertificate clientCertificate(KubeConfig config) throws IOException {
		byte[] certificate = config.getDataOrFileRelative(config.getClientCertificateData(),
				config.getClientCertificateFile());
		byte[] key = config.getDataOrFileRelative(config.getClientKeyData(), config.getClientKeyFile());
		return (certificate != null && key != null) ? JdkClientCertificate.read(certificate, key) : null;
	}

}
