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

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerMethod;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.HandlerTracing;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.ClientBuilder;

/**
 * The handler path's CPU time measured on its own threads, for a machine that other work
 * loads: {@link HandlerOverheadBenchmark}'s Kubeop handler on the same replayed stream of
 * ConfigMap MODIFIED events, but instead of the process's CPU time per event (which
 * counts the watch, decoding, GC and JIT, and whose share of handler calls per event
 * changes with load: the queue coalesces more when the worker gets less CPU), it records
 * the CPU time and the bytes allocated of the threads that make the handler path: the
 * informer's listener thread of the handler (filters, the ledger, the queue's add) per
 * event, and the handler's worker thread (the queue's get, the diff, the copies, the
 * call, the bookkeeping) per handler call. A thread's CPU time is what the thread ran,
 * whatever else runs on the machine.
 * <p>
 * It compares builds: each contender is a class path (a benchmarks jar of another tree,
 * such as the tree before tracing); the probe's own classes are put first, so that the
 * same measurement runs each tree's handler path. Contenders alternate, their order
 * rotated, each sample a fresh JVM; the ratios of each alternation (to the first
 * contender) are summarized as a median and an interquartile range. Samples in
 * {@code benchmarks/results/handler-cpu.json}.
 * <p>
 * Usage: {@code HandlerCpuProbe alternations objects seconds name=classpath[+tracing]...}
 * where a contender named with a {@code +tracing} suffix on its class path runs with
 * tracing on ({@link TracingOn}), for example
 * {@code HandlerCpuProbe 12 100 8 before=/before/benchmarks.jar off=target/benchmarks.jar on=target/benchmarks.jar+tracing}.
 *
 * @author Kubeop authors
 */
public final class HandlerCpuProbe {

	private static final String NAMESPACE = "overhead";

	private static final String CHILD = "--child";

	private static final String TRACING_SUFFIX = "+tracing";

	private static final long WARM_UP_EVENTS = 200_000;

	private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(20);

	private static final List<String> CLASSES = List.of("HandlerCpuProbe", "HandlerCpuProbe$CountingHandler");

	private HandlerCpuProbe() {
	}

