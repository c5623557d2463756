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
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Start-up of a Spring Boot operator on the starter ({@link StartupApplication}) with
 * four informers (Deployments, Pods, Services and ConfigMaps, cluster-wide), each sample
 * a fresh JVM with this JVM's flags: from the JVM's start to {@code main}, to the context
 * refreshed (which includes the informers' initial sync), to the application ready, and
 * to {@code /actuator/health} answering UP with its {@code informers} component UP, as
 * the harness sees it probing from outside every millisecond, as a kubelet would (but
 * more often). Samples in {@code benchmarks/results/startup.json}.
 * <p>
 * Usage: {@code StartupBenchmark [repetitions] [objects]}: the cluster holds
 * {@code objects} Pods and as many ConfigMaps.
 *
 * @author Kubeop authors
 */
public final class StartupBenchmark {

	private static final String NAMESPACE = "startup";

	private static final Duration TIMEOUT = Duration.ofMinutes(2);

	private StartupBenchmark() {
	}

	/** The JDK whose AOT cache is measured (JEP 483, 514, 515). */
	private static final Path JAVA_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		int objects = (args.length > 1) ? Integer.parseInt(args[1]) : 500;
		Results results = new Results("startup");
		results.environment()
			.put("startup",
					"Spring Boot " + org.springframework.boot.SpringBootVersion.getVersion()
							+ ", spring-boot-starter-webmvc (Tomcat) and spring-boot-starter-actuator, "
							+ "4 informers from properties, health probed from outside every 1 ms; the variants "
							+ "alternate within each repetition, in an order rotated by one each repetition; load "
							+ "average before the run: " + loadAverage());
		String workload = String.format(Locale.ROOT, "4 informers, %,d Pods and %,d ConfigMaps", objects, objects);
		// the older build's path is the machine's, not a setting of the JVMs measured
		results.environment()
			.put("jvmFlags",
					String.join(" ",
							ManagementFactory.getRuntimeMXBean()
								.getInputArguments()
								.stream()
								.filter((argument) -> !argument.startsWith("-Dstartup.before."))
								.toList()));
		String before = System.getProperty("startup.before.jar");
		List<Variant> variants = variants((before != null) ? Path.of(before) : null);
		if (before != null) {
			results.environment()
				.put("startupBefore", "before: Kubeop at " + System.getProperty("startup.before.ref", "an older commit")
						+ " with this benchmark's application, built by benchmarks/run");
		}
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			populate(controlPlane.apiClient(), objects);
			Path cache = trainAotCache(controlPlane.kubeconfigFile());
			for (int repetition = 0; repetition < repetitions; repetition++) {
				// rotated, so that no variant always follows the same one (a JVM that
				// just exited,
				// the API server's answers to the lists just made)
				List<Variant> order = new ArrayList<>(variants);
				java.util.Collections.rotate(order, -repetition);
				for (Variant variant : order) {
					if (variant.java25() && (cache == null)) {
						continue;
					}
					JsonObject sample = sample(controlPlane.kubeconfigFile(), variant, cache);
					record(results, workload, variant.name(), sample);
					System.out.printf(Locale.ROOT, "startup: %s: health UP %.0f ms after the JVM started (load %s)%n",
							variant.name(), sample.get("healthUp").getAsDouble() - sample.get("jvmStart").getAsDouble(),
							loadAverage());
				}
			}
		}
		results.environment().put("loadAverageAfter", loadAverage());
		results.write(Path.of("benchmarks", "results"));
	}

	/**
	 * The applications measured, alternately: Kubeop's on Java 17, the same application
	 * without Kubeop, Kubeop's processed ahead of time by Spring, and that on Java 25
	 * without and with the JDK's AOT cache; and, given a jar of the same application
	 * built on an older Kubeop, that on Java 17 (the "before" column).
	 * @param before the older build's jar, or {@code null}
	 */
	static List<Variant> variants(Path before) {
		List<Variant> variants = new ArrayList<>();
		if (before != null) {
			variants.add(new Variant(KUBEOP_BEFORE, false, false, false, false, before));
		}
		variants.add(new Variant(Contenders.KUBEOP, false, false, false, false, null));
		variants.add(new Variant(WITHOUT_KUBEOP, true, false, false, false, null));
		variants.add(new Variant(KUBEOP_SPRING_AOT, false, true, false, false, null));
		variants.add(new Variant(KUBEOP_JAVA_25_SPRING_AOT, false, true, true, false, null));
		variants.add(new Variant(KUBEOP_JAVA_25_AOT_CACHE, false, true, true, true, null));
		return variants;
	}

	static final String KUBEOP_BEFORE = "Kubeop before (older build)";

	static final String WITHOUT_KUBEOP = "without Kubeop (MVC, actuator)";

	static final String KUBEOP_SPRING_AOT = "Kubeop, Spring AOT";

	static final String KUBEOP_JAVA_25_SPRING_AOT = "Kubeop, Java 25, Spring AOT";

	static final String KUBEOP_JAVA_25_AOT_CACHE = "Kubeop, Java 25, Spring AOT and JDK AOT cache";

	private static void record(Results results, String workload, String contender, JsonObject sample) {
		double jvmStart = sample.get("jvmStart").getAsDouble();
		double main = sample.get("main").getAsDouble();
		double refreshed = sample.get("refreshed").getAsDouble();
		add(results, workload, contender, "JVM start to main", main - jvmStart);
		if (sample.has("informersStarting")) {
			double starting = sample.get("informersStarting").getAsDouble();
			double synced = sample.get("informersSynced").getAsDouble();
			add(results, workload, contender, "main to informers starting (beans created, Tomcat initialized)",
					starting - main);
			add(results, workload, contender,
					"of which Kubeop's steps on the main thread (registrar, client, "
							+ "informer beans with discovery, other Kubeop beans)",
					sample.get("kubeopBeans").getAsDouble());
			add(results, workload, contender, "of which the client's creation",
					sample.get("kubeopClient").getAsDouble());
			add(results, workload, contender, "of which the informer beans (discovery, decoders)",
					sample.get("kubeopInformers").getAsDouble());
			add(results, workload, contender, "of which the informer bean registrar",
					sample.get("kubeopRegistrar").getAsDouble());
			add(results, workload, contender, "informers starting to synced", synced - starting);
			add(results, workload, contender, "informers synced to context refreshed", refreshed - synced);
		}
		else {
			add(results, workload, contender, "main to context refreshed", refreshed - main);
		}
		add(results, workload, contender, "context refreshed to application ready",
				sample.get("ready").getAsDouble() - refreshed);
		add(results, workload, contender, "application ready to health UP",
				Math.max(0, sample.get("healthUp").getAsDouble() - sample.get("ready").getAsDouble()));
		add(results, workload, contender, "JVM start to health UP (total)",
				sample.get("healthUp").getAsDouble() - jvmStart);
		recordCpu(results, workload, contender, sample);
		results.add(workload, 4, contender, "threads", sample.get("threads").getAsDouble());
		results.add(workload, 4, contender, "rssMiB", sample.get("rssMiB").getAsDouble());
	}

	static final String CPU_PROCESS_TOTAL = "CPU, process: JVM start to application ready";

	static final String CPU_MAIN_TOTAL = "CPU, main thread: main to application ready";

	static final String CPU_KUBEOP_STEPS = "CPU, main thread: of which Kubeop's steps";

	/**
	 * Records what the phases cost in CPU time (the process's, every thread's, and the
	 * main thread's), which a loaded machine distorts far less than wall-clock time.
	 */
	private static void recordCpu(Results results, String workload, String contender, JsonObject sample) {
		double processAtMain = sample.get("mainCpuProcess").getAsDouble();
		double mainAtMain = sample.get("mainCpuMain").getAsDouble();
		add(results, workload, contender, "CPU, process: JVM start to main", processAtMain);
		if (sample.has("informersStartingCpuProcess")) {
			add(results, workload, contender, "CPU, process: main to informers starting",
					sample.get("informersStartingCpuProcess").getAsDouble() - processAtMain);
			add(results, workload, contender, "CPU, process: informers starting to synced",
					sample.get("informersSyncedCpuProcess").getAsDouble()
							- sample.get("informersStartingCpuProcess").getAsDouble());
			add(results, workload, contender, "CPU, main thread: main to informers starting",
					sample.get("informersStartingCpuMain").getAsDouble() - mainAtMain);
			add(results, workload, contender, CPU_KUBEOP_STEPS, sample.get("kubeopBeansCpu").getAsDouble());
			add(results, workload, contender, "CPU, main thread: of which the client's creation",
					sample.get("kubeopClientCpu").getAsDouble());
			add(results, workload, contender, "CPU, main thread: of which the informer beans",
					sample.get("kubeopInformersCpu").getAsDouble());
			add(results, workload, contender, "CPU, main thread: of which the informer bean registrar",
					sample.get("kubeopRegistrarCpu").getAsDouble());
		}
		add(results, workload, contender, CPU_MAIN_TOTAL, sample.get("readyCpuMain").getAsDouble() - mainAtMain);
		add(results, workload, contender, CPU_PROCESS_TOTAL, sample.get("readyCpuProcess").getAsDouble());
		results.add(workload, 4, contender, "classesLoaded", sample.get("classesLoaded").getAsDouble());
	}

	private static void add(Results results, String workload, String contender, String phase, double millis) {
		results.add(workload, 4, contender, phase, millis);
	}

	/**
	 * Records the JDK's AOT cache of the application processed by Spring, in one training
	 * run that exits once the application is ready ({@code -XX:AOTCacheOutput}, JEP 514).
	 * @return the cache, or {@code null} where Java 25 is not installed
	 */
	private static Path trainAotCache(Path kubeconfig) throws Exception {
		if (!Files.isExecutable(JAVA_25)) {
			System.out.println("startup: no Java 25 at " + JAVA_25 + ", its AOT cache is not measured");
			return null;
		}
		Path cache = Files.createTempDirectory("kubeop-startup").resolve("startup.aot");
		List<String> command = command(kubeconfig, new Variant("training", false, true, true, false, null), null,
				ServerSocketPort.free());
		command.add(1, "-XX:AOTCacheOutput=" + cache);
		command.add(1, "-Dstartup.exit=true");
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		if (!process.waitFor(TIMEOUT.toSeconds() * 2, java.util.concurrent.TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("The AOT cache's training run did not end");
		}
		if (!Files.exists(cache)) {
			throw new IllegalStateException("The AOT cache's training run wrote no cache (exit " + process.exitValue()
					+ "): " + String.join(" ", command));
		}
		System.out.printf(Locale.ROOT, "startup: AOT cache of %.0f MiB written to %s%n", Files.size(cache) / 1048576.0,
				cache);
		return cache;
	}

	/**
	 * Starts the application in a child JVM, probes its health until UP, and returns its
	 * phases with the instant health was first UP.
	 */
	private static JsonObject sample(Path kubeconfig, Variant variant, Path cache) throws Exception {
		int port = ServerSocketPort.free();
		List<String> command = command(kubeconfig, variant, cache, port);
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		try {
			CompletableFuture<JsonObject> phases = CompletableFuture.supplyAsync(() -> readPhases(process));
			double healthUp = probeUntilUp(port, !variant.plain());
			JsonObject sample = phases.get(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
			sample.addProperty("healthUp", healthUp);
			return sample;
		}
		finally {
			process.destroy();
			process.waitFor();
		}
	}

	private static List<String> command(Path kubeconfig, Variant variant, Path cache, int port) {
		List<String> command = new ArrayList<>();
		command.add(variant.java25() ? JAVA_25.toString() : ProcessHandle.current().info().command().orElse("java"));
		ManagementFactory.getRuntimeMXBean()
			.getInputArguments()
			.stream()
			.filter((argument) -> !argument.startsWith("-Dstartup.before."))
			.forEach(command::add);
		if (variant.springAot()) {
			command.add("-Dspring.aot.enabled=true");
		}
		if (variant.aotCache()) {
			command.add("-XX:AOTCache=" + cache);
		}
		command.addAll(List.of("-cp",
				(variant.classPath() != null) ? variant.classPath().toString() : System.getProperty("java.class.path"),
				variant.plain() ? "io.github.kubeop.benchmarks.plain.PlainStartupApplication"
						: StartupApplication.class.getName(),
				"--spring.main.banner-mode=off", "--logging.level.root=WARN", "--server.port=" + port,
				"--server.address=127.0.0.1", "--management.endpoint.health.show-components=always"));
		if (!variant.plain()) {
			command.add("--kubeop.client.kubeconfig=" + kubeconfig);
			command.addAll(informer("deployments", "apps/v1", "Deployment"));
			command.addAll(informer("pods", "v1", "Pod"));
			command.addAll(informer("services", "v1", "Service"));
			command.addAll(informer("configMaps", "v1", "ConfigMap"));
		}
		return command;
	}

	private static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * One application measured.
	 *
	 * @param name the contender's name in the results
	 * @param plain whether it is the application without Kubeop
	 * @param springAot whether it runs Spring's ahead-of-time processed context
	 * @param java25 whether it runs on Java 25
	 * @param aotCache whether it runs with the JDK's AOT cache
	 * @param classPath the jar it runs from, or {@code null} for this JVM's class path
	 */
	record Variant(String name, boolean plain, boolean springAot, boolean java25, boolean aotCache, Path classPath) {
	}

	/**
	 * Finds free ports.
	 */
	private static final class ServerSocketPort {

		static int free() throws IOException {
			try (ServerSocket socket = new ServerSocket(0)) {
				return socket.getLocalPort();
			}
		}

	}

	private static List<String> informer(String name, String apiVersion, String kind) {
		return List.of("--kubeop.informers.resources." + name + ".api-version=" + apiVersion,
				"--kubeop.informers.resources." + name + ".kind=" + kind);
	}

	private static JsonObject readPhases(Process process) {
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = output.readLine()) != null) {
				if (line.startsWith("{")) {
					return JsonParser.parseString(line).getAsJsonObject();
				}
				System.out.println("startup application: " + line);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		throw new IllegalStateException("The application printed no phases");
	}

	/**
	 * Probes {@code /actuator/health} every millisecond until it answers UP with an
	 * {@code informers} component that is UP.
	 * @return the instant, in milliseconds since the epoch
	 */
	private static double probeUntilUp(int port, boolean informers) throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
			.timeout(Duration.ofSeconds(5))
			.build();
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
				Instant now = Instant.now();
				if (response.statusCode() == 200 && (informers ? informersUp(response.body()) : up(response.body()))) {
					return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
				}
			}
			catch (ConnectException ex) {
				// not listening yet
			}
			Thread.sleep(1);
		}
		throw new IllegalStateException("Health was not UP within " + TIMEOUT);
	}

	private static boolean up(String body) {
		return "UP".equals(JsonParser.parseString(body).getAsJsonObject().get("status").getAsString());
	}

	private static boolean informersUp(String body) {
		JsonObject health = JsonParser.parseString(body).getAsJsonObject();
		JsonObject components = health.getAsJsonObject("components");
		return "UP".equals(health.get("status").getAsString()) && components != null && components.has("informers")
				&& "UP".equals(components.getAsJsonObject("informers").get("status").getAsString());
	}

	private static void populate(ApiClient client, int objects) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		// no controller-manager here: the service account admission needs it created
		core.createNamespacedServiceAccount(NAMESPACE,
				new V1ServiceAccount().metadata(new V1ObjectMeta().name("default")))
			.execute();
		DynamicKubernetesApi pods = new DynamicKubernetesApi("", "v1", "pods", client);
		DynamicKubernetesApi configMaps = new DynamicKubernetesApi("", "v1", "configmaps", client);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < objects; i++) {
				int index = i;
				futures.add(executor.submit(() -> pods
					.create(new DynamicKubernetesObject(
							JsonParser.parseString(Payloads.pod(NAMESPACE, index)).getAsJsonObject()))
					.throwsApiException()));
				futures.add(executor.submit(() -> configMaps
					.create(new DynamicKubernetesObject(
							JsonParser.parseString(Payloads.configMap(NAMESPACE, index)).getAsJsonObject()))
					.throwsApiException()));
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
