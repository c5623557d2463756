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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.health.ShardingHealthIndicator;
import io.github.kubeop.shard.ShardMember;
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
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sharding across three replicas, each an application context with a client of its own,
 * on the real API server: every handler call is recorded with its replica, key,
 * resourceVersion, start and end, and no key may ever be handled by two replicas at
 * overlapping times, while keys split, replicas leave and join, and one is cut off.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ShardingTests {

	private static final List<String> THREE = List.of("a", "b", "c");

	@Test
	void threeReplicasSplitTheKeysAndNoKeyIsHandledByTwoAtOnce(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		// calls that take time: two replicas' calls for one key could not overlap if
		// they took none
		Calls calls = new Calls("split-", Duration.ofMillis(20));
		List<ConfigurableApplicationContext> replicas = start(controlPlane, namespace, "split", calls, THREE);
		try {
			awaitWorkingTogether(replicas);
			Map<String, String> latest = write(client, namespace, "split-", 3000, "v1");
			calls.awaitHandled(latest, Duration.ofMinutes(3));
			calls.assertNoOverlap();
			Map<String, Long> keysPerReplica = calls.keysPerReplica();
			Figures.record("sharding", "3,000 ConfigMaps over 3 replicas: keys handled per replica " + keysPerReplica);
			keysPerReplica.values().forEach((keys) -> assertThat(keys).isBetween(3000L * 25 / 100, 3000L * 42 / 100));
			assertThat(keysPerReplica.values().stream().mapToLong(Long::longValue).sum())
				.as("keys handled by more than one replica")
				.isEqualTo(3000);
		}
		finally {
			replicas.forEach(ConfigurableApplicationContext::close);
		}
	}

	@Test
	void aStoppedReplicasKeysMoveToTheOthersAndNothingIsLost(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		Calls calls = new Calls("stop-", Duration.ofMillis(20));
		List<ConfigurableApplicationContext> replicas = start(controlPlane, namespace, "stop", calls, THREE);
		try {
			awaitWorkingTogether(replicas);
			calls.awaitHandled(write(client, namespace, "stop-", 300, "v1"), Duration.ofMinutes(2));
			Set<String> ofC = calls.keysOf("c");
			assertThat(ofC).isNotEmpty();
			// the objects change while the replica stops: changes its keys get before the
			// others take them over reach no one, so only the takeover's handling of
			// every
			// cached object can deliver them
			long stopped = System.nanoTime();
			Thread stopper = new Thread(replicas.get(2)::close);
			stopper.start();
			Map<String, String> latest = write(client, namespace, "stop-", 300, "v2");
			stopper.join();
			awaitWorkingTogether(replicas.subList(0, 2));
			Figures.record("sharding", "a stopped replica's keys were taken over "
					+ Duration.ofNanos(System.nanoTime() - stopped).toMillis() + " ms after it began to stop");
			calls.awaitHandled(latest, Duration.ofMinutes(2));
			calls.assertNoOverlap();
			for (String key : ofC) {
				assertThat(calls.handlerOf(key, latest.get(key))).as("replica that handled %s last", key)
					.isIn("a", "b");
			}
		}
		finally {
			replicas.forEach(ConfigurableApplicationContext::close);
		}
	}

	@Test
	void aJoiningReplicaTakesAboutAThirdOfTheKeysWithNoOverlapDuringTheMoves(ControlPlane controlPlane,
			ApiClient client, TestNamespace namespace) throws Exception {
		Calls calls = new Calls("join-", Duration.ofSeconds(15), "slow");
		List<ConfigurableApplicationContext> replicas = new ArrayList<>(
				start(controlPlane, namespace, "join", calls, List.of("a", "b")));
		try {
			awaitWorkingTogether(replicas);
			calls.awaitHandled(write(client, namespace, "join-", 90, "v1"), Duration.ofMinutes(1));
			// every key gets a call of 15 seconds, and the third replica joins while they
			// run: the keys it takes must wait until their calls on the others ended
			Map<String, String> slow = write(client, namespace, "join-", 90, "slow");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> slow.entrySet()
					.stream()
					.allMatch((entry) -> calls.started(entry.getKey(), entry.getValue())));
			replicas.add(start(controlPlane, namespace, "join", calls, List.of("c")).get(0));
			awaitWorkingTogether(replicas);
			Map<String, String> latest = write(client, namespace, "join-", 90, "v2");
			calls.awaitHandled(latest, Duration.ofMinutes(2));
			await().atMost(Duration.ofSeconds(30)).until(calls::allEnded);
			calls.assertNoOverlap();
			long ofC = latest.entrySet()
				.stream()
				.filter((entry) -> "c".equals(calls.handlerOf(entry.getKey(), entry.getValue())))
				.count();
			Figures.record("sharding", "a third replica joining two took " + ofC + " of 90 keys");
			assertThat(ofC).isBetween(90L * 20 / 100, 90L * 47 / 100);
		}
		finally {
			replicas.forEach(ConfigurableApplicationContext::close);
		}
	}

	@Test
	void aReplicaCutOffFromTheApiServerStopsItsCallsBeforeOthersTakeItsKeys(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		Calls calls = new Calls("cut-", Duration.ofSeconds(10), "slow");
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			List<ConfigurableApplicationContext> replicas = new ArrayList<>();
			try {
				replicas.add(start(controlPlane.apiClientVia(proxy.url()), namespace, "cut", calls, "a"));
				replicas.add(start(controlPlane.apiClient(), namespace, "cut", calls, "b"));
				replicas.add(start(controlPlane.apiClient(), namespace, "cut", calls, "c"));
				awaitWorkingTogether(replicas);
				calls.awaitHandled(write(client, namespace, "cut-", 30, "v1"), Duration.ofMinutes(1));
				Set<String> ofA = calls.keysOf("a");
				assertThat(ofA).isNotEmpty();
				// slow calls everywhere, then cut a off while its calls run
				Map<String, String> slow = write(client, namespace, "cut-", 30, "slow");
				await().atMost(Duration.ofSeconds(30))
					.until(() -> ofA.stream().allMatch((key) -> calls.started(key, slow.get(key))));
				long stalled = System.nanoTime();
				proxy.stall();
				ShardingHealthIndicator health = new ShardingHealthIndicator(
						replicas.get(0).getBean(ShardingLifecycle.class).member());
				await().atMost(Duration.ofSeconds(30)).until(() -> health.health(true).getStatus() == Status.DOWN);
				assertThat(health.health(true).getDetails().get("reason").toString())
					.startsWith("the replica cannot renew its Lease");
				await().atMost(Duration.ofSeconds(60))
					.until(() -> ofA.stream().allMatch((key) -> takenOver(calls.handlerOf(key, slow.get(key)))));
				await().atMost(Duration.ofSeconds(30)).until(calls::allEnded);
				calls.assertNoOverlap();
				long lastEndOfA = calls.of("a").stream().mapToLong((call) -> call.end).max().getAsLong();
				long firstTakeover = calls.all()
					.stream()
					.filter((call) -> !call.replica.equals("a") && ofA.contains(call.key)
							&& call.resourceVersion.equals(slow.get(call.key)))
					.mapToLong((call) -> call.start)
					.min()
					.getAsLong();
				Figures.record("sharding split brain",
						"the cut-off replica's last call ended " + Duration.ofNanos(lastEndOfA - stalled).toMillis()
								+ " ms after the stall, the first of its keys was taken over "
								+ Duration.ofNanos(firstTakeover - stalled).toMillis() + " ms after it");
			}
			finally {
				proxy.restore();
				replicas.forEach(ConfigurableApplicationContext::close);
			}
		}
	}

	private static boolean takenOver(String replica) {
		return "b".equals(replica) || "c".equals(replica);
	}

	private static List<ConfigurableApplicationContext> start(ControlPlane controlPlane, TestNamespace namespace,
			String group, Calls calls, List<String> identities) {
		List<ConfigurableApplicationContext> started = new ArrayList<>();
		for (String identity : identities) {
			started.add(start(controlPlane.apiClient(), namespace, group, calls, identity));
		}
		return started;
	}

	private static ConfigurableApplicationContext start(ApiClient client, TestNamespace namespace, String group,
			Calls calls, String identity) {
		return new SpringApplicationBuilder(ShardedApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("apiClient", client);
				((GenericApplicationContext) context).registerBean("recordingHandler", RecordingHandler.class,
						() -> new RecordingHandler(identity, calls));
			})
			.run("--kubeop.informers.namespaces=" + namespace.name(), "--kubeop.sharding.enabled=true",
					"--kubeop.sharding.name=" + group, "--kubeop.sharding.lease-namespace=" + namespace.name(),
					"--kubeop.sharding.identity=" + identity, "--kubeop.sharding.lease-duration=4s",
					"--kubeop.sharding.renew-deadline=3s", "--kubeop.sharding.retry-period=500ms",
					"--kubeop.handlers.workers=64", "--kubeop.handlers.shutdown-timeout=2s");
	}

	private static void awaitWorkingTogether(List<ConfigurableApplicationContext> replicas) {
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			List<ShardMember.State> states = replicas.stream()
				.map((replica) -> replica.getBean(ShardingLifecycle.class).member().state())
				.toList();
			long generation = states.get(0).generation();
			return states.stream()
				.allMatch((state) -> state.generation() == generation && state.active() == generation
						&& state.members().size() == replicas.size());
		});
	}

	private static Map<String, String> write(ApiClient client, TestNamespace namespace, String prefix, int count,
			String version) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		Map<String, String> latest = new ConcurrentHashMap<>();
		Writers.parallel(count, (index) -> {
			String name = prefix + index;
			V1ConfigMap written;
			if (version.equals("v1")) {
				written = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("version", version)))
					.execute();
			}
			else {
				// an update without a resourceVersion: unconditional
				written = api
					.replaceNamespacedConfigMap(name, namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("version", version)))
					.execute();
			}
			latest.put(namespace.name() + "/" + name, written.getMetadata().getResourceVersion());
		});
		return latest;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
			KubeopHandlersAutoConfiguration.class })
	static class ShardedApplication {

	}

	/**
	 * One handler call.
	 */
	static final class Call {

		final String replica;

		final String key;

		final String resourceVersion;

		final long start = System.nanoTime();

		volatile long end;

		Call(String replica, String key, String resourceVersion) {
			this.replica = replica;
			this.key = key;
			this.resourceVersion = resourceVersion;
		}

	}

	/**
	 * Every call of every replica.
	 */
	static final class Calls {

		private final Queue<Call> calls = new ConcurrentLinkedQueue<>();

		private final String prefix;

		private final Duration callTime;

		private final String slowVersion;

		private final CountDownLatch released = new CountDownLatch(1);

		private volatile String heldVersion;

		Calls(String prefix, Duration callTime) {
			this(prefix, callTime, null);
		}

		/**
		 * Records the calls for objects whose names start with {@code prefix} (the
		 * namespace holds other tests' objects too); calls take {@code callTime}, or only
		 * those for objects whose data has a {@code version} starting with
		 * {@code slowVersion}.
		 */
		Calls(String prefix, Duration callTime, String slowVersion) {
			this.prefix = prefix;
			this.callTime = callTime;
			this.slowVersion = slowVersion;
		}

		void handle(String replica, V1ConfigMap configMap) throws InterruptedException {
			if (!configMap.getMetadata().getName().startsWith(this.prefix)) {
				return;
			}
			String key = configMap.getMetadata().getNamespace() + "/" + configMap.getMetadata().getName();
			Call call = new Call(replica, key, configMap.getMetadata().getResourceVersion());
			this.calls.add(call);
			try {
				String version = (configMap.getData() != null) ? configMap.getData().get("version") : null;
				boolean slow = this.slowVersion == null || (version != null && version.startsWith(this.slowVersion));
				if (slow && !this.callTime.isZero()) {
					Thread.sleep(this.callTime.toMillis());
				}
				String held = this.heldVersion;
				if (held != null && version != null && version.startsWith(held)) {
					this.released.await(1, TimeUnit.MINUTES);
				}
			}
			finally {
				call.end = System.nanoTime();
			}
		}

		/**
		 * Holds the calls for objects whose data has a {@code version} starting with
		 * {@code version} until {@link #release()} (for a minute at most), so that they
		 * run across a membership change.
		 */
		void hold(String version) {
			this.heldVersion = version;
		}

		/**
		 * Lets the held calls end.
		 */
		void release() {
			this.released.countDown();
		}

		List<Call> all() {
			return List.copyOf(this.calls);
		}

		List<Call> of(String replica) {
			return all().stream().filter((call) -> call.replica.equals(replica)).toList();
		}

		Set<String> keysOf(String replica) {
			return of(replica).stream().map((call) -> call.key).collect(Collectors.toSet());
		}

		boolean started(String key, String resourceVersion) {
			return this.calls.stream()
				.anyMatch((call) -> call.key.equals(key) && call.resourceVersion.equals(resourceVersion));
		}

		/**
		 * Returns the replica that last handled a key at the given resourceVersion or a
		 * later one (the labels mode writes labels after the test's writes).
		 */
		String handlerOf(String key, String resourceVersion) {
			return this.calls.stream()
				.filter((call) -> call.key.equals(key) && atLeast(call.resourceVersion, resourceVersion)
						&& call.end != 0)
				.map((call) -> call.replica)
				.reduce((first, second) -> second)
				.orElse(null);
		}

		boolean allEnded() {
			return this.calls.stream().allMatch((call) -> call.end != 0);
		}

		void awaitHandled(Map<String, String> latest, Duration timeout) {
			await().atMost(timeout).until(() -> {
				Map<String, Set<String>> handled = new HashMap<>();
				for (Call call : this.calls) {
					if (call.end != 0) {
						handled.computeIfAbsent(call.key, (k) -> ConcurrentHashMap.newKeySet())
							.add(call.resourceVersion);
					}
				}
				return latest.entrySet()
					.stream()
					.allMatch((entry) -> handled.getOrDefault(entry.getKey(), Set.of())
						.stream()
						.anyMatch((version) -> atLeast(version, entry.getValue())));
			});
		}

		// the resourceVersions of one object from one etcd grow as numbers
		private static boolean atLeast(String version, String wanted) {
			return Long.parseLong(version) >= Long.parseLong(wanted);
		}

		Map<String, Long> keysPerReplica() {
			Map<String, Set<String>> keys = new HashMap<>();
			for (Call call : this.calls) {
				keys.computeIfAbsent(call.replica, (r) -> ConcurrentHashMap.newKeySet()).add(call.key);
			}
			Map<String, Long> counts = new java.util.TreeMap<>();
			keys.forEach((replica, set) -> counts.put(replica, (long) set.size()));
			return counts;
		}

		/**
		 * Asserts that no two replicas' calls for one key overlap in time (a call still
		 * running counts as running for ever).
		 */
		void assertNoOverlap() {
			Map<String, List<Call>> byKey = all().stream().collect(Collectors.groupingBy((call) -> call.key));
			List<String> overlaps = new ArrayList<>();
			byKey.forEach((key, calls) -> {
				List<Call> sorted = new ArrayList<>(calls);
				sorted.sort(Comparator.comparingLong((Call call) -> call.start));
				for (int i = 0; i < sorted.size(); i++) {
					for (int j = 0; j < i; j++) {
						Call earlier = sorted.get(j);
						Call later = sorted.get(i);
						long earlierEnd = (earlier.end != 0) ? earlier.end : Long.MAX_VALUE;
						if (!earlier.replica.equals(later.replica) && earlierEnd > later.start) {
							overlaps.add(key
									+ ": " + earlier.replica + " until " + ((earlier.end != 0)
											? (earlierEnd - later.start) / 1_000_000 + " ms after " : "after ")
									+ later.replica + " started");
						}
					}
				}
			});
			assertThat(overlaps).as("keys handled by two replicas at once").isEmpty();
		}

	}

	/**
	 * Records every add and update.
	 */
	static class RecordingHandler {

		private final String replica;

		private final Calls calls;

		RecordingHandler(String replica, Calls calls) {
			this.replica = replica;
			this.calls = calls;
		}

		@OnAdd
		void added(V1ConfigMap configMap) throws InterruptedException {
			this.calls.handle(this.replica, configMap);
		}

		@OnUpdate
		void updated(V1ConfigMap configMap) throws InterruptedException {
			this.calls.handle(this.replica, configMap);
		}

	}

}
