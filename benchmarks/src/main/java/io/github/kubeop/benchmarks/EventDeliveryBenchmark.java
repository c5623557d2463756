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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

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
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * Events from watch to handler call. Two parts, each contender alternating with the
 * others, several repetitions:
 * <ol>
 * <li>Against a real kube-apiserver: ConfigMaps updated at fixed rates (and as fast as
 * eight writers can), each write stamped with its wall-clock time; the handler records
 * the latency from the write to its call, and the events per second it saw.</li>
 * <li>Against {@link ReplayServer}, which streams a recorded list and watch at line rate,
 * so that the client's own limit shows: sustained events per second into a handler that
 * does nothing.</li>
 * </ol>
 * The samples go to {@code benchmarks/results/events.json}.
 * <p>
 * Usage:
 * {@code EventDeliveryBenchmark [repetitions] [seconds per rate] [sustained seconds]
 * [rate...]}; a rate of 0 means as fast as the API server takes writes. The system
 * property {@code contenders} (comma-separated) limits the run to some contenders.
 *
 * @author Kubeop authors
 */
public final class EventDeliveryBenchmark {

	private static final String NAMESPACE = "events";

	private static final int OBJECTS = 200;

	private static final int WRITERS = 8;

	private static final String REPLAY_CLIENT = "--replay-client";

	private static final List<String> CONTENDERS = List.of(Contenders.KUBEOP, Contenders.KUBEOP_HANDLER,
			Contenders.CLIENT_JAVA, Contenders.FABRIC8, Contenders.CLIENT_GO);

