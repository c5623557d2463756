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
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerMethod;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.DeepCopier;
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
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * What Kubeop's handler path costs per event, beside a raw {@link ResourceEventHandler}
 * on the same Kubeop informer and beside the informer with no handler at all. The events
 * come from {@link ReplayServer}, which plays back a list of ConfigMaps recorded from a
 * real API server and then streams MODIFIED events for them (each with a new
 * resourceVersion) as fast as the client reads: hundreds of thousands of events per
 * sample, where the API server would give a thousand writes a second. Each sample is a
 * fresh JVM with this JVM's flags; after a warm-up of 200,000 events (at most 15 s), it
 * records one-second windows: the events the informer received, the process's CPU time
 * (every thread: the watch, the handler workers, GC, JIT), the bytes its live threads
 * allocated and the handler calls. CPU time per event is the figure: the watch is
 * saturated, so the contenders differ by what each adds per event, and a microsecond
 * shows over a hundred thousand events. The Kubeop handler is an {@code @OnUpdate} method
 * called the way the annotation's post-processor calls it (reflectively, through
 * {@link HandlerMethod#of(Object, Method, HandlerMethod.Kind, Class, boolean, boolean)}),
 * behind the rate-limited queue and one worker; the queue de-duplicates keys already
 * waiting, so it calls the handler less often than events arrive, which the harness
 * records too. The Kubeop handler runs twice: as users get it, handed its own deep copies
 * of the old and new objects, and with copying turned off
 * ({@value io.github.kubeop.informer.DeepCopier#DISABLE_PROPERTY}), handed the cache's
 * instances as before copies were made: the difference is what the isolation costs per
 * event. Samples in {@code benchmarks/results/handler.json}.
 * <p>
 * With {@code tracing} as the fourth argument, the Kubeop handler runs with tracing off
 * (as without an {@code ObservationRegistry}) and on: Micrometer's Observation API
 * through the OpenTelemetry bridge as Spring Boot sets it up (W3C propagation, the
 * propagating handlers, every span sampled and handed to a batch processor whose exporter
 * drops them), a span per handler call; the ratio of CPU per event on to off is printed
 * per repetition, the two samples of a repetition run back to back. Samples in
 * {@code benchmarks/results/handler-tracing.json}.
 * <p>
 * Usage: {@code HandlerOverheadBenchmark [repetitions] [objects] [seconds] [tracing]}.
 *
 * @author Kubeop authors
 */
public final class HandlerOverheadBenchmark {

	static final String NO_HANDLER = "informer alone, no handler";

	static final String RAW_HANDLER = "raw ResourceEventHandler on the informer";

	static final String KUBEOP_HANDLER = "Kubeop @OnUpdate handler, 1 worker";

	static final String KUBEOP_HANDLER_NO_COPIES = "Kubeop @OnUpdate handler, 1 worker, copies off";

	static final String KUBEOP_HANDLER_TRACED = "Kubeop @OnUpdate handler, 1 worker, tracing on";

	private static final String TRACING = "tracing";

	private static final String NAMESPACE = "overhead";

	private static final String CHILD = "--child";

	/**
	 * Events received before the windows start: enough for the JIT to have compiled the
	 * watch, decode and handler paths (the first windows of a cold JVM cost several times
	 * the later ones).
	 */
	private static final long WARM_UP_EVENTS = 200_000;

	private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(15);

	private HandlerOverheadBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals(CHILD)) {
			child(args[1], args[2], Integer.parseInt(args[3]));
			return;
		}
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int objects = (args.length > 1) ? Integer.parseInt(args[1]) : 200;
		int seconds = (args.length > 2) ? Integer.parseInt(args[2]) : 10;
		boolean tracing = args.length > 3 && args[3].equals(TRACING);
		Results results = new Results(tracing ? "handler-tracing" : "handler");
		results.environment()
			.put("handler",
					"replay server streaming MODIFIED events of " + objects + " ConfigMaps; warm-up of "
							+ WARM_UP_EVENTS + " events (at most " + WARM_UP_LIMIT.toSeconds() + " s), then " + seconds
							+ " windows of 1 s per sample; each sample a fresh JVM");
		String recordedList = record(objects);
		String workload = String.format(Locale.ROOT, "MODIFIED events of %,d ConfigMaps, replay server", objects);
		List<String> contenders = new ArrayList<>(tracing ? List.of(KUBEOP_HANDLER, KUBEOP_HANDLER_TRACED)
				: List.of(NO_HANDLER, RAW_HANDLER, KUBEOP_HANDLER, KUBEOP_HANDLER_NO_COPIES));
		List<String> ratios = new ArrayList<>();
		try (ReplayServer server = ReplayServer.start(NAMESPACE, "configmaps", "ConfigMap",
				JsonParser.parseString(recordedList).getAsJsonObject(), null)) {
			// an endless stream: every sample reads until its windows are over
			server.arm(Long.MAX_VALUE);
			for (int repetition = 0; repetition < repetitions; repetition++) {
				List<String> order = new ArrayList<>(contenders);
				Collections.rotate(order, -repetition);
				Map<String, Double> medians = new LinkedHashMap<>();
				for (String contender : order) {
					JsonObject sample = ChildJvm.run(HandlerOverheadBenchmark.class,
							List.of(CHILD, server.url(), contender, Integer.toString(seconds)));
					for (String metric : List.of("cpuMicrosPerEvent", "allocatedBytesPerEvent", "eventsPerSecond",
							"handlerCallsPerEvent")) {
						JsonArray windows = sample.getAsJsonArray(metric);
						windows.forEach(
								(window) -> results.add(workload, objects, contender, metric, window.getAsDouble()));
					}
					List<Double> cpu = results.row(workload, objects, contender).metric("cpuMicrosPerEvent");
					System.out.printf(Locale.ROOT, "handler %s: %.2f µs CPU per event (median so far)%n", contender,
							Results.median(cpu));
					List<Double> windows = new ArrayList<>();
					sample.getAsJsonArray("cpuMicrosPerEvent").forEach((window) -> windows.add(window.getAsDouble()));
					medians.put(contender, Results.median(windows));
				}
				if (tracing) {
					String ratio = String.format(Locale.ROOT, "%.2f (%.2f µs on, %.2f µs off)",
							medians.get(KUBEOP_HANDLER_TRACED) / medians.get(KUBEOP_HANDLER),
							medians.get(KUBEOP_HANDLER_TRACED), medians.get(KUBEOP_HANDLER));
					ratios.add(ratio);
					System.out.println(
							"handler tracing on/off, CPU per event, repetition " + (repetition + 1) + ": " + ratio);
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
		if (tracing) {
			System.out.println("handler tracing on/off, CPU per event, by repetition: " + ratios);
		}
	}

	/**
	 * Creates the ConfigMaps on a real API server and returns their list as the API
	 * server sends it, for the replay server to play back.
	 */
	private static String record(int objects) throws Exception {
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			CoreV1Api core = new CoreV1Api(client);
			core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
			DynamicKubernetesApi api = new DynamicKubernetesApi("", "v1", "configmaps", client);
			for (int i = 0; i < objects; i++) {
				api.create(new DynamicKubernetesObject(
						JsonParser.parseString(Payloads.configMap(NAMESPACE, i)).getAsJsonObject()))
					.throwsApiException();
			}
			try (okhttp3.Response response = core.listNamespacedConfigMap(NAMESPACE).buildCall(null).execute()) {
				return response.body().string();
			}
		}
	}

	/**
	 * One sample, in a fresh JVM: informs on the replay server with one contender, warms
	 * up, then prints the per-window figures as one JSON line.
	 */
	private static void child(String url, String contender, int seconds) throws Exception {
		if (contender.equals(KUBEOP_HANDLER_NO_COPIES)) {
			// before anything reads it: the handler gets the cache's own instances, as
			// before handlers were given copies
			System.setProperty(DeepCopier.DISABLE_PROPERTY, "true");
		}
		ApiClient client = new ClientBuilder().setBasePath(url).build();
		client.setReadTimeout(0);
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(NAMESPACE));
		AtomicLong calls = new AtomicLong();
		HandlerRegistrar handlers = null;
		if (contender.equals(RAW_HANDLER)) {
			informer.addEventHandler(new ResourceEventHandler<>() {

				@Override
				public void onAdd(V1ConfigMap obj) {
				}

				@Override
				public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
					calls.incrementAndGet();
				}

				@Override
				public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				}

			});
		}
		else if (contender.equals(KUBEOP_HANDLER) || contender.equals(KUBEOP_HANDLER_NO_COPIES)
				|| contender.equals(KUBEOP_HANDLER_TRACED)) {
			handlers = new HandlerRegistrar(registry, List.of("overhead"), Duration.ZERO,
					(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
					(name) -> 1, HandlerObserver.NONE);
			if (contender.equals(KUBEOP_HANDLER_TRACED)) {
				handlers.setTracing(TracingOn.tracing());
			}
			CountingHandler bean = new CountingHandler(calls);
			Method method = CountingHandler.class.getMethod("onUpdate", V1ConfigMap.class, V1ConfigMap.class);
			handlers.register(new HandlerEndpoint("overhead", "settings", V1ConfigMap.class,
					List.of(HandlerMethod.of(bean, method, HandlerMethod.Kind.UPDATE, null, false, false)), Set.of(),
					null, Map.of()));
			handlers.startWorkers();
		}
		registry.start();
		registry.awaitSync(Duration.ofMinutes(1));
		long warmUpEnd = System.nanoTime() + WARM_UP_LIMIT.toNanos();
		while (informer.eventCount("modified") < WARM_UP_EVENTS && System.nanoTime() < warmUpEnd) {
			Thread.sleep(10);
		}
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		List<Double> cpuPerEvent = new ArrayList<>();
		List<Double> allocatedPerEvent = new ArrayList<>();
		List<Double> eventsPerSecond = new ArrayList<>();
		List<Double> callsPerEvent = new ArrayList<>();
		long events = informer.eventCount("modified");
		long cpu = os.getProcessCpuTime();
		long allocated = allocatedBytes(threads);
		long handled = calls.get();
		long time = System.nanoTime();
		for (int window = 0; window < seconds; window++) {
			Thread.sleep(1000);
			long nowEvents = informer.eventCount("modified");
			long nowCpu = os.getProcessCpuTime();
			long nowAllocated = allocatedBytes(threads);
			long nowHandled = calls.get();
			long nowTime = System.nanoTime();
			long windowEvents = nowEvents - events;
			cpuPerEvent.add((nowCpu - cpu) / 1000.0 / windowEvents);
			allocatedPerEvent.add((double) (nowAllocated - allocated) / windowEvents);
			eventsPerSecond.add(windowEvents * 1e9 / (nowTime - time));
			callsPerEvent.add((double) (nowHandled - handled) / windowEvents);
			events = nowEvents;
			cpu = nowCpu;
			allocated = nowAllocated;
			handled = nowHandled;
			time = nowTime;
		}
		if (!contender.equals(NO_HANDLER) && handled == 0) {
			throw new IllegalStateException(contender + " was never called");
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("cpuMicrosPerEvent", cpuPerEvent);
		result.put("allocatedBytesPerEvent", allocatedPerEvent);
		result.put("eventsPerSecond", eventsPerSecond);
		result.put("handlerCallsPerEvent", callsPerEvent);
		System.out.println(new Gson().toJson(result));
		System.out.flush();
		// the watch and the workers are not daemons
		System.exit(0);
	}

	/**
	 * Returns the bytes the live threads have allocated: the watch, the informer's
	 * delivery and the handler workers live as long as the sample.
	 */
	private static long allocatedBytes(com.sun.management.ThreadMXBean threads) {
		long total = 0;
		for (long allocated : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
			total += Math.max(allocated, 0);
		}
		return total;
	}

	/**
	 * A handler bean as an operator writes one, its method annotated as Kubeop's
	 * annotation post-processor finds it.
	 */
	public static final class CountingHandler {

		private final AtomicLong calls;

		CountingHandler(AtomicLong calls) {
			this.calls = calls;
		}

		/**
		 * Counts the call.
		 * @param old the previous state
		 * @param current the new state
		 */
		@io.github.kubeop.annotation.OnUpdate(informer = "settings")
		public void onUpdate(V1ConfigMap old, V1ConfigMap current) {
			this.calls.incrementAndGet();
		}

	}

}
