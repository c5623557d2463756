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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Initial sync of N objects of realistic size (ConfigMaps with about 1 KB of data and
 * Pods as a Deployment would create them, all with managedFields) from a real
 * kube-apiserver: time until synced, heap retained per cached object after full GCs, and
 * the process's resident set. Every sample of every contender runs in a fresh process:
 * the Java contenders in a child JVM with this JVM's flags ({@link SyncProbe}), client-go
 * in its Go program ({@link ClientGo}); each builds its client and informer first and
 * times only from starting the informer until its own {@code hasSynced} is true, polled
 * every millisecond. The order of the contenders is rotated between samples. Before
 * measuring, the harness lists the objects itself and fails unless every one carries
 * managedFields on the wire, so that the rows with and without stripping compare what
 * they say. The samples go to {@code benchmarks/results/sync.json}.
 * <p>
 * Usage: {@code InformerSyncBenchmark [repetitions] [count...]}, for example
 * {@code 3 1000 5000 20000}; the system property {@code workloads} (comma-separated
 * {@code configmaps}, {@code pods}) limits the workloads.
 *
 * @author Kubeop authors
 */
public final class InformerSyncBenchmark {

	private static final List<String> JAVA_CONTENDERS = List.of(Contenders.KUBEOP, Contenders.KUBEOP_KEEP_ALL,
			Contenders.CLIENT_JAVA, Contenders.CLIENT_JAVA_STRIP, Contenders.FABRIC8);

	private static final List<String> METRICS = List.of("syncMillis", "bytesPerObject", "rssMiB",
			"cachedWithManagedFields", "cpuMillis");