	private EventDeliveryBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals(REPLAY_CLIENT)) {
			replayClient(args[1], Path.of(args[2]), Integer.parseInt(args[3]));
			return;
		}
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int seconds = (args.length > 1) ? Integer.parseInt(args[1]) : 10;
		int sustainedSeconds = (args.length > 2) ? Integer.parseInt(args[2]) : 60;
		List<Integer> rates = new ArrayList<>();
		for (int i = 3; i < args.length; i++) {
			rates.add(Integer.parseInt(args[i]));
		}
		if (rates.isEmpty()) {
			rates = List.of(50, 200, 500, 0);
		}
		Results results = new Results("events");
		Path clientGo = ClientGo.build();
		List<String> only = List.of(System.getProperty("contenders", String.join(",", CONTENDERS)).split(","));
		List<String> contenders = CONTENDERS.stream()
			.filter((name) -> clientGo != null || !name.equals(Contenders.CLIENT_GO))
			.filter(only::contains)
			.toList();
		String recordedList;
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			populate(client);
			for (int rate : rates) {
				for (int repetition = 0; repetition < repetitions; repetition++) {
					for (String contender : contenders) {
						Subject subject = start(contender, client, controlPlane.kubeconfig(),
								controlPlane.kubeconfigFile(), clientGo);
						Window window;
						double writesPerSecond;
						try (Writers writers = new Writers(client, rate)) {
							writers.run(Duration.ofSeconds(2));
							subject.startWindow();
							long written = writers.run(Duration.ofSeconds(seconds));
							subject.mark();
							writesPerSecond = written / (double) seconds;
							Thread.sleep(1000);
							window = subject.finish();
						}
						String workload = "Write to handler, real API server";
						results.add(workload, rate, contender, "writesPerSecond", writesPerSecond);
						results.add(workload, rate, contender, "eventsPerSecond", window.eventsPerSecond());
						results.add(workload, rate, contender, "p50Millis", window.p50Micros() / 1000.0);
						results.add(workload, rate, contender, "p99Millis", window.p99Micros() / 1000.0);
						System.out.printf(Locale.ROOT,
								"rate %d %s: %.0f writes/s, %.0f events/s, p50 %.1f ms, p99 %.1f ms%n", rate, contender,
								writesPerSecond, window.eventsPerSecond(), window.p50Micros() / 1000.0,
								window.p99Micros() / 1000.0);
					}
				}
			}
			try (okhttp3.Response response = new CoreV1Api(client).listNamespacedConfigMap(NAMESPACE)
				.buildCall(null)
				.execute()) {
				recordedList = response.body().string();
			}
		}
		try (ReplayServer server = ReplayServer.start(NAMESPACE,
				JsonParser.parseString(recordedList).getAsJsonObject())) {
			Path kubeconfig = server.writeKubeconfig(Files.createTempDirectory("replay"));
			for (int repetition = 0; repetition < repetitions; repetition++) {
				for (String contender : contenders) {
					long served = server.eventsWritten();
					long started = System.nanoTime();
					Window window = contender.equals(Contenders.CLIENT_GO)
							? replay(goProgram(clientGo, kubeconfig), sustainedSeconds)
							: replayInChildJvm(contender, kubeconfig, sustainedSeconds);
					double servedPerSecond = (server.eventsWritten() - served) * 1e9 / (System.nanoTime() - started);
					String workload = "Sustained, replay server";
					results.add(workload, 0, contender, "eventsPerSecond", window.eventsPerSecond());
					results.add(workload, 0, contender, "servedPerSecond", servedPerSecond);
					results.add(workload, 0, contender, "completed", window.completed() ? 1 : 0);
					System.out.printf(Locale.ROOT, "replay %s: %.0f events/s%s%n", contender, window.eventsPerSecond(),
							window.completed() ? "" : " (failed after " + window.elapsedMicros() / 1_000_000 + " s)");
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	/**
	 * Runs one Java contender against the replay server in a JVM of its own, with this
	 * JVM's flags, so that one that runs out of heap cannot take the others down.
	 */
	private static Window replayInChildJvm(String contender, Path kubeconfig, int seconds) throws Exception {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.add("-XX:+ExitOnOutOfMemoryError");
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), EventDeliveryBenchmark.class.getName(),
				REPLAY_CLIENT, contender, kubeconfig.toString(), Integer.toString(seconds)));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		Window last = new Window(0, 0, 0, 0, false);
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = output.readLine()) != null) {
				if (!line.startsWith("{\"events\"")) {
					System.err.println(contender + ": " + line);
					continue;
				}
				JsonObject window = JsonParser.parseString(line).getAsJsonObject();
				last = new Window(window.get("events").getAsLong(), window.get("elapsedMicros").getAsLong(), 0, 0,
						window.get("completed").getAsBoolean());
			}
		}
		process.waitFor();
		return last;
	}

	/**
	 * The child side of {@link #replayInChildJvm}: reports its progress every second,
	 * then the measured window.
	 */
	private static void replayClient(String contender, Path kubeconfig, int seconds) throws Exception {
		String config = Files.readString(kubeconfig);
		String server = config.lines()
			.filter((line) -> line.trim().startsWith("server:"))
			.findFirst()
			.orElseThrow()
			.trim()
			.substring("server:".length())
			.trim();
		ApiClient client = new ClientBuilder().setBasePath(server).build();
		client.setReadTimeout(0);
		Subject subject = start(contender, client, config, kubeconfig, null);
		Window window = replay(subject, seconds, (progress) -> System.out.println(progress.toJson()));
		System.out.println(window.toJson());
		System.exit(0);
	}

	private static Window replay(Subject subject, int seconds) throws Exception {
		return replay(subject, seconds, (progress) -> {
		});
	}

	private static Window replay(Subject subject, int seconds, Consumer<Window> progress) throws Exception {
		Thread.sleep(2000);
		subject.startWindow();
		for (int second = 0; second < seconds; second++) {
			Thread.sleep(1000);
			progress.accept(subject.progress());
		}
		subject.mark();
		return subject.finish();
	}

	private static void populate(ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		for (int i = 0; i < OBJECTS; i++) {
			api.createNamespacedConfigMap(NAMESPACE, configMap(i)).execute();
		}
	}

	private static V1ConfigMap configMap(int index) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name("settings-" + index)
				.labels(Map.of("app", "benchmark", "tier", "settings"))
				.annotations(Map.of("example.com/owner", "team-a", Payloads.WRITTEN_AT, Long.toString(nowMicros()))))
			.data(Map.of("payload", "x".repeat(1024), "mode", "fast"));
	}

	static long nowMicros() {
		Instant now = Instant.now();
		return TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + now.getNano() / 1000;
	}

	private static Subject start(String contender, ApiClient client, String kubeconfig, Path kubeconfigFile,
			Path clientGo) throws Exception {
		return switch (contender) {
			case Contenders.KUBEOP -> kubeop(client, false);
			case Contenders.KUBEOP_HANDLER -> kubeop(client, true);
			case Contenders.CLIENT_JAVA -> official(client);
			case Contenders.FABRIC8 -> fabric8(kubeconfig);
			default -> goProgram(clientGo, kubeconfigFile);
		};
	}

	private static Subject kubeop(ApiClient client, boolean handlerPath) {
		Recorder recorder = new Recorder();
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(NAMESPACE));
		HandlerRegistrar handlers = null;
		if (handlerPath) {
			handlers = new HandlerRegistrar(registry, List.of("events"), Duration.ZERO,
					(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
					(name) -> 1, HandlerObserver.NONE);
			handlers.register(HandlerEndpoint.builder("events", V1ConfigMap.class)
				.informer("settings")
				.onUpdate((old, configMap) -> recorder.record(configMap.getMetadata().getAnnotations()))
				.build());
			handlers.startWorkers();
		}
		else {
			informer.addEventHandler(recorder.updates());
		}
		registry.start();
		registry.awaitSync(Duration.ofMinutes(1));
		HandlerRegistrar started = handlers;
		return recorder.subject(() -> {
			if (started != null) {
				started.shutdown(Duration.ofSeconds(5));
			}
			registry.stop();
		});
	}

	private static Subject official(ApiClient client) {
		Recorder recorder = new Recorder();
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
				new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
				V1ConfigMap.class, 0, NAMESPACE);
		informer.addEventHandler(recorder.updates());
		factory.startAllRegisteredInformers();
		while (!informer.hasSynced()) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
		return recorder.subject(() -> factory.stopAllRegisteredInformers(true));
	}

	private static Subject fabric8(String kubeconfig) {
		Recorder recorder = new Recorder();
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
					recorder.record(newObj.getMetadata().getAnnotations());
				}

				@Override
				public void onDelete(io.fabric8.kubernetes.api.model.ConfigMap obj, boolean deletedFinalStateUnknown) {
				}

			}, 0);
		while (!informer.hasSynced()) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
		return recorder.subject(() -> {
			informer.stop();
			client.close();
		});
	}

	private static Subject goProgram(Path binary, Path kubeconfig) throws IOException {
		ClientGo.Events events = ClientGo.events(binary, kubeconfig, NAMESPACE);
		return new Subject() {

			@Override
			public void startWindow() throws IOException {
				events.start();
			}

			@Override
			public void mark() throws IOException {
				events.mark();
			}

			@Override
			public Window finish() throws Exception {
				JsonObject result = events.finish();
				JsonObject latency = result.getAsJsonObject("latencyMicros");
				return new Window(result.get("events").getAsLong(), result.get("elapsedMillis").getAsLong() * 1000,
						latency.has("p50") ? latency.get("p50").getAsLong() : 0,
						latency.has("p99") ? latency.get("p99").getAsLong() : 0, true);
			}

			@Override
			public Window progress() {
				return new Window(0, 0, 0, 0, false);
			}

		};
	}

	/**
	 * A running contender.
	 */
	private interface Subject {

		/**
		 * Starts the measured window: counters and latencies reset.
		 */
		void startWindow() throws IOException;

		/**
		 * Ends the counted window; latencies are still taken until {@link #finish()}.
		 */
		void mark() throws IOException;

		/**
		 * Returns what the contender saw so far in the window, as an incomplete window.
		 */
		Window progress();

		/**
		 * Stops the contender and returns what it saw.
		 */
		Window finish() throws Exception;

	}

	/**
	 * What a contender saw in the measured window.
	 *
	 * @param events the handler calls in the window
	 * @param elapsedMicros the window's length
	 * @param p50Micros the median latency from write to handler call
	 * @param p99Micros the 99th percentile of that latency
	 * @param completed whether the contender ran the whole window
	 */
	private record Window(long events, long elapsedMicros, long p50Micros, long p99Micros, boolean completed) {

		double eventsPerSecond() {
			return (this.elapsedMicros > 0) ? this.events * 1e6 / this.elapsedMicros : 0;
		}

		String toJson() {
			return "{\"events\":" + this.events + ",\"elapsedMicros\":" + this.elapsedMicros + ",\"completed\":"
					+ this.completed + "}";
		}

	}

	/**
	 * Counts handler calls and the latency of each from its write, for the Java
	 * contenders.
	 */
	private static final class Recorder {

		private final long[] latencies = new long[1 << 20];

		private final AtomicInteger samples = new AtomicInteger();

		private final AtomicInteger events = new AtomicInteger();

		private volatile long started = System.nanoTime();

		private volatile long markedEvents = -1;

		private volatile long markedNanos;

		void record(Map<String, String> annotations) {
			long now = nowMicros();
			this.events.incrementAndGet();
			String written = (annotations != null) ? annotations.get(Payloads.WRITTEN_AT) : null;
			if (written != null) {
				int index = this.samples.getAndIncrement();
				if (index < this.latencies.length) {
					this.latencies[index] = now - Long.parseLong(written);
				}
			}
		}

		/**
		 * Returns a handler that records every update.
		 */
		ResourceEventHandler<V1ConfigMap> updates() {
			return new ResourceEventHandler<>() {

				@Override
				public void onAdd(V1ConfigMap obj) {
				}

				@Override
				public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
					record(newObj.getMetadata().getAnnotations());
				}

				@Override
				public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				}

			};
		}

		Subject subject(Runnable stop) {
			return new Subject() {

				@Override
				public void startWindow() {
					Recorder.this.events.set(0);
					Recorder.this.samples.set(0);
					Recorder.this.started = System.nanoTime();
				}

				@Override
				public void mark() {
					Recorder.this.markedNanos = System.nanoTime() - Recorder.this.started;
					Recorder.this.markedEvents = Recorder.this.events.get();
				}

				@Override
				public Window progress() {
					return new Window(Recorder.this.events.get(), (System.nanoTime() - Recorder.this.started) / 1000, 0,
							0, false);
				}

				@Override
				public Window finish() {
					stop.run();
					int count = Math.min(Recorder.this.samples.get(), Recorder.this.latencies.length);
					long[] sorted = Arrays.copyOf(Recorder.this.latencies, count);
					Arrays.sort(sorted);
					return new Window(Recorder.this.markedEvents, Recorder.this.markedNanos / 1000,
							(count > 0) ? sorted[(int) (0.50 * (count - 1))] : 0,
							(count > 0) ? sorted[(int) (0.99 * (count - 1))] : 0, true);
				}

			};
		}

	}

	/**
	 * Writers that update the ConfigMaps round robin at a fixed rate, or as fast as they
	 * can when the rate is 0, each write stamped with the time it is sent.
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
			long end = System.nanoTime() + duration.toNanos();
			AtomicInteger completed = new AtomicInteger();
			List<Future<?>> pending = new ArrayList<>();
			if (this.rate == 0) {
				AtomicBoolean stop = new AtomicBoolean();
				for (int i = 0; i < WRITERS; i++) {
					pending.add(this.executor.submit(() -> {
						while (System.nanoTime() < end && !stop.get()) {
							write();
							completed.incrementAndGet();
						}
						return null;
					}));
				}
			}
			else {
				long period = TimeUnit.SECONDS.toNanos(1) / this.rate;
				long next = System.nanoTime();
				while (next < end) {
					LockSupport.parkNanos(next - System.nanoTime());
					pending.add(this.executor.submit(() -> {
						write();
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

		private void write() throws Exception {
			int index = Math.floorMod(this.next.getAndIncrement(), OBJECTS);
			this.api.replaceNamespacedConfigMap("settings-" + index, NAMESPACE, configMap(index)).execute();
		}

		@Override
		public void close() {
			this.executor.shutdownNow();
		}

	}

}
