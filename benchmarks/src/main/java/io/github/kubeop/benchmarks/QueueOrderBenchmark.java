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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import com.google.gson.JsonObject;
import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.QueueSettings;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.queue.Ticker;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;

/**
 * How long a user's change waits in a handler's queue behind work queued before it, on a
 * real API server, with a handler call that takes a fixed time (one worker):
 * <ul>
 * <li><b>backlog</b>: the handler starts over N cached objects (every one queued, as on a
 * start, a new leader or a shard move); a new object is created at once, and the time
 * from its create to its call is taken, with priorities off (today's FIFO) and on;</li>
 * <li><b>noisy neighbour</b>: namespace A gets M changes, then namespace B one; the time
 * from B's write to its call is taken, with fairness off and on.</li>
 * </ul>
 * The backlog case also runs controller-runtime's priority queue on the same objects: the
 * Go program in {@code src/main/go/priority-queue} (controller-runtime 0.25, its builder
 * and manager, the same worker count and handler time) when Go is on the PATH. The
 * contenders take turns in an order rotated by repetition.
 * <p>
 * Arguments: repetitions, backlog objects (0: the backlog case is not run and its rows of
 * the last run, controller-runtime's among them, are kept), noisy changes (0: the
 * noisy-neighbour case is not run and its rows of the last run are kept), handler
 * milliseconds.
 *
 * @author Kubeop authors
 */
public final class QueueOrderBenchmark {

	private static final String BACKLOG = "backlog";

	private static final String NOISY = "tenant-a";

	private static final String QUIET = "tenant-b";

	private static final String PRIORITIES_ON = "priorities on";

	private static final String PRIORITIES_OFF = "priorities off (FIFO)";

	private static final String CONTROLLER_RUNTIME = "controller-runtime 0.25, priority queue";

	private QueueOrderBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int backlog = (args.length > 1) ? Integer.parseInt(args[1]) : 20_000;
		int changes = (args.length > 2) ? Integer.parseInt(args[2]) : 10_000;
		int callMillis = (args.length > 3) ? Integer.parseInt(args[3]) : 5;
		Results results = new Results("queue-order");
		results.environment()
			.put("queue-order",
					"one worker, a handler call of " + callMillis + " ms; " + repetitions + " repetitions"
							+ ((backlog == 0) ? " of the noisy-neighbour case (the backlog rows are the last run's)"
									: (changes == 0)
											? " of the backlog case (the noisy-neighbour rows are the last run's)" : "")
							+ "; times from the API server's answer to the write to the handler's call");
		String backlogWorkload = String.format(Locale.ROOT, "new object behind a start's backlog of %,d", backlog);
		Path previous = Path.of("benchmarks", "results", "queue-order.json");
		if ((changes == 0 || backlog == 0) && Files.exists(previous)) {
			// a run of one case alone keeps the other case's rows of the last run
			Results last = Results.read(previous);
			for (Results.Row row : last.rows()) {
				boolean backlogRow = row.workload().startsWith("new object behind");
				if ((backlogRow && backlog == 0) || (!backlogRow && changes == 0)) {
					row.samples()
						.forEach((metric, values) -> values.forEach(
								(value) -> results.add(row.workload(), row.objects(), row.contender(), metric, value)));
				}
			}
			if (backlog == 0 && last.environment().containsKey("clientGo")) {
				results.environment().put("clientGo", last.environment().get("clientGo"));
			}
		}
		String noisyWorkload = String.format(Locale.ROOT, "namespace B's change behind %,d of namespace A", changes);
		Path controllerRuntime = (backlog > 0) ? ClientGo.build("priority-queue") : null;
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			CoreV1Api core = new CoreV1Api(client);
			for (String namespace : List.of(BACKLOG, NOISY, QUIET)) {
				core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			}
			createAll(core, BACKLOG, backlog);
			createAll(core, NOISY, changes);
			List<String> backlogContenders = new ArrayList<>(List.of(PRIORITIES_ON, PRIORITIES_OFF));
			if (controllerRuntime != null) {
				backlogContenders.add(CONTROLLER_RUNTIME);
			}
			for (int repetition = 0; repetition < repetitions; repetition++) {
				for (int i = 0; backlog > 0 && i < backlogContenders.size(); i++) {
					String contender = backlogContenders.get((i + repetition) % backlogContenders.size());
					Backlogged result = contender.equals(CONTROLLER_RUNTIME)
							? behindBacklogInControllerRuntime(controllerRuntime, controlPlane.kubeconfigFile(),
									callMillis, repetition, results)
							: behindBacklog(client, core, contender.equals(PRIORITIES_ON), callMillis, repetition);
					results.add(backlogWorkload, backlog, contender, "secondsFromCreateToCall", result.seconds());
					results.add(backlogWorkload, backlog, contender, "callsBefore", result.callsBefore());
					System.out.printf(Locale.ROOT, "backlog, %s: %.3f s, %d calls before%n", contender,
							result.seconds(), result.callsBefore());
				}
				if (changes == 0) {
					continue;
				}
				for (boolean on : List.of(repetition % 2 == 0, repetition % 2 != 0)) {
					String contender = on ? "fairness by namespace" : "no fairness";
					double seconds = behindNoisyNeighbour(client, core, on, callMillis, changes, repetition);
					results.add(noisyWorkload, changes, contender, "secondsFromWriteToCall", seconds);
					System.out.printf(Locale.ROOT, "noisy neighbour, %s: %.3f s%n", contender, seconds);
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	private static Backlogged behindBacklog(ApiClient client, CoreV1Api core, boolean priorities, int callMillis,
			int repetition) throws Exception {
		Map<String, Long> called = new ConcurrentHashMap<>();
		String name = "new-" + repetition + (priorities ? "-on" : "-off");
		try (Handler handler = new Handler(client, List.of(BACKLOG),
				new QueueSettings(priorities, QueueSettings.Fairness.NONE, null), callMillis, called)) {
			handler.start();
			long callsAtCreate = handler.calls();
			long created = create(core, BACKLOG, name);
			long call = awaitCall(called, name);
			return new Backlogged((call - created) / 1e9, handler.callsBefore(name) - callsAtCreate);
		}
	}

	/**
	 * The backlog case in controller-runtime: its program starts a controller over the
	 * namespace's objects and creates the new object once its reconciler runs.
	 */
	private static Backlogged behindBacklogInControllerRuntime(Path program, Path kubeconfig, int callMillis,
			int repetition, Results results) throws Exception {
		JsonObject result = ClientGo.run(List.of(program.toString(), "-kubeconfig", kubeconfig.toString(), "-namespace",
				BACKLOG, "-name", "new-" + repetition + "-controller-runtime", "-workers", "1", "-handler-ms",
				Integer.toString(callMillis)), results);
		return new Backlogged(result.get("secondsFromCreateToCall").getAsDouble(),
				result.get("callsBefore").getAsLong());
	}

	/**
	 * How long a new object waited behind the backlog, and how many handler calls ran
	 * from its create to its own call.
	 */
	record Backlogged(double seconds, long callsBefore) {

	}

	private static double behindNoisyNeighbour(ApiClient client, CoreV1Api core, boolean fairness, int callMillis,
			int changes, int repetition) throws Exception {
		Map<String, Long> called = new ConcurrentHashMap<>();
		String name = "quiet-" + repetition + (fairness ? "-on" : "-off");
		try (Handler handler = new Handler(
				client, List.of(NOISY, QUIET), new QueueSettings(true,
						fairness ? QueueSettings.Fairness.NAMESPACE : QueueSettings.Fairness.NONE, null),
				callMillis, called)) {
			handler.start();
			// the start's calls first: the noisy changes then queue at normal priority
			handler.awaitIdle();
			changeAll(core, NOISY, changes, "r" + repetition + fairness);
			long written = create(core, QUIET, name);
			long call = awaitCall(called, name);
			return (call - written) / 1e9;
		}
	}

	private static long awaitCall(Map<String, Long> called, String name) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
		while (!called.containsKey(name)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(name + " was never handled");
			}
			Thread.sleep(1);
		}
		return called.get(name);
	}