	public static void main(String[] args) throws Exception {
		if (args[0].equals(CHILD)) {
			child(args[1], Boolean.parseBoolean(args[2]), Integer.parseInt(args[3]));
			return;
		}
		int alternations = Integer.parseInt(args[0]);
		int objects = Integer.parseInt(args[1]);
		int seconds = Integer.parseInt(args[2]);
		Map<String, String> contenders = new LinkedHashMap<>();
		for (int i = 3; i < args.length; i++) {
			int equals = args[i].indexOf('=');
			contenders.put(args[i].substring(0, equals), args[i].substring(equals + 1));
		}
		Path probeClasses = probeClasses();
		Path listFile = Path.of(System.getProperty("handler.cpu.list", "benchmarks/results/handler-cpu-list.json"));
		String recordedList = Files.exists(listFile) ? Files.readString(listFile) : record(objects, listFile);
		Map<String, List<Map<String, Double>>> samples = new LinkedHashMap<>();
		contenders.keySet().forEach((name) -> samples.put(name, new ArrayList<>()));
		try (ReplayServer server = ReplayServer.start(NAMESPACE, "configmaps", "ConfigMap",
				JsonParser.parseString(recordedList).getAsJsonObject(), null)) {
			server.arm(Long.MAX_VALUE);
			for (int alternation = 0; alternation < alternations; alternation++) {
				List<String> order = new ArrayList<>(contenders.keySet());
				Collections.rotate(order, -alternation);
				for (String name : order) {
					String classPath = contenders.get(name);
					boolean tracing = classPath.endsWith(TRACING_SUFFIX);
					if (tracing) {
						classPath = classPath.substring(0, classPath.length() - TRACING_SUFFIX.length());
					}
					Map<String, Double> sample = sample(probeClasses + java.io.File.pathSeparator + classPath,
							server.url(), tracing, seconds);
					samples.get(name).add(sample);
					System.out.printf(Locale.ROOT,
							"alternation %d %s: worker %.3f µs CPU, %.0f B per call; listener %.3f µs CPU, %.0f B per event; %.3f calls per event; process %.2f µs CPU per event; %.0f events/s; load %.1f%n",
							alternation + 1, name, sample.get("workerCpuMicrosPerCall"),
							sample.get("workerAllocatedBytesPerCall"), sample.get("listenerCpuMicrosPerEvent"),
							sample.get("listenerAllocatedBytesPerEvent"), sample.get("callsPerEvent"),
							sample.get("processCpuMicrosPerEvent"), sample.get("eventsPerSecond"),
							sample.get("loadAverage"));
				}
			}
		}
		Map<String, Object> report = new LinkedHashMap<>();
		report.put("workload", String.format(Locale.ROOT,
				"MODIFIED events of %,d ConfigMaps, replay server; warm-up %,d events (at most %d s), then %d s per sample; each sample a fresh JVM, contenders alternated",
				objects, WARM_UP_EVENTS, WARM_UP_LIMIT.toSeconds(), seconds));
		report.put("contenders", contenders);
		report.put("samples", samples);
		Map<String, Object> summary = new LinkedHashMap<>();
		String first = contenders.keySet().iterator().next();
		for (String name : contenders.keySet()) {
			Map<String, Object> figures = new LinkedHashMap<>();
			for (String metric : List.of("workerCpuMicrosPerCall", "listenerCpuMicrosPerEvent",
					"workerAllocatedBytesPerCall", "listenerAllocatedBytesPerEvent", "callsPerEvent",
					"processCpuMicrosPerEvent", "loadAverage")) {
				List<Double> values = samples.get(name).stream().map((sample) -> sample.get(metric)).toList();
				figures.put(metric, quartiles(values));
				if (!name.equals(first) && !metric.equals("loadAverage")) {
					List<Double> ratios = new ArrayList<>();
					for (int i = 0; i < values.size(); i++) {
						ratios.add(values.get(i) / samples.get(first).get(i).get(metric));
					}
					figures.put(metric + "RatioTo_" + first, quartiles(ratios));
				}
			}
			summary.put(name, figures);
		}
		report.put("summary", summary);
		Gson gson = new GsonBuilder().setPrettyPrinting().create();
		String json = gson.toJson(report);
		Path out = Path.of(System.getProperty("handler.cpu.out", "benchmarks/results/handler-cpu.json"));
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, json);
		System.out.println(gson.toJson(summary));
	}

	/**
	 * The 25th, 50th and 75th percentiles.
	 */
	static Map<String, Double> quartiles(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		Map<String, Double> quartiles = new LinkedHashMap<>();
		quartiles.put("p25", percentile(sorted, 0.25));
		quartiles.put("median", percentile(sorted, 0.5));
		quartiles.put("p75", percentile(sorted, 0.75));
		quartiles.put("n", (double) sorted.size());
		return quartiles;
	}

	private static double percentile(List<Double> sorted, double p) {
		if (sorted.isEmpty()) {
			return Double.NaN;
		}
		double position = p * (sorted.size() - 1);
		int below = (int) Math.floor(position);
		int above = (int) Math.ceil(position);
		return sorted.get(below) + (sorted.get(above) - sorted.get(below)) * (position - below);
	}

	/**
	 * Copies the probe's own classes out of its class path, to put them before another
	 * tree's benchmarks jar.
	 */
	private static Path probeClasses() throws IOException {
		Path directory = Files.createTempDirectory("handler-cpu-probe");
		Path target = directory.resolve("io/github/kubeop/benchmarks");
		Files.createDirectories(target);
		for (String name : CLASSES) {
			try (InputStream in = HandlerCpuProbe.class.getResourceAsStream(name + ".class")) {
				Files.copy(in, target.resolve(name + ".class"));
			}
		}
		return directory;
	}

	private static String record(int objects, Path listFile) throws Exception {
		Method record = HandlerOverheadBenchmark.class.getDeclaredMethod("record", int.class);
		record.setAccessible(true);
		String list = (String) record.invoke(null, objects);
		Files.createDirectories(listFile.toAbsolutePath().getParent());
		Files.writeString(listFile, list);
		return list;
	}

	private static Map<String, Double> sample(String classPath, String url, boolean tracing, int seconds)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.addAll(List.of("-cp", classPath, HandlerCpuProbe.class.getName(), CHILD, url, Boolean.toString(tracing),
				Integer.toString(seconds)));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IllegalStateException("sample failed: " + output);
		}
		String line = output.lines()
			.filter((candidate) -> candidate.startsWith("{"))
			.reduce((earlier, later) -> later)
			.orElseThrow(() -> new IllegalStateException("no result: " + output));
		JsonObject result = JsonParser.parseString(line).getAsJsonObject();
		Map<String, Double> sample = new LinkedHashMap<>();
		result.entrySet().forEach((entry) -> sample.put(entry.getKey(), entry.getValue().getAsDouble()));
		return sample;
	}

	/**
	 * One sample in a fresh JVM: the tree's handler path on the replayed stream, then the
	 * threads' figures as one JSON line. Uses only what the trees compared share.
	 */
	private static void child(String url, boolean tracing, int seconds) throws Exception {
		ApiClient client = new ClientBuilder().setBasePath(url).build();
		client.setReadTimeout(0);
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(NAMESPACE));
		AtomicLong calls = new AtomicLong();
		HandlerRegistrar handlers = new HandlerRegistrar(registry, List.of("overhead"), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> 1, HandlerObserver.NONE);
		if (tracing) {
			// by name: the tree before tracing has no such class, and never asks for it
			Method on = Class.forName("io.github.kubeop.benchmarks.TracingOn").getDeclaredMethod("tracing");
			on.setAccessible(true);
			handlers.setTracing((HandlerTracing) on.invoke(null));
		}
		CountingHandler bean = new CountingHandler(calls);
		Method method = CountingHandler.class.getMethod("onUpdate", V1ConfigMap.class, V1ConfigMap.class);
		handlers.register(new HandlerEndpoint("overhead", "settings", V1ConfigMap.class,
				List.of(HandlerMethod.of(bean, method, HandlerMethod.Kind.UPDATE, null, false, false)), Set.of(), null,
				Map.of()));
		handlers.startWorkers();
		registry.start();
		registry.awaitSync(Duration.ofMinutes(1));
		long warmUpEnd = System.nanoTime() + WARM_UP_LIMIT.toNanos();
		while (informer.eventCount("modified") < WARM_UP_EVENTS && System.nanoTime() < warmUpEnd) {
			Thread.sleep(10);
		}
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		List<Long> workers = new ArrayList<>();
		List<Long> listeners = new ArrayList<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.getName().startsWith("kubeop-handler-overhead-")) {
				workers.add(thread.getId());
			}
			else if (thread.getName().startsWith("kubeop-informer-settings-handler-")) {
				listeners.add(thread.getId());
			}
		}
		if (workers.isEmpty() || listeners.isEmpty()) {
			throw new IllegalStateException("threads not found: workers " + workers + ", listeners " + listeners);
		}
		long events = informer.eventCount("modified");
		long handled = calls.get();
		long workerCpu = cpu(threads, workers);
		long listenerCpu = cpu(threads, listeners);
		long workerAllocated = allocated(threads, workers);
		long listenerAllocated = allocated(threads, listeners);
		long processCpu = os.getProcessCpuTime();
		long time = System.nanoTime();
		Thread.sleep(seconds * 1000L);
		long windowEvents = informer.eventCount("modified") - events;
		long windowCalls = calls.get() - handled;
		long windowWorkerCpu = cpu(threads, workers) - workerCpu;
		long windowListenerCpu = cpu(threads, listeners) - listenerCpu;
		long windowWorkerAllocated = allocated(threads, workers) - workerAllocated;
		long windowListenerAllocated = allocated(threads, listeners) - listenerAllocated;
		long windowProcessCpu = os.getProcessCpuTime() - processCpu;
		long windowTime = System.nanoTime() - time;
		if (windowCalls == 0 || windowEvents == 0) {
			throw new IllegalStateException("no calls or events: " + windowCalls + ", " + windowEvents);
		}
		Map<String, Double> result = new LinkedHashMap<>();
		result.put("workerCpuMicrosPerCall", windowWorkerCpu / 1000.0 / windowCalls);
		result.put("listenerCpuMicrosPerEvent", windowListenerCpu / 1000.0 / windowEvents);
		result.put("workerAllocatedBytesPerCall", (double) windowWorkerAllocated / windowCalls);
		result.put("listenerAllocatedBytesPerEvent", (double) windowListenerAllocated / windowEvents);
		result.put("callsPerEvent", (double) windowCalls / windowEvents);
		result.put("processCpuMicrosPerEvent", windowProcessCpu / 1000.0 / windowEvents);
		result.put("eventsPerSecond", windowEvents * 1e9 / windowTime);
		result.put("loadAverage", os.getSystemLoadAverage());
		System.out.println(new Gson().toJson(result));
		System.out.flush();
		// the watch and the workers are not daemons
		System.exit(0);
	}

	private static long cpu(com.sun.management.ThreadMXBean threads, List<Long> ids) {
		long total = 0;
		for (long id : ids) {
			total += Math.max(threads.getThreadCpuTime(id), 0);
		}
		return total;
	}

	private static long allocated(com.sun.management.ThreadMXBean threads, List<Long> ids) {
		long total = 0;
		for (long id : ids) {
			total += Math.max(threads.getThreadAllocatedBytes(id), 0);
		}
		return total;
	}

	/**
	 * A handler bean as an operator writes one.
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
