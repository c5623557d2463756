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
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.google.gson.TypeAdapter;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The client built from the {@code kubeop.client} properties, and the discovery of the
 * informers' resources, prepared on a thread of their own while the context refreshes
 * ({@link KubernetesClientPreparation}), against a real API server.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class KubernetesClientPreparationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class));

	@Test
	void theClientAndTheInformersResourcesArePreparedWhileEarlierBeansAreCreated(ControlPlane controlPlane) {
		this.runner.withBean(WaitsForThePreparation.class)
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
					"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod",
					"kubeop.informers.resources.deployments.api-version=apps/v1",
					"kubeop.informers.resources.deployments.kind=Deployment")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				KubernetesClientPreparation.Prepared prepared = context.getBean(WaitsForThePreparation.class).prepared;
				assertThat(prepared).as("what was prepared before Kubeop's beans were created").isNotNull();
				assertThat(prepared.client()).isNotNull();
				assertThat(context.getBean(ApiClient.class)).isSameAs(prepared.client());
				assertThat(context.getBean(InformerRegistry.class).discovery()).isSameAs(prepared.discovery());
				assertThat(context.getBean("deploymentsInformer", ResourceInformer.class).resource().plural())
					.isEqualTo("deployments");
			});
	}

	@Test
	void aUsersConnectionDetailsAreNotPreparedButUsed(ControlPlane controlPlane) throws Exception {
		String kubeconfig = Files.readString(controlPlane.kubeconfigFile());
		this.runner.withBean(WaitsForThePreparation.class)
			.withBean(KubernetesConnectionDetails.class, () -> new KubernetesConnectionDetails() {

				@Override
				public String kubeconfig() {
					return kubeconfig;
				}

				@Override
				public Path kubeconfigFile() {
					return controlPlane.kubeconfigFile();
				}

			})
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
					"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(WaitsForThePreparation.class).prepared).isNull();
				assertThat(context.getBean("podsInformer", ResourceInformer.class).resource().plural())
					.isEqualTo("pods");
			});
	}

	@Test
	void connectionDetailsRegisteredAsASingletonArePreparedAsATestContextRegistersThem(ControlPlane controlPlane) {
		// as @KubeopOperatorTest registers the shared control plane's: the client was
		// built, and the informers' resources discovered, on the main thread
		KubernetesConnectionDetails connectionDetails = controlPlane::kubeconfig;
		this.runner.withBean(WaitsForThePreparation.class)
			.withInitializer(
					(context) -> context.getBeanFactory().registerSingleton("testConnectionDetails", connectionDetails))
			.withPropertyValues("kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				KubernetesClientPreparation.Prepared prepared = context.getBean(WaitsForThePreparation.class).prepared;
				assertThat(prepared).as("what was prepared before Kubeop's beans were created").isNotNull();
				assertThat(context.getBean(ApiClient.class)).isSameAs(prepared.client());
				assertThat(context.getBean(InformerRegistry.class).discovery()).isSameAs(prepared.discovery());
				assertThat(context.getBean("podsInformer", ResourceInformer.class).resource().plural())
					.isEqualTo("pods");
			});
	}

	@Test
	void aContextRefreshedForAheadOfTimeProcessingDoesNotReachForTheCluster(ControlPlane controlPlane) {
		// what Spring's AOT processor sets while it refreshes the application at build
		// time
		this.runner.withBean(WaitsForThePreparation.class)
			.withSystemProperties("spring.aot.processing=true")
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
					"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod")
			.run((context) -> assertThat(context.getBean(WaitsForThePreparation.class).prepared).isNull());
	}

	@Test
	void aPreparationThatCannotReachTheServerStopsAtItsFirstFailedRequest(@TempDir Path directory) throws Exception {
		try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			AtomicInteger connections = new AtomicInteger();
			Thread acceptor = new Thread(() -> {
				while (!server.isClosed()) {
					try (Socket socket = server.accept()) {
						// no TLS: every request fails at once
						connections.incrementAndGet();
					}
					catch (IOException ex) {
						// closed
					}
				}
			});
			acceptor.setDaemon(true);
			acceptor.start();
			Path kubeconfig = directory.resolve("kubeconfig");
			Files.writeString(kubeconfig, """
					apiVersion: v1
					kind: Config
					clusters:
					- name: unreachable
					  cluster:
					    server: https://127.0.0.1:%d
					    insecure-skip-tls-verify: true
					users:
					- name: someone
					  user:
					    token: not-a-token
					contexts:
					- name: unreachable
					  context:
					    cluster: unreachable
					    user: someone
					current-context: unreachable
					""".formatted(server.getLocalPort()));
			AtomicInteger whenPrepared = new AtomicInteger(-1);
			this.runner.withBean(WaitsForThePreparation.class)
				.withBean("countsConnections", Object.class, () -> whenPrepared.getAndSet(connections.get()))
				.withPropertyValues("kubeop.client.kubeconfig=" + kubeconfig,
						"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod",
						"kubeop.informers.resources.deployments.api-version=apps/v1",
						"kubeop.informers.resources.deployments.kind=Deployment",
						"kubeop.informers.resources.jobs.api-version=batch/v1",
						"kubeop.informers.resources.jobs.kind=Job",
						"kubeop.informers.resources.leases.api-version=coordination.k8s.io/v1",
						"kubeop.informers.resources.leases.kind=Lease")
				.run((context) -> {
					// the informer beans then fail start-up as before, reaching for it
					// themselves
					assertThat(context).hasFailed();
					assertThat(whenPrepared.get()).isBetween(1, 2);
				});
		}
	}

	@Test
	void anApplicationProcessedAheadOfTimeIsPreparedToo(ControlPlane controlPlane) {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		// Kubeop's client beans as the AOT engine writes them: a factory bean, no method
		for (String name : List.of("kubernetesApiClient", "kubernetesConnectionDetails")) {
			RootBeanDefinition definition = new RootBeanDefinition(Object.class);
			definition.setFactoryBeanName(KubeopClientAutoConfiguration.class.getName());
			beanFactory.registerBeanDefinition(name, definition);
		}
		MockEnvironment environment = new MockEnvironment()
			.withProperty("kubeop.client.kubeconfig", controlPlane.kubeconfigFile().toString())
			.withProperty("kubeop.informers.resources.pods.api-version", "v1")
			.withProperty("kubeop.informers.resources.pods.kind", "Pod");
		System.setProperty("spring.aot.enabled", "true");
		try {
			KubeopInformersAutoConfiguration.kubeopKubernetesClientPreparationStarter(environment)
				.postProcessBeanFactory(beanFactory);
		}
		finally {
			System.clearProperty("spring.aot.enabled");
		}
		KubernetesClientPreparation.Prepared prepared = KubernetesClientPreparation.awaitPrepared(beanFactory);
		assertThat(prepared).isNotNull();
		assertThat(prepared.discovery().resolve("v1", "Pod").plural()).isEqualTo("pods");
	}

	@Test
	void aClientBeanReplacedByAnOrderedPostProcessorIsNotPrepared(ControlPlane controlPlane) {
		this.runner.withBean(WaitsForThePreparation.class)
			.withBean(ReplacesTheClientBean.class, () -> new ReplacesTheClientBean(controlPlane.kubeconfigFile()))
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
					"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(WaitsForThePreparation.class).prepared).isNull();
			});
	}

	@Test
	void anErrorOnThePreparationsThreadDoesNotLeaveStartUpWaitingForIt(ControlPlane controlPlane) {
		// the main thread waited for a preparation whose thread the Error had ended (a
		// type of its own: the client's Gson gives a generated model's subclass the
		// model's adapter, before any @JsonAdapter)
		assertTimeoutPreemptively(Duration.ofMinutes(2), () -> this.runner
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
					"kubeop.informers.resources.maps.api-version=v1", "kubeop.informers.resources.maps.kind=ConfigMap",
					"kubeop.informers.resources.maps.type=" + ConfigMapWithABadAdapter.class.getName())
			.run((context) -> {
				// started or failed as without the preparation: what matters is
				// that it ended
			}));
	}

	@Test
	void aPreparedClientIsClosedWithAContextThatFailedBeforeTakingIt(ControlPlane controlPlane) {
		AtomicReference<ApiClient> prepared = FailsAfterThePreparation.prepared;
		prepared.set(null);
		this.runner.withBean(FailsAfterThePreparation.class)
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
					"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod")
			.run((context) -> assertThat(context).hasFailed());
		assertThat(prepared.get()).as("the prepared client").isNotNull();
		assertThat(prepared.get().getHttpClient().dispatcher().executorService().isShutdown())
			.as("the prepared client's dispatcher shut down")
			.isTrue();
	}

	/**
	 * Replaces Kubeop's client bean as a test's {@code @MockitoBean ApiClient} does: from
	 * an ordered post-processor of the bean factory, which runs after those of the bean
	 * definition registry.
	 */
	static class ReplacesTheClientBean implements BeanFactoryPostProcessor, Ordered {

		private final Path kubeconfig;

		ReplacesTheClientBean(Path kubeconfig) {
			this.kubeconfig = kubeconfig;
		}

		@Override
		public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
			BeanDefinitionRegistry registry = (BeanDefinitionRegistry) beanFactory;
			registry.removeBeanDefinition("kubernetesApiClient");
			registry.registerBeanDefinition("kubernetesApiClient",
					new RootBeanDefinition(ApiClient.class, this::client));
		}

		private ApiClient client() {
			try {
				return Config.fromConfig(this.kubeconfig.toString());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE - 50;
		}

	}

	/**
	 * A bean of the application, created before Kubeop's beans, that fails once the
	 * client is prepared.
	 */
	static class FailsAfterThePreparation {

		static final AtomicReference<ApiClient> prepared = new AtomicReference<>();

		FailsAfterThePreparation(BeanFactory beanFactory) {
			prepared.set(KubernetesClientPreparation.awaitPrepared(beanFactory).client());
			throw new IllegalStateException("a user's bean failed");
		}

	}

	/**
	 * A type whose JSON adapter cannot be created: its class's static initializer fails,
	 * which Gson's {@code getAdapter} throws as an {@link ExceptionInInitializerError}.
	 */
	@JsonAdapter(BadAdapter.class)
	public static class ConfigMapWithABadAdapter implements KubernetesObject {

		@Override
		public V1ObjectMeta getMetadata() {
			return null;
		}

		@Override
		public String getApiVersion() {
			return "v1";
		}

		@Override
		public String getKind() {
			return "ConfigMap";
		}

	}

	/**
	 * An adapter whose static initializer fails.
	 */
	public static class BadAdapter extends TypeAdapter<ConfigMapWithABadAdapter> {

		static final Object FAILS = fail();

		private static Object fail() {
			throw new IllegalStateException("the adapter's static initializer failed");
		}

		@Override
		public void write(JsonWriter out, ConfigMapWithABadAdapter value) {
			throw new UnsupportedOperationException();
		}

		@Override
		public ConfigMapWithABadAdapter read(JsonReader in) {
			throw new UnsupportedOperationException();
		}

	}

	/**
	 * A bean of the application, created before Kubeop's beans, that waits there until
	 * the client and the discovery are prepared.
	 */
	static class WaitsForThePreparation {

		final KubernetesClientPreparation.Prepared prepared;

		WaitsForThePreparation(BeanFactory beanFactory) {
			this.prepared = KubernetesClientPreparation.awaitPrepared(beanFactory);
		}

	}

}
