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

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		int objects = (args.length > 1) ? Integer.parseInt(args[1]) : 500;
		Results results = new Results("startup");
		results.environment()
			.put("startup",
					"Spring Boot " + org.springframework.boot.SpringBootVersion.getVersion()
							+ ", spring-boot-starter-webmvc (Tomcat) and spring-boot-starter-actuator, "
							+ "4 informers from properties, health probed from outside every 1 ms");
		String workload = String.format(Locale.ROOT, "4 informers, %,d Pods and %,d ConfigMaps", objects, objects);
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			populate(controlPlane.apiClient(), objects);
			for (int repetition = 0; repetition < repetitions; repetition++) {
				JsonObject sample = sample(controlPlane.kubeconfigFile());
				double jvmStart = sample.get("jvmStart").getAsDouble();
				add(results, workload, "JVM start to main", sample.get("main").getAsDouble() - jvmStart);
				add(results, workload, "main to informers starting (beans created, Tomcat initialized)",
						sample.get("informersStarting").getAsDouble() - sample.get("main").getAsDouble());
				add(results, workload, "informers starting to synced",
						sample.get("informersSynced").getAsDouble() - sample.get("informersStarting").getAsDouble());
				add(results, workload, "informers synced to context refreshed",
						sample.get("refreshed").getAsDouble() - sample.get("informersSynced").getAsDouble());
				add(results, workload, "context refreshed to application ready",
						sample.get("ready").getAsDouble() - sample.get("refreshed").getAsDouble());
				add(results, workload, "application ready to health UP",
						Math.max(0, sample.get("healthUp").getAsDouble() - sample.get("ready").getAsDouble()));
				add(results, workload, "JVM start to health UP (total)",
						sample.get("healthUp").getAsDouble() - jvmStart);
				results.add(workload, 4, Contenders.KUBEOP, "threads", sample.get("threads").getAsDouble());
				results.add(workload, 4, Contenders.KUBEOP, "rssMiB", sample.get("rssMiB").getAsDouble());
				System.out.printf(Locale.ROOT, "startup: health UP %.0f ms after the JVM started (%s)%n",
						sample.get("healthUp").getAsDouble() - jvmStart, sample);
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	private static void add(Results results, String workload, String phase, double millis) {
		results.add(workload, 4, Contenders.KUBEOP, phase, millis);
	}

	/**
	 * Starts the application in a child JVM, probes its health until UP, and returns its
	 * phases with the instant health was first UP.
	 */
	private static JsonObject sample(Path kubeconfig) throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), StartupApplication.class.getName(),
				"--spring.main.banner-mode=off", "--logging.level.root=WARN", "--server.port=" + port,
				"--server.address=127.0.0.1", "--kubeop.client.kubeconfig=" + kubeconfig,
				"--management.endpoint.health.show-components=always"));
		command.addAll(informer("deployments", "apps/v1", "Deployment"));
		command.addAll(informer("pods", "v1", "Pod"));
		command.addAll(informer("services", "v1", "Service"));
		command.addAll(informer("configMaps", "v1", "ConfigMap"));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		try {
			CompletableFuture<JsonObject> phases = CompletableFuture.supplyAsync(() -> readPhases(process));
			double healthUp = probeUntilUp(port);
			JsonObject sample = phases.get(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
			sample.addProperty("healthUp", healthUp);
			return sample;
		}
		finally {
			process.destroy();
			process.waitFor();
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
	private static double probeUntilUp(int port) throws Exception {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
			.timeout(Duration.ofSeconds(5))
			.build();
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
				Instant now = Instant.now();
				if (response.statusCode() == 200 && informersUp(response.body())) {
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
