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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * Events from watch to handler call. Two parts; every contender runs in a process of its
 * own (the Java ones in a fresh JVM with this JVM's flags, client-go as the Go program),
 * the order of the contenders rotated between repetitions:
 * <ol>
 * <li>Latency, against a real kube-apiserver: ConfigMaps updated at fixed rates (and as
 * fast as eight writers can) by writers with their own client in this process, each write
 * stamped with the time it was scheduled to start, so that a write that waits for a busy
 * writer counts its wait (no coordinated omission); the handler records the latency from
 * that time to its call, and the events per second it saw.</li>
 * <li>Replay, against {@link ReplayServer}, which plays back a recorded list and then
 * streams a fixed number of MODIFIED events at line rate, in the wire format each client
 * asks for, so that the client's own limit shows: once for small ConfigMaps
 * (decode-light) and once for realistic Pods (decode-heavy: about 15 KB of JSON each,
 * with status, conditions, containers, resources, volumes and managedFields, as the real
 * API server wrote them). The same probe for every contender: a handler that only counts
 * updates; the rate is the events over the time from the first event's first byte served
 * to the last event handled. The contender's process also reports the CPU time it spent
 * and the bytes it allocated from its sync to its last event, and over the second half of
 * the events alone (the event path compiled by then).</li>
 * </ol>
 * Every contender runs as its users run it: Kubeop (and its handler path, in the latency
 * part) with its default encoding, protobuf for built-in kinds; the replay also runs
 * "Kubeop, JSON", Kubeop with {@code encoding: json}, served the same JSON as
 * client-java. The samples go to {@code benchmarks/results/events.json}, with a pprof CPU
 * profile of each client-go replay (its top 20 as text) beside them.
 * <p>
 * Usage: {@code EventDeliveryBenchmark [repetitions] [seconds per rate] [replayed events]
 * [rate...]}; a rate of 0 means as fast as the API server takes writes. The system
 * property {@code contenders} (separated by commas, or by semicolons where a name holds a
 * comma) limits the run to some contenders, {@code parts} ({@code latency},
 * {@code replay} or both, the default) to some parts, and {@code replays}
 * ({@code configmaps}, {@code pods} or both, the default) to some replays; the Pod replay
 * streams a quarter of the events unless {@code podEvents} says how many.
 *
 * @author Kubeop authors
 */
public final class EventDeliveryBenchmark {

	private static final String NAMESPACE = "events";

	private static final int OBJECTS = 200;

	private static final int WRITERS = 8;

	private static final Duration REPLAY_TIMEOUT = Duration.ofMinutes(2);

	private static final String LATENCY_CLIENT = "--latency-client";

	private static final String REPLAY_CLIENT = "--replay-client";

	private static final String LATENCY_WORKLOAD = "Write to handler, real API server";

	private static final String REPLAY_WORKLOAD = "Replay server";

	private static final String POD_REPLAY_WORKLOAD = "Replay server, Pods";

	static final String CLIENT_GO_JSON = "client-go, JSON";

	static final String CLIENT_GO_PROTOBUF = "client-go, protobuf (its default)";

	static final String CLIENT_GO_JSON_TUNED = "client-go, JSON, GOGC=off + GOMEMLIMIT";

	static final String CLIENT_GO_PROTOBUF_TUNED = "client-go, protobuf, GOGC=off + GOMEMLIMIT";

	private static final List<String> LATENCY_CONTENDERS = List.of(Contenders.KUBEOP, Contenders.KUBEOP_HANDLER,
			Contenders.CLIENT_JAVA, Contenders.FABRIC8, Contenders.CLIENT_GO);

	// Kubeop's handler path coalesces the updates of a key into one call, so a count of
	// handler calls cannot be compared with the other contenders' event handlers here
	private static final List<String> REPLAY_CONTENDERS = List.of(Contenders.KUBEOP, Contenders.KUBEOP_JSON,
			Contenders.CLIENT_JAVA, Contenders.FABRIC8, CLIENT_GO_JSON, CLIENT_GO_PROTOBUF, CLIENT_GO_JSON_TUNED,
			CLIENT_GO_PROTOBUF_TUNED);

	private EventDeliveryBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals(LATENCY_CLIENT)) {
			latencyClient(args[1], Path.of(args[2]));
			return;
		}
		if (args.length > 0 && args[0].equals(REPLAY_CLIENT)) {
			replayClient(args[1], args[2], Path.of(args[3]), Long.parseLong(args[4]));
			return;
		}
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int seconds = (args.length > 1) ? Integer.parseInt(args[1]) : 10;
		long replayedEvents = (args.length > 2) ? Long.parseLong(args[2]) : 200_000;
		List<Integer> rates = new ArrayList<>();
		for (int i = 3; i < args.length; i++) {
			rates.add(Integer.parseInt(args[i]));
		}
		if (rates.isEmpty()) {
			rates = List.of(100, 500, 0);
		}
		Results results = new Results("events");
		Path clientGo = ClientGo.build();
		// most contenders' names hold a comma: a list with a semicolon is split there
		String contendersProperty = System.getProperty("contenders", "");
		List<String> only = List.of(contendersProperty.split(contendersProperty.contains(";") ? ";" : ","));
		List<String> parts = List.of(System.getProperty("parts", "latency,replay").split(","));
		List<String> replays = List.of(System.getProperty("replays", "configmaps,pods").split(","));
		// a quarter of the ConfigMap events: a Pod costs the slowest contenders (about
		// 1,400 Pod events per second) five to ten times a ConfigMap, and 50,000 Pod
		// events keep them well within the replay's timeout; with 10,000, a JVM's
		// one-time compiling of the Pod's event path, about a second of CPU, was most of
		// the whole replay's CPU per event
		long podEvents = Long.getLong("podEvents", Math.max(1, replayedEvents / 4));
		Map<String, String> recordedLists = new LinkedHashMap<>();
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			populate(client);
			List<String> contenders = select(LATENCY_CONTENDERS, only, clientGo);
			for (int rate : parts.contains("latency") ? rates : List.<Integer>of()) {
				for (int repetition = 0; repetition < repetitions; repetition++) {
					List<String> order = new ArrayList<>(contenders);
					Collections.rotate(order, -(repetition + rates.indexOf(rate)));
					for (String contender : order) {
						latency(results, contender, rate, seconds, controlPlane, clientGo);
					}
				}
			}
			try (okhttp3.Response response = new CoreV1Api(client).listNamespacedConfigMap(NAMESPACE)
				.buildCall(null)
				.execute()) {
				recordedLists.put("configmaps", response.body().string());
			}
			if (parts.contains("replay") && replays.contains("pods")) {
				populatePods(client);
				try (okhttp3.Response response = new CoreV1Api(client).listNamespacedPod(NAMESPACE)
					.buildCall(null)
					.execute()) {
					recordedLists.put("pods", response.body().string());
				}
			}
		}
		results.environment()
			.put("eventsWorkload", "writers with their own ApiClient in the harness's JVM, each contender in a "
					+ "process of its own, contender order rotated between repetitions");
		for (String plural : parts.contains("replay") ? replays : List.<String>of()) {
			boolean pods = plural.equals("pods");
			String kind = pods ? "Pod" : "ConfigMap";
			String workload = pods ? POD_REPLAY_WORKLOAD : REPLAY_WORKLOAD;
			JsonObject recordedList = JsonParser.parseString(recordedLists.get(plural)).getAsJsonObject();
			try (ReplayServer server = ReplayServer.start(NAMESPACE, plural, kind, recordedList, clientGo)) {
				Path directory = Files.createTempDirectory("replay");
				Path kubeconfig = server.writeKubeconfig(directory);
				List<String> contenders = select(REPLAY_CONTENDERS, only, clientGo);
				for (int repetition = 0; repetition < repetitions; repetition++) {
					List<String> order = new ArrayList<>(contenders);
					Collections.rotate(order, -repetition);
					for (String contender : order) {
						boolean lastRepetition = repetition == repetitions - 1;
						replay(results, workload, plural, contender, server, kubeconfig,
								pods ? podEvents : replayedEvents, clientGo, lastRepetition);
					}
				}
				results.environment()
					.put(pods ? "replayPods" : "replay", (pods ? podEvents : replayedEvents) + " MODIFIED events of "
							+ recordedList.getAsJsonArray("items").size() + " " + kind + "s per sample ("
							+ averageSize(recordedList) + " bytes of JSON each, as the API server wrote them); "
							+ "JSON, or protobuf to a client that asks for it; fabric8 watches "
							+ "over a WebSocket, its default, answered with 101 and one event per text message");
				results.environment().put("clientGoTuned", "GOGC=off GOMEMLIMIT=" + goMemoryLimit());
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	private static List<String> select(List<String> contenders, List<String> only, Path clientGo) {
		return contenders.stream()
			.filter((name) -> clientGo != null || !name.startsWith(Contenders.CLIENT_GO))
			.filter((name) -> only.equals(List.of("")) || only.contains(name))
			.toList();
	}

	/**
	 * One latency sample: starts the contender, writes for two seconds to warm it up,
	 * then for the measured window, and collects what it saw.
	 */
	private static void latency(Results results, String contender, int rate, int seconds,
			LocalControlPlane controlPlane, Path clientGo) throws Exception {
		Path kubeconfig = controlPlane.kubeconfigFile();
		ClientGo.Events subject = contender.equals(Contenders.CLIENT_GO)
				? ClientGo.events(clientGo, kubeconfig, NAMESPACE)
				: ClientGo.events(javaChild(LATENCY_CLIENT, contender, kubeconfig.toString()));
		JsonObject result;
		double writesPerSecond;
		try (Writers writers = new Writers(controlPlane.apiClient(), rate)) {
			writers.run(Duration.ofSeconds(2));
			subject.start();
			long written = writers.run(Duration.ofSeconds(seconds));
			subject.mark();
			writesPerSecond = written / (double) seconds;
			// the last writes' events are still on their way
			Thread.sleep(1000);
			result = subject.finish();
		}
		JsonObject latency = result.getAsJsonObject("latencyMicros");
		double eventsPerSecond = result.get("events").getAsLong() * 1000.0
				/ Math.max(1, result.get("elapsedMillis").getAsLong());
		double p50 = latency.has("p50") ? latency.get("p50").getAsLong() / 1000.0 : 0;
		double p99 = latency.has("p99") ? latency.get("p99").getAsLong() / 1000.0 : 0;
		results.add(LATENCY_WORKLOAD, rate, contender, "writesPerSecond", writesPerSecond);
		results.add(LATENCY_WORKLOAD, rate, contender, "eventsPerSecond", eventsPerSecond);
		results.add(LATENCY_WORKLOAD, rate, contender, "p50Millis", p50);
		results.add(LATENCY_WORKLOAD, rate, contender, "p99Millis", p99);
		System.out.printf(Locale.ROOT, "rate %d %s: %.0f writes/s, %.0f events/s, p50 %.1f ms, p99 %.1f ms%n", rate,
				contender, writesPerSecond, eventsPerSecond, p50, p99);
	}

	/**
	 * One replay sample: arms the server, runs the contender until it has handled every
	 * event, and records its rate, CPU time and allocation per event.
	 */
	private static void replay(Results results, String workload, String plural, String contender, ReplayServer server,
			Path kubeconfig, long events, Path clientGo, boolean profile) throws Exception {
		server.arm(events);
		Process process;
		Path cpuProfile = null;
		if (contender.startsWith(Contenders.CLIENT_GO)) {
			if (profile) {
				cpuProfile = Path.of("benchmarks", "results", "replay-" + profileName(plural, contender) + ".pprof")
					.toAbsolutePath();
				Files.createDirectories(cpuProfile.getParent());
			}
			process = ClientGo.replay(clientGo, kubeconfig, NAMESPACE, plural, events, REPLAY_TIMEOUT,
					contender.contains("JSON"), contender.contains("GOMEMLIMIT") ? goMemoryLimit() : null, cpuProfile);
		}
		else {
			process = javaChild(REPLAY_CLIENT, contender, plural, kubeconfig.toString(), Long.toString(events));
		}
		JsonObject result = lastJsonLine(contender, process);
		long first = server.firstEventMicros();
		results.environment().put("watch: " + contender, server.lastWatchFormat());
		boolean completed = result != null && result.get("completed").getAsBoolean() && first > 0;
		results.add(workload, events, contender, "completed", completed ? 1 : 0);
		if (!completed) {
			System.out.printf(Locale.ROOT, "replay %s: did not handle all %d events (%s)%n", contender, events,
					(result != null) ? result.get("events").getAsLong() + " handled" : "no result");
			return;
		}
		if (result.has("goVersion")) {
			results.environment()
				.put("clientGo", result.get("goVersion").getAsString() + ", GOMAXPROCS="
						+ result.get("gomaxprocs").getAsInt() + ", GOGC default (100) unless stated");
		}
		double seconds = (result.get("lastEventMicros").getAsLong() - first) / 1e6;
		double eventsPerSecond = events / seconds;
		double cpuMicrosPerEvent = result.get("cpuNanos").getAsLong() / 1000.0 / events;
		double allocatedBytes = result.get("allocatedBytes").getAsDouble();
		results.add(workload, events, contender, "eventsPerSecond", eventsPerSecond);
		results.add(workload, events, contender, "cpuMicrosPerEvent", cpuMicrosPerEvent);
		results.add(workload, events, contender, "allocatedBytesPerEvent", allocatedBytes / events);
		results.add(workload, events, contender, "allocationMiBPerSecond", allocatedBytes / (1 << 20) / seconds);
		double cpuMicrosSecondHalf = Double.NaN;
		if (result.has("cpuNanosSecondHalf")) {
			long secondHalf = result.get("secondHalfEvents").getAsLong();
			cpuMicrosSecondHalf = result.get("cpuNanosSecondHalf").getAsLong() / 1000.0 / secondHalf;
			results.add(workload, events, contender, "cpuMicrosPerEventSecondHalf", cpuMicrosSecondHalf);
			results.add(workload, events, contender, "allocatedBytesPerEventSecondHalf",
					result.get("allocatedBytesSecondHalf").getAsDouble() / secondHalf);
		}
		System.out.printf(Locale.ROOT,
				"replay %s, %s (%s): %.0f events/s, %.1f µs CPU per event (%.1f in the second half), %.0f bytes "
						+ "allocated per event, %.0f MiB/s%n",
				plural, contender, server.lastWatchFormat(), eventsPerSecond, cpuMicrosPerEvent, cpuMicrosSecondHalf,
				allocatedBytes / events, allocatedBytes / (1 << 20) / seconds);
		if (cpuProfile != null) {
			Path top = cpuProfile.resolveSibling("replay-" + profileName(plural, contender) + "-pprof-top20.txt");
			ClientGo.profileTop(clientGo, cpuProfile, top, 20);
		}
	}

	/**
	 * The Go contenders' memory limit with GOGC=off: the Java contenders' maximum heap,
	 * so that both runtimes may use the same heap before they must collect.
	 */
	private static String goMemoryLimit() {
		return (Runtime.getRuntime().maxMemory() >> 20) + "MiB";
	}

	/**
	 * The name of a replay's profile: the contender's alone for the ConfigMaps, as
	 * before, with the resource for the Pods.
	 */
	private static String profileName(String plural, String contender) {
		return plural.equals("configmaps") ? slug(contender) : plural + "-" + slug(contender);
	}

	/**
	 * The average size of a recorded list's items as JSON.
	 */
	private static long averageSize(JsonObject recordedList) {
		long bytes = 0;
		int items = 0;
		for (com.google.gson.JsonElement item : recordedList.getAsJsonArray("items")) {
			bytes += item.toString().getBytes(StandardCharsets.UTF_8).length;
			items++;
		}
		return (items > 0) ? bytes / items : 0;
	}

	private static String slug(String contender) {
		return contender.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
	}

	/**
	 * Starts a Java contender in a fresh JVM with this JVM's flags.
	 */
	private static Process javaChild(String... arguments) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.add("-XX:+ExitOnOutOfMemoryError");
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), EventDeliveryBenchmark.class.getName()));
		command.addAll(List.of(arguments));
		return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
	}

	/**
	 * Reads a contender's output to its end and returns the last JSON line, or
	 * {@code null} if it printed none; other lines are passed on to standard error.
	 */
	private static JsonObject lastJsonLine(String contender, Process process) throws Exception {
		JsonObject last = null;
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = output.readLine()) != null) {
				if (line.startsWith("{") && line.contains("\"completed\"")) {
					last = JsonParser.parseString(line).getAsJsonObject();
				}
				else {
					System.err.println(contender + ": " + line);
				}
			}
		}
		if (!process.waitFor(1, TimeUnit.MINUTES)) {
			process.destroyForcibly();
		}
		return last;
	}

	/**
	 * The child side of a latency sample, speaking the Go program's events protocol:
	 * prints {@code {"synced":true}}, starts the window at the first line on standard
	 * input, marks its end at the second, and prints what it saw when standard input
	 * closes.
	 */
	private static void latencyClient(String contender, Path kubeconfig) throws Exception {
		String config = Files.readString(kubeconfig, StandardCharsets.UTF_8);
		Recorder recorder = new Recorder();
		inform(contender, client(config), config, recorder::record);
		System.out.println("{\"synced\":true}");
		System.out.flush();
		BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		int lines = 0;
		while (input.readLine() != null) {
			if (lines++ == 0) {
				recorder.startWindow();
			}
			else {
				recorder.mark();
			}
		}
		System.out.println(new Gson().toJson(recorder.result()));
		System.out.flush();
		// informer threads are not daemons in every client
		System.exit(0);
	}

	/**
	 * The child side of a replay sample: counts updates until it has seen all it was told
	 * to expect, then prints the time of the last one and the CPU time and heap
	 * allocation since the informer synced.
	 */
	private static void replayClient(String contender, String plural, Path kubeconfig, long events) throws Exception {
		String config = Files.readString(kubeconfig, StandardCharsets.UTF_8);
		AtomicLong handled = new AtomicLong();
		AtomicLong lastEventMicros = new AtomicLong();
		CountDownLatch done = new CountDownLatch(1);
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		// the second half of the events, once the JIT has compiled the event path: a
		// long-running operator's cost per event, where the whole replay also counts the
		// compilation of a path that was cold at its sync
		long half = events / 2;
		long[] atHalf = new long[2];
		Map<String, Long> threadsAtHalf = new LinkedHashMap<>();
		long[] compilationAtHalf = new long[1];
		Consumer<Map<String, String>> counter = (annotations) -> {
			long count = handled.incrementAndGet();
			if (count == half) {
				atHalf[0] = os.getProcessCpuTime();
				atHalf[1] = threads.getTotalThreadAllocatedBytes();
				threadsAtHalf.putAll(threadCpu(threads));
				compilationAtHalf[0] = compilationMillis();
			}
			if (count == events) {
				lastEventMicros.set(nowMicros());
				done.countDown();
			}
		};
		if (plural.equals("pods")) {
			informPods(contender, client(config), config, counter);
		}
		else {
			inform(contender, client(config), config, counter);
		}
		long cpuBefore = os.getProcessCpuTime();
		long allocatedBefore = threads.getTotalThreadAllocatedBytes();
		Map<String, Long> threadsBefore = threadCpu(threads);
		long compilationBefore = compilationMillis();
		boolean completed = done.await(REPLAY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		long cpuAtEnd = os.getProcessCpuTime();
		long allocatedAtEnd = threads.getTotalThreadAllocatedBytes();
		long cpu = cpuAtEnd - cpuBefore;
		long allocated = allocatedAtEnd - allocatedBefore;
		if (completed && half > 0) {
			// where the CPU went: the Java threads by name, the rest is the JVM's own
			// (JIT, GC), with the time its JIT compilers spent as the JVM counts it
			Map<String, Long> threadsAtEnd = threadCpu(threads);
			long compilationAtEnd = compilationMillis();
			System.out.println(cpuSplit("whole replay", threadsBefore, threadsAtEnd, cpuAtEnd - cpuBefore,
					compilationAtEnd - compilationBefore, events));
			System.out.println(cpuSplit("second half", threadsAtHalf, threadsAtEnd, cpuAtEnd - atHalf[0],
					compilationAtEnd - compilationAtHalf[0], events - half));
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("events", handled.get());
		result.put("lastEventMicros", completed ? lastEventMicros.get() : nowMicros());
		result.put("cpuNanos", cpu);
		result.put("allocatedBytes", allocated);
		if (completed && half > 0) {
			result.put("cpuNanosSecondHalf", cpuAtEnd - atHalf[0]);
			result.put("allocatedBytesSecondHalf", allocatedAtEnd - atHalf[1]);
			result.put("secondHalfEvents", events - half);
		}
		result.put("completed", completed);
		System.out.println(new Gson().toJson(result));
		System.out.flush();
		System.exit(0);
	}

	/**
	 * Where the CPU of part of a replay went, per event: the Java threads that took more
	 * than a hundredth of it, by name, then the rest, the JVM's own, with the time its
	 * JIT compilers spent (elapsed, as the JVM counts it).
	 */
	private static String cpuSplit(String part, Map<String, Long> before, Map<String, Long> after, long processCpu,
			long compilationMillis, long events) {
		StringBuilder split = new StringBuilder(part + ", CPU µs per event by thread:");
		long javaThreads = 0;
		for (Map.Entry<String, Long> entry : after.entrySet()) {
			long spent = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
			javaThreads += spent;
			if (spent * 100 > processCpu) {
				split.append(String.format(Locale.ROOT, " %s %.1f;", entry.getKey(), spent / 1000.0 / events));
			}
		}
		split.append(String.format(Locale.ROOT, " JVM %.1f, of which JIT compiling about %.1f",
				(processCpu - javaThreads) / 1000.0 / events, compilationMillis * 1000.0 / events));
		return split.toString();
	}

	private static long compilationMillis() {
		java.lang.management.CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
		return (compilation != null && compilation.isCompilationTimeMonitoringSupported())
				? compilation.getTotalCompilationTime() : 0;
	}

	/**
	 * The CPU time of each live Java thread, by name (threads of one name summed).
	 */
	private static Map<String, Long> threadCpu(com.sun.management.ThreadMXBean threads) {
		Map<String, Long> cpu = new LinkedHashMap<>();
		for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (info != null) {
				long nanos = threads.getThreadCpuTime(info.getThreadId());
				if (nanos > 0) {
					cpu.merge(info.getThreadName().replaceAll("\\d+", "#"), nanos, Long::sum);
				}
			}
		}
		return cpu;
	}

	private static ApiClient client(String kubeconfig) throws IOException {
		ApiClient client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig))).build();
		client.setReadTimeout(0);
		return client;
	}

	private static void populate(ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		for (int i = 0; i < OBJECTS; i++) {
			api.createNamespacedConfigMap(NAMESPACE, configMap(i, nowMicros())).execute();
		}
	}

	/**
	 * Creates the Pods of the Pod replay as a ReplicaSet would and reports their status
	 * as a kubelet would, so that the API server writes them with its defaults and the
	 * managedFields of both writers.
	 */
	private static void populatePods(ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		try {
			// the service account admission wants the Pods' service account to exist
			api.createNamespacedServiceAccount(NAMESPACE, new io.kubernetes.client.openapi.models.V1ServiceAccount()
				.metadata(new V1ObjectMeta().name("default"))).execute();
		}
		catch (io.kubernetes.client.openapi.ApiException ex) {
			if (ex.getCode() != 409) {
				throw ex;
			}
		}
		String collection = "/api/v1/namespaces/" + NAMESPACE + "/pods";
		for (int i = 0; i < OBJECTS; i++) {
			// sent as JSON text: the models would send their empty defaults (an empty
			// overhead, which admission rejects)
			send(client, "POST", collection, "kube-controller-manager", "application/json", Payloads.pod(NAMESPACE, i));
			send(client, "PATCH", collection + "/web-5d7f9c8b6d-%05d/status".formatted(i), "kubelet",
					"application/merge-patch+json", "{\"status\":" + Payloads.podStatus(i) + "}");
		}
	}

	private static void send(ApiClient client, String method, String path, String fieldManager, String contentType,
			String json) throws io.kubernetes.client.openapi.ApiException {
		Map<String, String> headers = new java.util.HashMap<>();
		headers.put("Content-Type", contentType);
		headers.put("Accept", "application/json");
		okhttp3.Call call = client.buildCall(client.getBasePath(), path, method,
				new ArrayList<>(List.of(new io.kubernetes.client.openapi.Pair("fieldManager", fieldManager))),
				new ArrayList<>(), JsonParser.parseString(json), headers, new java.util.HashMap<>(),
				new java.util.HashMap<>(), new String[] { "BearerToken" }, null);
		client.execute(call);
	}

	private static V1ConfigMap configMap(int index, long writtenAtMicros) {
		return new V1ConfigMap()
			.metadata(
					new V1ObjectMeta().name("settings-" + index)
						.labels(Map.of("app", "benchmark", "tier", "settings"))
						.annotations(Map.of("example.com/owner", "team-a", Payloads.WRITTEN_AT,
								Long.toString(writtenAtMicros))))
			.data(Map.of("payload", "x".repeat(1024), "mode", "fast"));
	}

	static long nowMicros() {
		Instant now = Instant.now();
		return TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + now.getNano() / 1000;
	}

	/**
	 * Starts the contender's informer on the ConfigMaps of the namespace, as its users
	 * run it, with a handler that passes every update's annotations on, and waits until
	 * it has synced.
	 */
	private static void inform(String contender, ApiClient client, String kubeconfig,
			Consumer<Map<String, String>> updated) {
		switch (contender) {
			case Contenders.KUBEOP, Contenders.KUBEOP_JSON -> kubeop(client, false, contender, updated);
			case Contenders.KUBEOP_HANDLER -> kubeop(client, true, contender, updated);
			case Contenders.CLIENT_JAVA -> official(client, updated);
			case Contenders.FABRIC8 -> fabric8(kubeconfig, updated);
			default -> throw new IllegalArgumentException("Unknown contender " + contender);
		}
	}

	/**
	 * Starts the contender's informer on the Pods of the namespace, as its users run it,
	 * with a handler that passes every update's annotations on, and waits until it has
	 * synced.
	 */
	private static void informPods(String contender, ApiClient client, String kubeconfig,
			Consumer<Map<String, String>> updated) {
		switch (contender) {
			case Contenders.KUBEOP, Contenders.KUBEOP_JSON -> {
				InformerRegistry registry = new InformerRegistry(client);
				registry
					.informer(Contenders.encoding(contender,
							InformerSpec.of("pods", "v1", "Pod", V1Pod.class).withNamespaces(NAMESPACE)))
					.addEventHandler(updates(updated));
				registry.start();
				registry.awaitSync(Duration.ofMinutes(1));
			}
			case Contenders.CLIENT_JAVA -> {
				SharedInformerFactory factory = new SharedInformerFactory(client);
				SharedIndexInformer<V1Pod> informer = factory.sharedIndexInformerFor(
						new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", client), V1Pod.class,
						0, NAMESPACE);
				informer.addEventHandler(updates(updated));
				factory.startAllRegisteredInformers();
				while (!informer.hasSynced()) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				}
			}
			case Contenders.FABRIC8 -> {
				io.fabric8.kubernetes.client.KubernetesClient fabric8 = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
					.withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(kubeconfig))
					.build();
				io.fabric8.kubernetes.client.informers.SharedIndexInformer<io.fabric8.kubernetes.api.model.Pod> informer = fabric8
					.pods()
					.inNamespace(NAMESPACE)
					.inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {

						@Override
						public void onAdd(io.fabric8.kubernetes.api.model.Pod obj) {
						}

						@Override
						public void onUpdate(io.fabric8.kubernetes.api.model.Pod oldObj,
								io.fabric8.kubernetes.api.model.Pod newObj) {
							updated.accept(newObj.getMetadata().getAnnotations());
						}

						@Override
						public void onDelete(io.fabric8.kubernetes.api.model.Pod obj,
								boolean deletedFinalStateUnknown) {
						}

					}, 0);
				while (!informer.hasSynced()) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				}
			}
			default -> throw new IllegalArgumentException("Unknown contender " + contender);
		}
	}

	private static void kubeop(ApiClient client, boolean handlerPath, String contender,
			Consumer<Map<String, String>> updated) {
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> informer = registry.informer(Contenders.encoding(contender,
				InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(NAMESPACE)));
		if (handlerPath) {
			HandlerRegistrar handlers = new HandlerRegistrar(registry, List.of("events"), Duration.ZERO,
					(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
					(name) -> 1, HandlerObserver.NONE);
			handlers.register(HandlerEndpoint.builder("events", V1ConfigMap.class)
				.informer("settings")
				.onUpdate((old, configMap) -> updated.accept(configMap.getMetadata().getAnnotations()))
				.build());
			handlers.startWorkers();
		}
		else {
			informer.addEventHandler(updates(updated));
		}
		registry.start();
		registry.awaitSync(Duration.ofMinutes(1));
	}

	private static void official(ApiClient client, Consumer<Map<String, String>> updated) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
				new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
				V1ConfigMap.class, 0, NAMESPACE);
		informer.addEventHandler(updates(updated));
		factory.startAllRegisteredInformers();
		while (!informer.hasSynced()) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	private static void fabric8(String kubeconfig, Consumer<Map<String, String>> updated) {
		io.fabric8.kubernetes.client.KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
			.withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(kubeconfig))
			.build();
		io.fabric8.kubernetes.client.informers.SharedIndexInformer<io.fabric8.kubernetes.api.model.ConfigMap> informer = client
			.configMaps()
			.inNamespace(NAMESPACE)
			.inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {

				@Override
				public void onAdd(io.fabric8.kubernetes.api.model.ConfigMap obj) {
				}

				@Override
				public void onUpdate(io.fabric8.kubernetes.api.model.ConfigMap oldObj,
						io.fabric8.kubernetes.api.model.ConfigMap newObj) {
					updated.accept(newObj.getMetadata().getAnnotations());
				}

				@Override
				public void onDelete(io.fabric8.kubernetes.api.model.ConfigMap obj, boolean deletedFinalStateUnknown) {
				}

			}, 0);
		while (!informer.hasSynced()) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	/**
	 * Returns a client-java handler that passes every update's annotations on.
	 */
	private static <T extends KubernetesObject> ResourceEventHandler<T> updates(Consumer<Map<String, String>> updated) {
		return new ResourceEventHandler<>() {

			@Override
			public void onAdd(T obj) {
			}

			@Override
			public void onUpdate(T oldObj, T newObj) {
				updated.accept(newObj.getMetadata().getAnnotations());
			}

			@Override
			public void onDelete(T obj, boolean deletedFinalStateUnknown) {
			}

		};
	}

	/**
	 * Counts handler calls in a window and the latency of each from its write's scheduled
	 * time, in a latency child.
	 */
	private static final class Recorder {

		private final long[] latencies = new long[1 << 20];

		private final AtomicInteger samples = new AtomicInteger();

		private final AtomicInteger events = new AtomicInteger();

		private volatile boolean counting;

		private volatile long started = System.nanoTime();

		private volatile long markedEvents = -1;

		private volatile long markedNanos;

		void record(Map<String, String> annotations) {
			long now = nowMicros();
			if (!this.counting) {
				return;
			}
			this.events.incrementAndGet();
			String written = (annotations != null) ? annotations.get(Payloads.WRITTEN_AT) : null;
			if (written != null) {
				int index = this.samples.getAndIncrement();
				if (index < this.latencies.length) {
					this.latencies[index] = now - Long.parseLong(written);
				}
			}
		}

		void startWindow() {
			this.events.set(0);
			this.samples.set(0);
			this.started = System.nanoTime();
			this.counting = true;
		}

		void mark() {
			this.markedNanos = System.nanoTime() - this.started;
			this.markedEvents = this.events.get();
		}

		/**
		 * Returns the window's figures in the Go program's format.
		 */
		Map<String, Object> result() {
			int count = Math.min(this.samples.get(), this.latencies.length);
			long[] sorted = Arrays.copyOf(this.latencies, count);
			Arrays.sort(sorted);
			Map<String, Object> latency = new LinkedHashMap<>();
			if (count > 0) {
				latency.put("p50", sorted[(int) (0.50 * (count - 1))]);
				latency.put("p99", sorted[(int) (0.99 * (count - 1))]);
				latency.put("samples", count);
			}
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("events", (this.markedEvents >= 0) ? this.markedEvents : this.events.get());
			result.put("elapsedMillis", TimeUnit.NANOSECONDS.toMillis(this.markedNanos));
			result.put("latencyMicros", latency);
			return result;
		}

	}

	/**
	 * Writers that update the ConfigMaps round robin at a fixed rate, or as fast as they
	 * can when the rate is 0. A fixed-rate write is stamped with the time it was
	 * scheduled to start, so that time spent waiting for a free writer counts in its
	 * latency; an as-fast-as-possible write is stamped when it starts.
	 */
	private static final class Writers implements AutoCloseable {

		private final CoreV1Api api;

		private final int rate;

		private final ExecutorService executor = Executors.newFixedThreadPool(WRITERS);

		private final AtomicInteger next = new AtomicInteger();

		Writers(ApiClient client, int rate) {
			this.api = new CoreV1Api(client);
			this.rate = rate;
		}

		/**
		 * Writes for a while and returns how many writes completed in that time.
		 */
		long run(Duration duration) throws Exception {
			long start = System.nanoTime();
			long startMicros = nowMicros();
			long end = start + duration.toNanos();
			AtomicInteger completed = new AtomicInteger();
			List<Future<?>> pending = new ArrayList<>();
			if (this.rate == 0) {
				AtomicBoolean stop = new AtomicBoolean();
				for (int i = 0; i < WRITERS; i++) {
					pending.add(this.executor.submit(() -> {
						while (System.nanoTime() < end && !stop.get()) {
							write(nowMicros());
							completed.incrementAndGet();
						}
						return null;
					}));
				}
			}
			else {
				long period = TimeUnit.SECONDS.toNanos(1) / this.rate;
				long next = start;
				while (next < end) {
					LockSupport.parkNanos(next - System.nanoTime());
					long scheduledMicros = startMicros + (next - start) / 1000;
					pending.add(this.executor.submit(() -> {
						write(scheduledMicros);
						if (System.nanoTime() < end) {
							completed.incrementAndGet();
						}
						return null;
					}));
					next += period;
				}
			}
			for (Future<?> future : pending) {
				future.get();
			}
			return completed.get();
		}

		private void write(long writtenAtMicros) throws Exception {
			int index = Math.floorMod(this.next.getAndIncrement(), OBJECTS);
			this.api.replaceNamespacedConfigMap("settings-" + index, NAMESPACE, configMap(index, writtenAtMicros))
				.execute();
		}

		@Override
		public void close() {
			this.executor.shutdownNow();
		}

	}

}
