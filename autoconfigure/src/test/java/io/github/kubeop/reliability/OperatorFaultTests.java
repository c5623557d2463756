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

package io.github.kubeop.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubernetesConnectionDetails;
import io.github.kubeop.autoconfigure.health.KubeopHealthContributorAutoConfiguration;
import io.github.kubeop.handler.HandlerContext;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults on the operator's side of the connection: permissions taken away and given back,
 * an etcd restart, a poison object, a shutdown with handlers running, and what must never
 * leak (Secret data in logs) or be switched off (TLS verification).
 *
 * @author Kubeop authors
 */
@KubernetesTest
class OperatorFaultTests {

	private static final String SECRET_VALUE = "p4ssw0rd-never-logged";

	private static ApplicationContextRunner runner(ApiClient client, String namespace) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
							KubeopHandlersAutoConfiguration.class, KubeopHealthContributorAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace);
	}

	@Test
	void lostListPermissionTurnsHealthDownWithTheReasonAndReturningItHeals(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
		rbac.createNamespacedRole(namespace.name(),
				new V1Role().metadata(new V1ObjectMeta().name("settings-reader"))
					.addRulesItem(new V1PolicyRule().addApiGroupsItem("")
						.addResourcesItem("configmaps")
						.addVerbsItem("list")
						.addVerbsItem("watch")))
			.execute();
		V1RoleBinding binding = new V1RoleBinding().metadata(new V1ObjectMeta().name("operator-reads-settings"))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("settings-reader"))
			.addSubjectsItem(new RbacV1Subject().apiGroup("rbac.authorization.k8s.io").kind("User").name("operator"));
		rbac.createNamespacedRoleBinding(namespace.name(), binding).execute();
		runner(controlPlane.apiClientFor("operator"), namespace.name())
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap", "kubeop.informers.watch-timeout=2s",
					"kubeop.health.watch-failure-threshold=1s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				HealthIndicator health = context.getBean("informersHealthIndicator", HealthIndicator.class);
				assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
				rbac.deleteNamespacedRoleBinding("operator-reads-settings", namespace.name()).execute();
				long revoked = System.nanoTime();
				await().atMost(Duration.ofSeconds(30))
					.untilAsserted(() -> assertThat(health.health(true).getStatus()).isEqualTo(Status.DOWN));
				Figures.record("RBAC revoked",
						"health DOWN after " + Duration.ofNanos(System.nanoTime() - revoked).toMillis()
								+ " ms (watch timeout 2 s, threshold 1 s)");
				assertThat(informer.status().lastError()).startsWith("403").contains("forbidden");
				assertThat(health.health(true).getDetails().toString()).contains("cannot watch resource")
					.doesNotContain(SECRET_VALUE);
				binding.getMetadata().setResourceVersion(null);
				rbac.createNamespacedRoleBinding(namespace.name(), binding).execute();
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(health.health(true).getStatus()).isEqualTo(Status.UP));
				assertThat(informer.status().state()).isEqualTo(WatchState.WATCHING);
			});
	}

	@Test
	void etcdRestartIsHealed(ControlPlane controlPlane, ApiClient admin, TestNamespace namespace) {
		assumeThat(controlPlane).isInstanceOf(LocalControlPlane.class);
		Recorder recorder = new Recorder();
		runner(controlPlane.apiClient(), namespace.name()).withBean(Recorder.class, () -> recorder)
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				CoreV1Api api = new CoreV1Api(admin);
				WatchFaultTests.create(api, namespace.name(), "before-etcd-restart", "1");
				await().atMost(Duration.ofSeconds(10))
					.until(() -> recorder.lastVersion.containsKey("before-etcd-restart"));
				((LocalControlPlane) controlPlane).restartEtcd();
				await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
					WatchFaultTests.update(api, namespace.name(), "before-etcd-restart", "2");
					assertThat(recorder.lastVersion).containsEntry("before-etcd-restart", "2");
				});
				WatchFaultTests.create(api, namespace.name(), "after-etcd-restart", "1");
				WatchFaultTests.awaitConverged(api, namespace.name(), recorder, informer);
			});
	}

	@Test
	void poisonObjectBacksOffWithoutStarvingOthers(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) {
		Poisoned handler = new Poisoned();
		runner(controlPlane.apiClient(), namespace.name()).withBean(Poisoned.class, () -> handler)
			.withPropertyValues("kubeop.handlers.rate-limiter.base-delay=20ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CoreV1Api api = new CoreV1Api(admin);
				WatchFaultTests.create(api, namespace.name(), "poison", "1");
				for (int i = 0; i < 20; i++) {
					WatchFaultTests.create(api, namespace.name(), "healthy-" + i, "1");
				}
				await().atMost(Duration.ofSeconds(20)).until(() -> handler.healthy.size() == 20);
				await().atMost(Duration.ofSeconds(20)).until(() -> handler.poisonAttempts.size() >= 6);
				List<Long> gaps = new ArrayList<>();
				for (int i = 1; i < handler.poisonAttempts.size(); i++) {
					gaps.add(handler.poisonAttempts.get(i) - handler.poisonAttempts.get(i - 1));
				}
				assertThat(gaps.get(gaps.size() - 1)).as("back-off grows").isGreaterThan(gaps.get(0));
				Figures.record("poison object",
						handler.poisonAttempts.size() + " attempts while 20 healthy keys were handled; " + "last gap "
								+ Duration.ofNanos(gaps.get(gaps.size() - 1)).toMillis() + " ms");
			});
	}

	@Test
	void shutdownLetsRunningHandlersFinishAndLeavesNoThreads(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		Slow handler = new Slow();
		ConfigurableApplicationContext[] context = new ConfigurableApplicationContext[1];
		runner(controlPlane.apiClient(), namespace.name()).withBean(Slow.class, () -> handler)
			.withPropertyValues("kubeop.handlers.shutdown-timeout=10s", "kubeop.leader-election.enabled=true",
					"kubeop.leader-election.lease-namespace=" + namespace.name(),
					"kubeop.leader-election.lease-duration=3s", "kubeop.leader-election.renew-deadline=2s",
					"kubeop.leader-election.retry-period=500ms")
			.run((started) -> {
				assertThat(started).hasNotFailed();
				WatchFaultTests.create(new CoreV1Api(admin), namespace.name(), "slow", "1");
				await().atMost(Duration.ofSeconds(20)).until(handler.started::get);
				context[0] = started.getSourceApplicationContext();
				long closing = System.nanoTime();
				context[0].close();
				Duration took = Duration.ofNanos(System.nanoTime() - closing);
				Figures.record("shutdown", "took " + took.toMillis() + " ms with a 1 s handler running");
				assertThat(handler.finished).isTrue();
				assertThat(took).isLessThan(Duration.ofSeconds(10));
			});
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
				.filteredOn((thread) -> thread.isAlive() && thread.getName().startsWith("kubeop-")
						&& !thread.getName().startsWith("kubeop-shared-control-plane")
						&& !thread.getName().startsWith("kubeop-control-plane"))
				.isEmpty());
	}

	@Test
	void secretDataNeverReachesTheLogs(ControlPlane controlPlane, ApiClient admin, TestNamespace namespace)
			throws Exception {
		new CoreV1Api(admin)
			.createNamespacedSecret(namespace.name(),
					new V1Secret().metadata(new V1ObjectMeta().name("credentials"))
						.stringData(Map.of("password", SECRET_VALUE)))
			.execute();
		Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		root.addAppender(appender);
		ch.qos.logback.classic.Level level = root.getLevel();
		root.setLevel(ch.qos.logback.classic.Level.DEBUG);
		try {
			SecretHandler handler = new SecretHandler();
			runner(controlPlane.apiClient(), namespace.name()).withBean(SecretHandler.class, () -> handler)
				.withPropertyValues("kubeop.handlers.rate-limiter.base-delay=10ms")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					await().atMost(Duration.ofSeconds(10)).until(() -> handler.attempts.size() >= 3);
				});
		}
		finally {
			root.detachAppender(appender);
			root.setLevel(level);
		}
		String encoded = java.util.Base64.getEncoder().encodeToString(SECRET_VALUE.getBytes());
		assertThat(appender.list).isNotEmpty();
		assertThat(appender.list).allSatisfy((event) -> {
			String text = event.getFormattedMessage() + " "
					+ ((event.getThrowableProxy() != null) ? event.getThrowableProxy().getMessage() : "");
			assertThat(text).doesNotContain(SECRET_VALUE).doesNotContain(encoded);
		});
	}

	@Test
	void tlsVerificationIsOnByDefault(ControlPlane controlPlane) {
		String withoutCa = controlPlane.kubeconfig().replaceAll("(?m)^\\s*certificate-authority-data: .*\\n", "");
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(KubernetesConnectionDetails.class, () -> () -> withoutCa)
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable cause = context.getStartupFailure();
				boolean handshake = false;
				while (cause != null) {
					handshake |= cause instanceof javax.net.ssl.SSLException;
					cause = cause.getCause();
				}
				assertThat(handshake).as("failed on an unverifiable certificate").isTrue();
			});
	}

	static class Poisoned {

		final List<Long> poisonAttempts = new CopyOnWriteArrayList<>();

		final List<String> healthy = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().equals("poison")) {
				this.poisonAttempts.add(System.nanoTime());
				throw new IllegalStateException("poison");
			}
			if (configMap.getMetadata().getName().startsWith("healthy-")) {
				this.healthy.add(configMap.getMetadata().getName());
			}
		}

	}

	static class Slow {

		final AtomicBoolean started = new AtomicBoolean();

		volatile boolean finished;

		@OnAdd
		void added(V1ConfigMap configMap) throws InterruptedException {
			if (configMap.getMetadata().getName().equals("slow")) {
				this.started.set(true);
				Thread.sleep(1000);
				this.finished = true;
			}
		}

	}

	static class SecretHandler {

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1Secret secret, HandlerContext context) {
			this.attempts.add(context.attempt());
			throw new IllegalStateException("cannot use secret " + secret.getMetadata().getName());
		}

	}

}
