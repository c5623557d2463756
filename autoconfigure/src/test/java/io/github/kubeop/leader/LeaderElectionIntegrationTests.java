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

package io.github.kubeop.leader;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.LeaderElectionLifecycle;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader election with two application contexts in one JVM against a real API server:
 * only the leader handles events, the other takes over when the leader stops, and a
 * leader whose lease is taken stops its workers and resumes when it wins the lease back.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class LeaderElectionIntegrationTests {

	private static ConfigurableApplicationContext start(ControlPlane controlPlane, TestNamespace namespace,
			String identity, String lease, Recorder recorder) {
		return new SpringApplicationBuilder(LeaderElectedApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("apiClient", controlPlane.apiClient());
				// a bean definition, not a singleton, so that the handler annotations are
				// processed
				((GenericApplicationContext) context).registerBean("recorder", Recorder.class, () -> recorder);
			})
			.run("--kubeop.informers.namespaces=" + namespace.name(), "--kubeop.leader-election.enabled=true",
					"--kubeop.leader-election.lease-name=" + lease,
					"--kubeop.leader-election.lease-namespace=" + namespace.name(),
					"--kubeop.leader-election.identity=" + identity, "--kubeop.leader-election.lease-duration=3s",
					"--kubeop.leader-election.renew-deadline=2s", "--kubeop.leader-election.retry-period=500ms");
	}

	@Test
	void onlyTheLeaderHandlesAndTheOtherTakesOverWhenItStops(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		Recorder first = new Recorder();
		Recorder second = new Recorder();
		ConfigurableApplicationContext firstContext = start(controlPlane, namespace, "first", "handlers", first);
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> elector(firstContext).isLeader());
			ConfigurableApplicationContext secondContext = start(controlPlane, namespace, "second", "handlers", second);
			try {
				second.leading = () -> elector(secondContext).isLeader();
				create(client, namespace, "while-first-leads");
				await().atMost(Duration.ofSeconds(10)).until(() -> first.names.contains("while-first-leads"));
				assertThat(elector(secondContext).isLeader()).isFalse();
				long stopped = System.nanoTime();
				firstContext.close();
				await().atMost(Duration.ofSeconds(3)).until(() -> elector(secondContext).isLeader());
				assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(Duration.ofSeconds(3));
				create(client, namespace, "after-handover");
				await().atMost(Duration.ofSeconds(10)).until(() -> second.names.contains("after-handover"));
				// the new leader handles every cached object once it leads, never before
				await().atMost(Duration.ofSeconds(10)).until(() -> second.names.contains("while-first-leads"));
				assertThat(second.whileNotLeading).as("calls of the second replica while it did not lead").isEmpty();
			}
			finally {
				secondContext.close();
			}
		}
		finally {
			firstContext.close();
		}
	}

	@Test
	void leaderWhoseLeaseIsTakenStopsWorkersAndResumesWhenItWinsItBack(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		Recorder recorder = new Recorder();
		ConfigurableApplicationContext context = start(controlPlane, namespace, "lonely", "taken", recorder);
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> elector(context).isLeader());
			recorder.leading = () -> elector(context).isLeader();
			CoordinationV1Api leases = new CoordinationV1Api(client);
			V1Lease lease = leases.readNamespacedLease("taken", namespace.name()).execute();
			OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
			lease.getSpec().holderIdentity("intruder").renewTime(now).acquireTime(now).leaseDurationSeconds(4);
			leases.replaceNamespacedLease("taken", namespace.name(), lease).execute();
			await().atMost(Duration.ofSeconds(5)).until(() -> !elector(context).isLeader());
			create(client, namespace, "while-intruder-leads");
			await().atMost(Duration.ofSeconds(15)).until(() -> elector(context).isLeader());
			await().atMost(Duration.ofSeconds(10)).until(() -> recorder.names.contains("while-intruder-leads"));
			assertThat(recorder.whileNotLeading).as("calls while the intruder led").isEmpty();
			assertThat(leases.readNamespacedLease("taken", namespace.name()).execute().getSpec().getLeaseTransitions())
				.isEqualTo(1);
		}
		finally {
			context.close();
		}
	}

	private static LeaderElector elector(ConfigurableApplicationContext context) {
		return context.getBean(LeaderElectionLifecycle.class).elector();
	}

	private static void create(ApiClient client, TestNamespace namespace, String name) throws Exception {
		new CoreV1Api(client)
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("k", "v")))
			.execute();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
			KubeopHandlersAutoConfiguration.class })
	static class LeaderElectedApplication {

	}

	static class Recorder {

		final List<String> names = new CopyOnWriteArrayList<>();

		final List<String> whileNotLeading = new CopyOnWriteArrayList<>();

		volatile BooleanSupplier leading = () -> true;

		@OnAdd
		void added(V1ConfigMap configMap) {
			this.names.add(configMap.getMetadata().getName());
			if (!this.leading.getAsBoolean()) {
				this.whileNotLeading.add(configMap.getMetadata().getName());
			}
		}

	}

}