	private InformerSyncBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		List<Integer> counts = new ArrayList<>();
		for (int i = 1; i < args.length; i++) {
			counts.add(Integer.parseInt(args[i]));
		}
		if (counts.isEmpty()) {
			counts = List.of(1000, 5000, 20000);
		}
		List<String> selected = List.of(System.getProperty("workloads", "configmaps,pods").split(","));
		Results results = new Results("sync");
		results.environment()
			.put("syncProbe",
					"each sample in a fresh process; clients and informers built before the timed region; "
							+ "timed from starting the informer until its hasSynced is true, polled every 1 ms; "
							+ "contender order rotated between samples");
		Path clientGo = ClientGo.build();
		List<String> contenders = new ArrayList<>(JAVA_CONTENDERS);
		if (clientGo != null) {
			contenders.add(Contenders.CLIENT_GO);
			contenders.add(Contenders.CLIENT_GO_STRIP);
		}
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			for (Workload workload : Workload.values()) {
				if (!selected.contains(workload.plural)) {
					continue;
				}
				for (int count : counts) {
					String namespace = workload.plural + "-" + count;
					workload.populate(client, namespace, count);
					requireManagedFieldsOnTheWire(client, namespace, workload.plural, count);
					for (int repetition = 0; repetition < repetitions; repetition++) {
						List<String> order = new ArrayList<>(contenders);
						Collections.rotate(order, -(repetition + counts.indexOf(count)));
						for (String contender : order) {
							JsonObject sample = switch (contender) {
								case Contenders.CLIENT_GO, Contenders.CLIENT_GO_STRIP ->
									ClientGo.sync(clientGo, controlPlane.kubeconfigFile(), namespace, workload.plural,
											contender.equals(Contenders.CLIENT_GO_STRIP), results);
								default ->
									probe(controlPlane.kubeconfigFile(), namespace, workload.plural, contender, count);
							};
							for (String metric : METRICS) {
								if (!sample.has(metric)) {
									// the process CPU time is measured for the Java
									// contenders only
									continue;
								}
								results.add(workload.title, count, contender, metric, sample.get(metric).getAsDouble());
							}
							System.out.printf(Locale.ROOT, "%s %,d %s: %.1f ms, %,d B per object, RSS %.0f MiB%s%n",
									workload.title, count, contender, sample.get("syncMillis").getAsDouble(),
									sample.get("bytesPerObject").getAsLong(), sample.get("rssMiB").getAsDouble(),
									sample.has("cpuMillis") ? String.format(Locale.ROOT, ", CPU %.0f ms",
											sample.get("cpuMillis").getAsDouble()) : "");
						}
					}
					// written after every size, so that a failure later keeps what was
					// measured
					results.write(Path.of("benchmarks", "results"));
					workload.delete(client, namespace);
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	/**
	 * Runs one sample of a Java contender in a fresh JVM started with this JVM's flags.
	 */
	private static JsonObject probe(Path kubeconfig, String namespace, String plural, String contender, int count)
			throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), SyncProbe.class.getName(),
				kubeconfig.toString(), namespace, plural, contender, Integer.toString(count)));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IllegalStateException(contender + " failed: " + output);
		}
		String result = output.lines()
			.filter((line) -> line.startsWith("{"))
			.reduce((first, second) -> second)
			.orElseThrow(() -> new IllegalStateException(contender + " printed no result: " + output));
		return JsonParser.parseString(result).getAsJsonObject();
	}

	/**
	 * Lists the objects as JSON, as the API server sends them, and fails unless every one
	 * carries managedFields with their fieldsV1: without them, stripping would save
	 * nothing and the rows with and without it would compare nothing.
	 */
	private static void requireManagedFieldsOnTheWire(ApiClient client, String namespace, String plural, int count)
			throws IOException {
		Request request = new Request.Builder()
			.url(client.getBasePath() + "/api/v1/namespaces/" + namespace + "/" + plural)
			.header("Accept", "application/json")
			.build();
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			if (!response.isSuccessful()) {
				throw new IllegalStateException("Listing " + plural + " failed: " + response.code());
			}
			JsonArray items = JsonParser.parseString(response.body().string())
				.getAsJsonObject()
				.getAsJsonArray("items");
			if (items.size() != count) {
				throw new IllegalStateException("Listed " + items.size() + " of " + count + " " + plural);
			}
			for (JsonElement item : items) {
				JsonArray managedFields = item.getAsJsonObject()
					.getAsJsonObject("metadata")
					.getAsJsonArray("managedFields");
				if (managedFields == null || managedFields.isEmpty()
						|| !managedFields.get(0).getAsJsonObject().has("fieldsV1")) {
					throw new IllegalStateException("A listed object carries no managedFields on the wire: "
							+ item.getAsJsonObject().getAsJsonObject("metadata").get("name"));
				}
			}
		}
	}

	/**
	 * What is synced.
	 */
	private enum Workload {

		CONFIG_MAPS("ConfigMaps", "configmaps"),

		PODS("Pods", "pods");

		private final String title;

		private final String plural;

		Workload(String title, String plural) {
			this.title = title;
			this.plural = plural;
		}

		void populate(ApiClient client, String namespace, int count) throws Exception {
			CoreV1Api core = new CoreV1Api(client);
			core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			// no controller-manager here: the service account admission needs it created
			core.createNamespacedServiceAccount(namespace,
					new V1ServiceAccount().metadata(new V1ObjectMeta().name("default")))
				.execute();
			DynamicKubernetesApi api = new DynamicKubernetesApi("", "v1", this.plural, client);
			ExecutorService executor = Executors.newFixedThreadPool(8);
			try {
				List<Future<?>> futures = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					String json = (this == PODS) ? Payloads.pod(namespace, i) : Payloads.configMap(namespace, i);
					futures.add(executor.submit(() -> api
						.create(new DynamicKubernetesObject(JsonParser.parseString(json).getAsJsonObject()))
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

		/**
		 * Deletes the objects, then the namespace (without a controller-manager the
		 * namespace alone would keep them in the API server's cache).
		 */
		void delete(ApiClient client, String namespace) {
			CoreV1Api core = new CoreV1Api(client);
			try {
				if (this == PODS) {
					core.deleteCollectionNamespacedPod(namespace).execute();
				}
				else {
					core.deleteCollectionNamespacedConfigMap(namespace).execute();
				}
				core.deleteNamespace(namespace).execute();
			}
			catch (ApiException ex) {
				// a large collection can outlast the API server's request timeout: the
				// objects are only in the way of the API server's memory, not of a result
				System.out.println("Could not delete the " + this.plural + " of " + namespace + ": " + ex.getMessage());
			}
		}

	}

}