	private static void createAll(CoreV1Api core, String namespace, int count) throws Exception {
		forAll(count, (i) -> create(core, namespace, "object-" + i));
	}

	private static void changeAll(CoreV1Api core, String namespace, int count, String value) throws Exception {
		V1Patch patch = new V1Patch("{\"data\":{\"value\":\"" + value + "\"}}");
		forAll(count,
				(i) -> PatchUtils.patch(V1ConfigMap.class,
						() -> core.patchNamespacedConfigMap("object-" + i, namespace, patch).buildCall(null),
						V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, core.getApiClient()));
	}

	/**
	 * Runs an action for 0 to count - 1 on eight threads, as a busy cluster writes.
	 */
	private static void forAll(int count, IntAction action) throws Exception {
		ExecutorService writers = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> writes = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				int index = i;
				writes.add(writers.submit(() -> action.run(index)));
			}
			for (Future<?> write : writes) {
				write.get();
			}
		}
		finally {
			writers.shutdownNow();
		}
	}

	private static long create(CoreV1Api core, String namespace, String name) {
		try {
			core.createNamespacedConfigMap(namespace,
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).putDataItem("value", "0"))
				.execute();
			return System.nanoTime();
		}
		catch (ApiException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@FunctionalInterface
	interface IntAction {

		Object run(int index) throws Exception;

	}

	/**
	 * A handler with one worker whose calls take a fixed time, recording when each object
	 * was first called.
	 */
	private static final class Handler implements AutoCloseable {

		private final InformerRegistry informers;

		private final HandlerRegistrar registrar;

		private final Controller<?> controller;

		private final AtomicLong calls = new AtomicLong();

		private final Map<String, Long> callNumbers = new ConcurrentHashMap<>();

		Handler(ApiClient client, List<String> namespaces, QueueSettings settings, int callMillis,
				Map<String, Long> called) {
			this.informers = new InformerRegistry(client);
			this.registrar = new HandlerRegistrar(this.informers, namespaces, Duration.ZERO,
					(name, lanes) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter(),
							QueueMetrics.NOOP, Ticker.system(), lanes),
					(name) -> 1, HandlerObserver.NONE, (name, declared) -> settings);
			Consumer<V1ConfigMap> call = (configMap) -> {
				long count = this.calls.incrementAndGet();
				if (called.putIfAbsent(configMap.getMetadata().getName(), System.nanoTime()) == null) {
					this.callNumbers.put(configMap.getMetadata().getName(), count);
				}
				try {
					Thread.sleep(callMillis);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			};
			this.controller = this.registrar.register(HandlerEndpoint.builder("ordered", V1ConfigMap.class)
				.onAdd(call)
				.onUpdate((oldObject, newObject) -> call.accept(newObject))
				.build());
		}

		void start() {
			this.informers.start();
			this.informers.awaitSync(Duration.ofMinutes(5));
			this.registrar.startWorkers();
		}

		long calls() {
			return this.calls.get();
		}

		/**
		 * The calls made before an object's first call (the object's name was called).
		 */
		long callsBefore(String name) {
			return this.callNumbers.get(name) - 1;
		}

		void awaitIdle() throws InterruptedException {
			while (this.controller.queue().length() > 0) {
				Thread.sleep(10);
			}
		}

		@Override
		public void close() {
			this.registrar.shutdown(Duration.ZERO);
			this.informers.stop();
		}

	}

}
