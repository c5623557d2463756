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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.shard.HashRing;
import io.github.kubeop.shard.ShardMember;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.ResolvableType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sharding in the labels mode on the real API server: objects are labelled with their
 * shard and each replica's informer watches only its own, so that each cache holds one
 * shard; keys move by relabelling without a delete on the old owner.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ShardLabelsTests {

	private static final String LABEL = "shard.kubeop.io/labelled";

	@Test
	void eachReplicaCachesAndHandlesOnlyItsShardOwnedObjectsFollowAndMovesDeleteNothing(ControlPlane controlPlane,
			ApiClient client, TestNamespace namespace) throws Exception {
		// calls that take time: two replicas' calls for one key could not overlap if
		// they took none
		ShardingTests.Calls calls = new ShardingTests.Calls("labelled-", Duration.ofMillis(20));
		List<String> deletes = new CopyOnWriteArrayList<>();
		List<ConfigurableApplicationContext> replicas = new ArrayList<>();
		try {
			for (String identity : List.of("a", "b", "c")) {
				replicas.add(start(controlPlane.apiClient(), namespace, calls, deletes, identity));
			}
			awaitWorkingTogether(replicas);
			Map<String, String> created = write(client, namespace, 300, "v1");
			calls.awaitHandled(created, Duration.ofMinutes(2));
			// what was handled, before what is cached now: two replicas that handled one
			// key at once are told as such
			calls.assertNoOverlap();
			// every object carries one replica's label, and that replica's cache holds
			// exactly the objects with its label
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				Set<String> cached = new HashSet<>();
				for (int i = 0; i < replicas.size(); i++) {
					String identity = List.of("a", "b", "c").get(i);
					List<V1ConfigMap> own = lister(replicas.get(i)).list()
						.stream()
						.filter((configMap) -> configMap.getMetadata().getName().startsWith("labelled-"))
						.toList();
					assertThat(own).allSatisfy((configMap) -> assertThat(configMap.getMetadata().getLabels())
						.containsEntry(LABEL, identity));
					assertThat(own.size()).as("objects cached by %s", identity)
						.isBetween(300 * 20 / 100, 300 * 47 / 100);
					own.forEach((configMap) -> assertThat(cached.add(configMap.getMetadata().getName()))
						.as("cached by two replicas")
						.isTrue());
				}
				assertThat(cached).hasSize(300);
			});
			Figures.record("sharding labels", "300 ConfigMaps: keys handled per replica " + calls.keysPerReplica());
			// owned objects follow their owner's shard
			CoreV1Api api = new CoreV1Api(client);
			for (int i = 0; i < 10; i++) {
				V1ConfigMap owner = api.readNamespacedConfigMap("labelled-" + i, namespace.name()).execute();
				api.createNamespacedSecret(namespace.name(),
						new V1Secret().metadata(new V1ObjectMeta().name("owned-" + i)
							.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
								.kind("ConfigMap")
								.name(owner.getMetadata().getName())
								.uid(owner.getMetadata().getUid())
								.controller(true)))))
					.execute();
			}
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				for (int i = 0; i < 10; i++) {
					String ownerShard = api.readNamespacedConfigMap("labelled-" + i, namespace.name())
						.execute()
						.getMetadata()
						.getLabels()
						.get(LABEL);
					V1Secret secret = api.readNamespacedSecret("owned-" + i, namespace.name()).execute();
					assertThat(secret.getMetadata().getLabels()).as("labels of owned-%d", i)
						.containsEntry(LABEL, ownerShard);
					String name = "owned-" + i;
					assertThat(secrets(replicas.get(List.of("a", "b", "c").indexOf(ownerShard))).list())
						.as("secrets cached by %s", ownerShard)
						.anyMatch((cached) -> cached.getMetadata().getName().equals(name));
				}
			});
			// a fourth replica joins: keys move to it by relabelling, which takes them
			// out of the old owners' caches without a delete there. Some of the keys that
			// move have a call running on their old owner across the change, held until
			// the test has seen one of two things. Either the old owners of the held
			// keys,
			// having seen the new ring, renewed their Leases without acknowledging it:
			// they wait for the held calls, so nothing of theirs may reach the new
			// replica yet. Or the new replica works by the new ring: it handled a write
			// to a key that moved to it and was not held (the sentinel), made once the
			// held objects carried its label and it had handled that key once, so that
			// the held keys were in its queue before the sentinel. No fixed window: a
			// slow replica is waited for
			HashRing four = HashRing.of(List.of("a", "b", "c", "d"),
					replicas.get(0).getBean(ShardingLifecycle.class).member().config().virtualNodes());
			List<Integer> moving = IntStream.range(1, 300)
				.filter((i) -> "d".equals(four.owner(namespace.name() + "/labelled-" + i)))
				.limit(7)
				.boxed()
				.toList();
			String sentinel = namespace.name() + "/labelled-" + moving.get(6);
			calls.hold("held");
			Map<String, String> held = write(client, namespace, moving.subList(0, 6), "held");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> held.entrySet()
					.stream()
					.allMatch((entry) -> calls.started(entry.getKey(), entry.getValue())));
			Set<String> oldOwners = calls.all()
				.stream()
				.filter((call) -> held.containsKey(call.key) && call.resourceVersion.equals(held.get(call.key)))
				.map((call) -> call.replica)
				.collect(Collectors.toSet());
			replicas.add(start(controlPlane.apiClient(), namespace, calls, deletes, "d"));
			long joined = System.nanoTime();
			HeldMove move = new HeldMove(client, namespace, replicas, oldOwners, held, sentinel, calls);
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(100))
				.alias("old owners refusing the new ring, or the new replica handling the sentinel")
				.until(move::settled);
			Figures.record("sharding labels",
					"held move settled " + (System.nanoTime() - joined) / 1_000_000 + " ms after d started: "
							+ (move.refused() ? "old owners " + oldOwners + " refused the new ring"
									: "d handled the sentinel"));
			assertThat(calls.of("d")
				.stream()
				.filter((call) -> held.containsKey(call.key))
				.map((call) -> call.key + " at " + call.resourceVersion))
				.as("calls of d on held keys while they were held (%s)",
						move.refused() ? "old owners refused the new ring" : "d handled the sentinel")
				.isEmpty();
			calls.assertNoOverlap();
			calls.release();
			awaitWorkingTogether(replicas);
			Map<String, String> updated = write(client, namespace, 300, "v2");
			calls.awaitHandled(updated, Duration.ofMinutes(2));
			long ofD = updated.entrySet()
				.stream()
				.filter((entry) -> "d".equals(calls.handlerOf(entry.getKey(), entry.getValue())))
				.count();
			assertThat(ofD).isBetween(300L * 10 / 100, 300L * 40 / 100);
			// a real delete is one: the sentinel that proves no delete came for the moves
			new CoreV1Api(client).deleteNamespacedConfigMap("labelled-0", namespace.name()).execute();
			await().atMost(Duration.ofSeconds(30)).until(() -> deletes.contains("labelled-0"));
			assertThat(deletes).as("deletes told to handlers").containsExactly("labelled-0");
			calls.assertNoOverlap();
		}
		finally {
			// a test that failed while calls were held does not wait for them
			calls.release();
			replicas.forEach(ConfigurableApplicationContext::close);
		}
	}

	@SuppressWarnings("unchecked")
	private static Lister<V1Secret> secrets(ConfigurableApplicationContext context) {
		return (Lister<V1Secret>) context
			.getBeanProvider(ResolvableType.forClassWithGenerics(Lister.class, V1Secret.class))
			.getObject();
	}

	@SuppressWarnings("unchecked")
	private static Lister<V1ConfigMap> lister(ConfigurableApplicationContext context) {
		return (Lister<V1ConfigMap>) context
			.getBeanProvider(ResolvableType.forClassWithGenerics(Lister.class, V1ConfigMap.class))
			.getObject();
	}

	private static ConfigurableApplicationContext start(ApiClient client, TestNamespace namespace,
			ShardingTests.Calls calls, List<String> deletes, String identity) {
		return new SpringApplicationBuilder(ShardedApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("apiClient", client);
				((GenericApplicationContext) context).registerBean("recordingHandler", RecordingHandler.class,
						() -> new RecordingHandler(identity, calls, deletes));
			})
			.run("--kubeop.informers.namespaces=" + namespace.name(),
					"--kubeop.informers.resources.configMaps.api-version=v1",
					"--kubeop.informers.resources.configMaps.kind=ConfigMap",
					"--kubeop.informers.resources.secrets.api-version=v1",
					"--kubeop.informers.resources.secrets.kind=Secret", "--kubeop.sharding.enabled=true",
					"--kubeop.sharding.mode=labels", "--kubeop.sharding.informers=configMaps,secrets",
					"--kubeop.sharding.name=labelled", "--kubeop.sharding.lease-namespace=" + namespace.name(),
					"--kubeop.sharding.identity=" + identity, "--kubeop.sharding.lease-duration=4s",
					"--kubeop.sharding.renew-deadline=3s", "--kubeop.sharding.retry-period=500ms",
					"--kubeop.handlers.workers=8", "--kubeop.handlers.shutdown-timeout=2s");
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

	private static Map<String, String> write(ApiClient client, TestNamespace namespace, int count, String version)
			throws Exception {
		return write(client, namespace, IntStream.range(0, count).boxed().toList(), version);
	}

	private static Map<String, String> write(ApiClient client, TestNamespace namespace, List<Integer> indices,
			String version) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		Map<String, String> latest = new ConcurrentHashMap<>();
		Writers.parallel(indices.size(), (i) -> {
			int index = indices.get(i);
			String name = "labelled-" + index;
			V1ConfigMap written;
			if (version.equals("v1")) {
				written = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("version", version)))
					.execute();
			}
			else {
				// a merge patch of the data only: the shard label stays
				written = io.kubernetes.client.util.PatchUtils.patch(V1ConfigMap.class,
						() -> api
							.patchNamespacedConfigMap(name, namespace.name(),
									new io.kubernetes.client.custom.V1Patch(
											"{\"data\":{\"version\":\"" + version + "\"}}"))
							.buildCall(null),
						io.kubernetes.client.custom.V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
			}
			latest.put(namespace.name() + "/" + name, written.getMetadata().getResourceVersion());
		});
		return latest;
	}

	/**
	 * Watches a move whose keys have calls held on their old owners, until it is clear
	 * whether the drain holds the move back: either every old owner of a held key, having
	 * seen the new ring, renewed its Lease without acknowledging it (so it waits for the
	 * held calls, and nothing of its may reach the new replica yet), or the new replica
	 * {@code d} handled the sentinel.
	 */
	private static final class HeldMove {

		private final ApiClient client;

		private final TestNamespace namespace;

		private final List<ConfigurableApplicationContext> replicas;

		private final Set<String> oldOwners;

		private final Map<String, String> held;

		private final String sentinel;

		private final ShardingTests.Calls calls;

		// when the test first saw each old owner on the new ring, and that ring's
		// generation
		private final Map<String, OffsetDateTime> sawRing = new HashMap<>();

		private final Map<String, Long> ringGeneration = new HashMap<>();

		private volatile String sentinelVersion;

		private volatile boolean refused;

		HeldMove(ApiClient client, TestNamespace namespace, List<ConfigurableApplicationContext> replicas,
				Set<String> oldOwners, Map<String, String> held, String sentinel, ShardingTests.Calls calls) {
			this.client = client;
			this.namespace = namespace;
			this.replicas = replicas;
			this.oldOwners = oldOwners;
			this.held = held;
			this.sentinel = sentinel;
			this.calls = calls;
		}

		/**
		 * Returns whether the old owners were seen refusing the new ring, or the new
		 * replica handled the sentinel; writes the sentinel when it is due.
		 */
		boolean settled() throws Exception {
			if (oldOwnersRefused()) {
				this.refused = true;
				return true;
			}
			return sentinelHandled();
		}

		boolean refused() {
			return this.refused;
		}

		private boolean oldOwnersRefused() throws Exception {
			CoordinationV1Api leases = new CoordinationV1Api(this.client);
			for (String owner : this.oldOwners) {
				if (!this.sawRing.containsKey(owner)) {
					ShardMember.State state = this.replicas.get(List.of("a", "b", "c").indexOf(owner))
						.getBean(ShardingLifecycle.class)
						.member()
						.state();
					if (state.members().size() != 4) {
						return false;
					}
					// the ring is set before the member acts on it in the same round: a
					// renewal after this instant comes from a later round, and carries
					// what the member decided
					this.sawRing.put(owner, OffsetDateTime.now(ZoneOffset.UTC));
					this.ringGeneration.put(owner, state.generation());
				}
				V1Lease lease = leases.readNamespacedLease("labelled-member-" + owner, this.namespace.name()).execute();
				OffsetDateTime renewed = lease.getSpec().getRenewTime();
				String acknowledged = lease.getMetadata().getAnnotations().get(ShardMember.ACKNOWLEDGED);
				if (renewed == null || !renewed.isAfter(this.sawRing.get(owner)) || acknowledged == null
						|| Long.parseLong(acknowledged) >= this.ringGeneration.get(owner)) {
					return false;
				}
			}
			return true;
		}

		private boolean sentinelHandled() throws Exception {
			String written = this.sentinelVersion;
			if (written == null) {
				// the sentinel goes into d's queue after the held keys: d handled its
				// key once (so it is not waiting in the queue), and the held objects'
				// relabelling came before it on d's watch
				if (!handledByD(this.sentinel, "0") || !heldLabelledForD()) {
					return false;
				}
				String name = this.sentinel.substring(this.sentinel.indexOf('/') + 1);
				int index = Integer.parseInt(name.substring("labelled-".length()));
				this.sentinelVersion = write(this.client, this.namespace, List.of(index), "sentinel")
					.get(this.sentinel);
				return false;
			}
			return handledByD(this.sentinel, written);
		}

		private boolean handledByD(String key, String resourceVersion) {
			return this.calls.of("d")
				.stream()
				.anyMatch((call) -> call.key.equals(key) && call.end != 0
						&& Long.parseLong(call.resourceVersion) >= Long.parseLong(resourceVersion));
		}

		private boolean heldLabelledForD() throws Exception {
			CoreV1Api api = new CoreV1Api(this.client);
			for (String key : this.held.keySet()) {
				V1ConfigMap configMap = api
					.readNamespacedConfigMap(key.substring(key.indexOf('/') + 1), this.namespace.name())
					.execute();
				Map<String, String> labels = configMap.getMetadata().getLabels();
				if (labels == null || !"d".equals(labels.get(LABEL))) {
					return false;
				}
			}
			return true;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
			KubeopHandlersAutoConfiguration.class })
	static class ShardedApplication {

	}

	/**
	 * Records every call; deletes by name. Owns Secrets, so that their shard follows
	 * their owner's.
	 */
	@Owns(value = V1Secret.class, informer = "secrets")
	static class RecordingHandler {

		private final String replica;

		private final ShardingTests.Calls calls;

		private final List<String> deletes;

		RecordingHandler(String replica, ShardingTests.Calls calls, List<String> deletes) {
			this.replica = replica;
			this.calls = calls;
			this.deletes = deletes;
		}

		@OnAdd(informer = "configMaps")
		void added(V1ConfigMap configMap) throws InterruptedException {
			this.calls.handle(this.replica, configMap);
		}

		@OnUpdate(informer = "configMaps")
		void updated(V1ConfigMap configMap) throws InterruptedException {
			this.calls.handle(this.replica, configMap);
		}

		@OnDelete(informer = "configMaps")
		void deleted(V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().startsWith("labelled-")) {
				this.deletes.add(configMap.getMetadata().getName());
			}
		}

	}

}
