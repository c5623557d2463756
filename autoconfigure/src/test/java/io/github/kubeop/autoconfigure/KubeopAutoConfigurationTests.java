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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ListStrategy;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.kubeop.autoconfigure.InformerConfigurationFailureTests.rootCause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KubeopClientAutoConfiguration} and
 * {@link KubeopInformersAutoConfiguration} that need no API server.
 *
 * @author Kubeop authors
 */
class KubeopAutoConfigurationTests {

	private static final String KUBECONFIG = """
			apiVersion: v1
			kind: Config
			clusters:
			- name: first
			  cluster:
			    server: https://127.0.0.1:6443
			- name: second
			  cluster:
			    server: https://127.0.0.1:7443
			users:
			- name: someone
			  user:
			    token: not-a-real-token
			contexts:
			- name: first
			  context: {cluster: first, user: someone}
			- name: second
			  context: {cluster: second, user: someone}
			current-context: first
			""";

	@TempDir
	Path directory;

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class));

	@Test
	void userApiClientWinsAndNoClusterLookupHappens() {
		ApiClient mine = new ApiClient().setBasePath("https://127.0.0.1:9443");
		this.runner.withBean(ApiClient.class, () -> mine).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).getBean(ApiClient.class).isSameAs(mine);
			assertThat(context).doesNotHaveBean(KubernetesConnectionDetails.class);
			assertThat(context).hasSingleBean(InformerRegistry.class);
			assertThat(context).hasSingleBean(InformersLifecycle.class);
		});
	}

	@Test
	void kubeconfigPropertyAndContextAreHonoured() throws IOException {
		Path kubeconfig = Files.writeString(this.directory.resolve("config"), KUBECONFIG);
		this.runner.withPropertyValues("kubeop.client.kubeconfig=" + kubeconfig).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo("https://127.0.0.1:6443");
		});
		this.runner.withPropertyValues("kubeop.client.kubeconfig=" + kubeconfig, "kubeop.client.context=second")
			.run((context) -> assertThat(context.getBean(ApiClient.class).getBasePath())
				.isEqualTo("https://127.0.0.1:7443"));
	}

	@Test
	void unknownContextNamesTheProperty() throws IOException {
		Path kubeconfig = Files.writeString(this.directory.resolve("config"), KUBECONFIG);
		this.runner.withPropertyValues("kubeop.client.kubeconfig=" + kubeconfig, "kubeop.client.context=third")
			.run((context) -> assertThat(rootCause(context.getStartupFailure(), NoKubernetesClusterException.class))
				.hasMessageContaining("kubeop.client.context names context 'third'"));
	}

	@Test
	void userConnectionDetailsWin() {
		this.runner.withBean(KubernetesConnectionDetails.class, () -> () -> KUBECONFIG)
			.run((context) -> assertThat(context.getBean(ApiClient.class).getBasePath())
				.isEqualTo("https://127.0.0.1:6443"));
	}

	@Test
	void backsOffWithoutTheKubernetesClient() {
		this.runner.withClassLoader(new FilteredClassLoader(ApiClient.class)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(InformerRegistry.class);
			assertThat(context).doesNotHaveBean(KubernetesConnectionDetails.class);
		});
	}

	@Test
	void informersAreSwitchedOffByTheirFlag() {
		this.runner.withBean(ApiClient.class, ApiClient::new)
			.withPropertyValues("kubeop.informers.enabled=false", "kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(InformerRegistry.class);
				assertThat(context).doesNotHaveBean(Lister.class);
			});
	}

	@Test
	void negativeDurationsAndMissingFieldsNameTheProperty() {
		assertInvalid("kubeop.informers.resources.pods.resync-period", "kubeop.informers.resources.pods.api-version=v1",
				"kubeop.informers.resources.pods.kind=Pod", "kubeop.informers.resources.pods.resync-period=-5s");
		assertInvalid("kubeop.informers.resync-period", "kubeop.informers.resync-period=-1m");
		assertInvalid("kubeop.informers.sync-timeout", "kubeop.informers.sync-timeout=0s");
		assertInvalid("kubeop.informers.page-size", "kubeop.informers.page-size=0");
		assertInvalid("kubeop.informers.resources.pods.kind", "kubeop.informers.resources.pods.api-version=v1");
		assertInvalid("kubeop.informers.resources.pods.api-version", "kubeop.informers.resources.pods.kind=Pod");
		assertInvalid("kubeop.informers.resources.pods.type", "kubeop.informers.resources.pods.api-version=v1",
				"kubeop.informers.resources.pods.kind=Pod", "kubeop.informers.resources.pods.type=java.lang.String");
	}

	@Test
	void listStrategyIsWatchListByDefaultHonouredAndABadOneNamesTheProperty() {
		this.runner.withBean(ApiClient.class, ApiClient::new)
			.run((context) -> assertThat(context.getBean(InformerRegistry.class).listStrategy())
				.isEqualTo(ListStrategy.WATCH_LIST));
		this.runner.withBean(ApiClient.class, ApiClient::new)
			.withPropertyValues("kubeop.informers.list-strategy=list")
			.run((context) -> assertThat(context.getBean(InformerRegistry.class).listStrategy())
				.isEqualTo(ListStrategy.LIST));
		this.runner.withBean(ApiClient.class, ApiClient::new)
			.withPropertyValues("kubeop.informers.list-strategy=pages")
			.run((context) -> assertThat(rootCause(context.getStartupFailure(), BindException.class).getName())
				.hasToString("kubeop.informers.list-strategy"));
	}

	@Test
	void noClusterConfiguredFailsWithAnActionInsteadOfFallingBackToLocalhost() {
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> new PropertiesKubernetesConnectionDetails(new KubeopProperties.Client(), (name) -> null,
					this.directory))
			.satisfies((ex) -> {
				FailureAnalysis analysis = new NoKubernetesClusterFailureAnalyzer().analyze(ex);
				assertThat(analysis.getDescription()).contains("No Kubernetes cluster is configured");
				assertThat(analysis.getAction()).contains("KUBECONFIG")
					.contains("kubeop.client.kubeconfig")
					.contains("never falls back to localhost:8080");
			});
	}

	@Test
	void kubeconfigIsFoundInKubeconfigVariableThenHomeDirectory() throws IOException {
		Path second = Files.writeString(this.directory.resolve("second"), KUBECONFIG);
		Map<String, String> environment = Map.of("KUBECONFIG", this.directory.resolve("missing") + ":" + second);
		assertThat(new PropertiesKubernetesConnectionDetails(new KubeopProperties.Client(), environment::get,
				this.directory)
			.kubeconfigFile()).isEqualTo(second);
		Path home = Files.createDirectories(this.directory.resolve("home/.kube"));
		Path standard = Files.writeString(home.resolve("config"), KUBECONFIG);
		assertThat(new PropertiesKubernetesConnectionDetails(new KubeopProperties.Client(), (name) -> null,
				this.directory.resolve("home"))
			.kubeconfigFile()).isEqualTo(standard);
	}

	@Test
	void builtClientReleasesItsThreadsOnCloseAndAUsersClientIsLeftAlone() throws IOException {
		Path kubeconfig = Files.writeString(this.directory.resolve("config"), KUBECONFIG);
		OkHttpClient[] built = new OkHttpClient[1];
		this.runner.withPropertyValues("kubeop.client.kubeconfig=" + kubeconfig).run((context) -> {
			built[0] = context.getBean(ApiClient.class).getHttpClient();
			assertThat(built[0].dispatcher().executorService().isShutdown()).isFalse();
		});
		assertThat(built[0].dispatcher().executorService().isShutdown()).as("dispatcher of the built client").isTrue();
		ApiClient mine = new ApiClient();
		this.runner.withBean(ApiClient.class, () -> mine)
			.run((context) -> assertThat(context).getBean(ApiClient.class).isSameAs(mine));
		assertThat(mine.getHttpClient().dispatcher().executorService().isShutdown())
			.as("dispatcher of the user's client")
			.isFalse();
	}

	@Test
	void homeIsTheHomeVariableAsForKubectlAndUserHomeOnlyWithoutIt() throws IOException {
		Path home = Files.createDirectories(this.directory.resolve("home"));
		String userHome = this.directory.resolve("java-user-home").toString();
		assertThat(PropertiesKubernetesConnectionDetails.homeDirectory(Map.of("HOME", home.toString())::get, userHome))
			.isEqualTo(home);
		assertThat(PropertiesKubernetesConnectionDetails.homeDirectory((name) -> null, userHome))
			.isEqualTo(Path.of(userHome));
	}

	private void assertInvalid(String property, String... properties) {
		this.runner.withBean(ApiClient.class, ApiClient::new)
			.withPropertyValues(properties)
			.run((context) -> assertThat(
					rootCause(context.getStartupFailure(), InvalidConfigurationPropertyValueException.class).getName())
				.isEqualTo(property));
	}

}
