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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The cost of Kubeop's handler path (keys through a rate-limited queue, a worker diffing
 * the cache against the last delivered state, the handler call) beside a hand-written
 * {@link ResourceEventHandler} on the same informer, for the same events: N objects
 * delivered from an initial list, time from informer start until the handler has seen
 * them all. Alternating, several repetitions; samples in
 * {@code benchmarks/results/handler.json}.
 * <p>
 * Usage: {@code HandlerOverheadBenchmark [repetitions] [objects]}.
 *
 * @author Kubeop authors
 */
public final class HandlerOverheadBenchmark {

	private HandlerOverheadBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		int objects = (args.length > 1) ? Integer.parseInt(args[1]) : 5000;
		Results results = new Results("handler");
		String workload = String.format(Locale.ROOT, "%,d ConfigMaps from the initial list", objects);
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			populate(client, "overhead", objects);
			for (int repetition = 0; repetition < repetitions; repetition++) {
				results.add(workload, objects, "raw ResourceEventHandler on the informer", "millis",
						rawHandler(client, objects));
				results.add(workload, objects, "Kubeop handler, 1 worker", "millis", kubeopHandler(client, objects, 1));
				results.add(workload, objects, "Kubeop handler, 4 workers", "millis",
						kubeopHandler(client, objects, 4));
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	private static long rawHandler(ApiClient client, int objects) throws InterruptedException {
		InformerRegistry registry = new InformerRegistry(client);
		AtomicInteger seen = new AtomicInteger();
		ResourceInformer<V1ConfigMap> informer = registry.informer(spec());
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
				seen.incrementAndGet();
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
			}

		});
		return timeUntil(registry, seen, objects, null);
	}

	private static long kubeopHandler(ApiClient client, int objects, int workers) throws InterruptedException {
		InformerRegistry registry = new InformerRegistry(client);
		registry.informer(spec());
		AtomicInteger seen = new AtomicInteger();
		HandlerRegistrar handlers = new HandlerRegistrar(registry, List.of("overhead"), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> workers, HandlerObserver.NONE);
		handlers.register(HandlerEndpoint.builder("overhead", V1ConfigMap.class)
			.informer("settings")
			.onAdd((configMap) -> seen.incrementAndGet())
			.build());
		handlers.startWorkers();
		return timeUntil(registry, seen, objects, handlers);
	}

	private static long timeUntil(InformerRegistry registry, AtomicInteger seen, int objects, HandlerRegistrar handlers)
			throws InterruptedException {
		long start = System.nanoTime();
		registry.start();
		while (seen.get() < objects) {
			Thread.sleep(1);
		}
		long elapsed = (System.nanoTime() - start) / 1_000_000;
		if (handlers != null) {
			handlers.shutdown(Duration.ofSeconds(5));
		}
		registry.stop();
		return elapsed;
	}

	private static InformerSpec<V1ConfigMap> spec() {
		return InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("overhead");
	}

	private static void populate(ApiClient client, String namespace, int count) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "settings-" + i;
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

}
