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

package io.github.kubeop.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.shard.ShardLabels;
import io.github.kubeop.shard.ShardMember;
import io.github.kubeop.shard.ShardingConfig;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Throughput of a sharded handler across 1, 2 and 3 replicas: handlers that take 20 ms
 * each over N ConfigMaps, 4 workers per replica, time from the replicas' start until
 * every object was handled once, and, in the labels mode, the objects each replica caches
 * and the heap the replicas hold together. The replicas share one JVM (each with its own
 * client, informers, handlers and Lease), so the heap figure is the sum divided by the
 * replica count. Samples in {@code benchmarks/results/sharding.json}.
 * <p>
 * Usage: {@code ShardingBenchmark [repetitions] [objects]}.
 *
 * @author Kubeop authors
 */
public final class ShardingBenchmark {

	private static final Duration CALL = Duration.ofMillis(20);

	private static final int WORKERS = 4;

	private ShardingBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int objects = (args.length > 1) ? Integer.parseInt(args[1]) : 3000;
		Results results = new Results("sharding");
		String workload = String.format(Locale.ROOT, "%,d ConfigMaps, handler calls of 20 ms, 4 workers per replica",
				objects);
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			populate(controlPlane.apiClient(), "sharded", objects);
			int round = 0;
			for (int repetition = 0; repetition < repetitions; repetition++) {
				for (int replicas = 1; replicas <= 3; replicas++) {
					for (boolean labels : List.of(false, true)) {
						Run run = run(controlPlane, objects, replicas, labels, "r" + (round++));
						String contender = replicas + ((replicas == 1) ? " replica" : " replicas")
								+ (labels ? ", labels mode" : ", cache-all mode");
						results.add(workload, objects, contender, "millis", run.millis);
						results.add(workload, objects, contender, "objects cached per replica", run.cachedPerReplica);
						results.add(workload, objects, contender, "heap MiB per replica", run.heapMiBPerReplica);
						System.out.printf(Locale.ROOT, "%s: %d ms, %.0f objects and %.1f MiB per replica%n", contender,
								run.millis, run.cachedPerReplica, run.heapMiBPerReplica);
					}
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	private static Run run(LocalControlPlane controlPlane, int objects, int replicas, boolean labels, String group)
			throws Exception {
		Set<String> handled = ConcurrentHashMap.newKeySet();
		List<Replica> started = new ArrayList<>();
		long baseline = heapAfterGc();
		long start = System.nanoTime();
		for (int i = 0; i < replicas; i++) {
			started.add(Replica.start(controlPlane.apiClient(), group, "replica-" + i, labels, handled));
		}
		while (handled.size() < objects) {
			Thread.sleep(5);
		}
		long millis = (System.nanoTime() - start) / 1_000_000;
		double cached = started.stream()
			.mapToInt((replica) -> replica.informer.indexer().list().size())
			.average()
			.orElse(0);
		double heap = (heapAfterGc() - baseline) / 1048576.0 / replicas;
		for (Replica replica : started) {
			replica.stop();
		}
		return new Run(millis, cached, heap);
	}

	private static long heapAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	private static void populate(ApiClient client, String namespace, int count) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "work-" + i;
				futures.add(
						executor.submit(
								() -> api
									.createNamespacedConfigMap(namespace,
											new V1ConfigMap().metadata(new V1ObjectMeta().name(name))
												.data(Map.of("k", "v")))
									.execute()));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

	private record Run(long millis, double cachedPerReplica, double heapMiBPerReplica) {

	}

	/**
	 * One replica: its own client, informer, handler and shard membership.
	 */
	private static final class Replica {

		private final InformerRegistry registry;

		private final HandlerRegistrar handlers;

		private final ShardMember member;

		private final ResourceInformer<V1ConfigMap> informer;

		private Replica(InformerRegistry registry, HandlerRegistrar handlers, ShardMember member,
				ResourceInformer<V1ConfigMap> informer) {
			this.registry = registry;
			this.handlers = handlers;
			this.member = member;
			this.informer = informer;
		}

		static Replica start(ApiClient client, String group, String identity, boolean labels, Set<String> handled)
				throws InterruptedException {
			InformerRegistry registry = new InformerRegistry(client);
			InformerSpec<V1ConfigMap> spec = InformerSpec.of("work", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces("sharded");
			if (labels) {
				spec = spec.withLabelSelector(ShardLabels.labelKey(group) + "=" + identity);
			}
			ResourceInformer<V1ConfigMap> informer = registry.informer(spec);
			HandlerRegistrar handlers = new HandlerRegistrar(registry, List.of("sharded"), Duration.ZERO,
					(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
					(name) -> WORKERS, HandlerObserver.NONE);
			handlers.register(HandlerEndpoint.builder("work", V1ConfigMap.class).informer("work").onAdd((configMap) -> {
				try {
					Thread.sleep(CALL.toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				handled.add(configMap.getMetadata().getName());
			}).build());
			ShardingConfig config = new ShardingConfig("sharded", group, identity, Duration.ofSeconds(4),
					Duration.ofSeconds(3), Duration.ofMillis(500), 128);
			ShardLabels shardLabels = labels
					? new ShardLabels(client, group, () -> List.of(informer), handlers::shardKey, registry) : null;
			ShardMember member = new ShardMember(config, client, new ShardingLifecycle.Handlers(handlers), shardLabels);
			registry.start();
			while (!informer.hasSynced()) {
				Thread.sleep(5);
			}
			member.start();
			handlers.startWorkers();
			return new Replica(registry, handlers, member, informer);
		}

		void stop() {
			this.handlers.shutdown(Duration.ofSeconds(5));
			this.member.stop();
			this.registry.stop();
		}

	}

}
