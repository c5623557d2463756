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

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.LeaderElectionLifecycle;
import io.github.kubeop.leader.LeaderElector;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
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
 * Leader election when the leader is cut off from the API server: two application
 * contexts, the leader's connection black-holed (stalled, not closed) by a
 * {@link FaultProxy}. The old leader must have stopped every handler call before the new
 * leader makes its first one.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class SplitBrainTests {

	@Test
	void leaderCutOffFromTheApiServerStopsItsCallsBeforeTheNewLeaderStarts(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		List<Call> calls = new CopyOnWriteArrayList<>();
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			ConfigurableApplicationContext old = start(controlPlane.apiClientVia(proxy.url()), namespace, "old",
					new SlowHandler("old", calls));
			try {
				await().atMost(Duration.ofSeconds(10)).until(() -> elector(old).isLeader());
				ConfigurableApplicationContext next = start(controlPlane.apiClient(), namespace, "new",
						new SlowHandler("new", calls));
				try {
					create(client, namespace, "work-1");
					await().atMost(Duration.ofSeconds(10))
						.until(() -> calls.stream().anyMatch((call) -> call.replica.equals("old")));
					long stalled = System.nanoTime();
					proxy.stall();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> calls.stream().anyMatch((call) -> call.replica.equals("new")));
					await().atMost(Duration.ofSeconds(30))
						.until(() -> calls.stream().allMatch((call) -> call.end != 0 || call.replica.equals("new")));
					long firstOfNew = calls.stream()
						.filter((call) -> call.replica.equals("new"))
						.mapToLong((call) -> call.start)
						.min()
						.getAsLong();
					List<Call> ofOld = calls.stream().filter((call) -> call.replica.equals("old")).toList();
					long lastEndOfOld = ofOld.stream().mapToLong((call) -> call.end).max().getAsLong();
					Figures.record("split brain",
							"the old leader's last call ended " + Duration.ofNanos(lastEndOfOld - stalled).toMillis()
									+ " ms after the stall, the new leader's first call started "
									+ Duration.ofNanos(firstOfNew - stalled).toMillis() + " ms after it (gap "
									+ Duration.ofNanos(firstOfNew - lastEndOfOld).toMillis() + " ms)");
					for (Call call : ofOld) {
						assertThat(call.start).as("a call of the old leader starting after the new leader's first")
							.isLessThan(firstOfNew);
						assertThat(call.end)
							.as("end of the old leader's call for %s, relative to the new leader's " + "first call",
									call.name)
							.isLessThan(firstOfNew);
					}
				}
				finally {
					proxy.restore();
					next.close();
				}
			}
			finally {
				proxy.restore();
				old.close();
			}
		}
	}

	private static ConfigurableApplicationContext start(ApiClient client, TestNamespace namespace, String identity,
			SlowHandler handler) {
		return new SpringApplicationBuilder(LeaderElectedApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("apiClient", client);
				((GenericApplicationContext) context).registerBean("slowHandler", SlowHandler.class, () -> handler);
			})
			.run("--kubeop.informers.namespaces=" + namespace.name(), "--kubeop.leader-election.enabled=true",
					"--kubeop.leader-election.lease-name=split",
					"--kubeop.leader-election.lease-namespace=" + namespace.name(),
					"--kubeop.leader-election.identity=" + identity, "--kubeop.leader-election.lease-duration=4s",
					"--kubeop.leader-election.renew-deadline=3s", "--kubeop.leader-election.retry-period=500ms",
					"--kubeop.handlers.shutdown-timeout=1s");
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

	/**
	 * A handler call, with the replica that made it and when it started and ended.
	 */
	static final class Call {

		final String replica;

		final String name;

		final long start = System.nanoTime();

		volatile long end;

		Call(String replica, String name) {
			this.replica = replica;
			this.name = name;
		}

	}

	/**
	 * Takes ten seconds per call unless interrupted: long enough that calls of two
	 * leaders would overlap if the old leader's calls were not stopped.
	 */
	static class SlowHandler {

		private final String replica;

		private final List<Call> calls;

		SlowHandler(String replica, List<Call> calls) {
			this.replica = replica;
			this.calls = calls;
		}

		@OnAdd
		void added(V1ConfigMap configMap) throws InterruptedException {
			Call call = new Call(this.replica, configMap.getMetadata().getName());
			this.calls.add(call);
			try {
				Thread.sleep(10_000);
			}
			finally {
				call.end = System.nanoTime();
			}
		}

	}

}
