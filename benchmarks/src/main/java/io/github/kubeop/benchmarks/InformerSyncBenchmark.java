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
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Initial sync of N objects of realistic size (ConfigMaps with about 1 KB of data and
 * Pods as a Deployment creates them and a kubelet reports them, all with managedFields)
 * from a real kube-apiserver: time until synced, heap retained per cached object after
 * full GCs, and the process's resident set. Every sample of every contender runs in a
 * fresh process: the Java contenders in a child JVM with this JVM's flags
 * ({@link SyncProbe}), client-go in its Go program ({@link ClientGo}); each builds its
 * client and informer first and times only from starting the informer until its own
 * {@code hasSynced} is true, polled every millisecond. The order of the contenders is
 * rotated between samples. Before measuring, the harness lists the objects itself and
 * fails unless every one carries managedFields on the wire (for Pods, from both
 * managers), so that the rows with and without stripping compare what they say. Every
 * Kubeop row runs Kubeop's default encoding (protobuf for built-in kinds), as its users
 * run it, except "Kubeop, JSON" ({@code encoding: json}).
 * <p>
 * ConfigMaps are synced at the sizes up to the middle one, Pods at every size; at the
 * largest size only the contenders the targets compare (Kubeop, on its default and on
 * JSON, client-java with its transform, client-go with and without), unless the system
 * property {@code all-contenders-at-largest} is {@code true}; the rows that only compare
 * heap (Kubeop with its lean cache off, metadata-only and dynamic objects) run at the
 * middle size only. At the largest size, Kubeop and client-java also sync once more while
 * the retained heap is sampled (peak during the initial list), then relist after
 * kube-apiserver is restarted (peak during the relist). The samples go to
 * {@code benchmarks/results/sync.json}.
 * <p>
 * Usage: {@code InformerSyncBenchmark [repetitions] [count[:repetitions]...]}, for
 * example {@code 3 1000 20000 150000:2}; the system property {@code workloads}
 * (comma-separated {@code configmaps}, {@code pods}) limits the workloads; with the
 * system property {@code peak-only} it samples only the peak heap at the largest size and
 * adds those rows to the results file already there; the system property
 * {@code contenders} (names separated by semicolons) limits the run to some contenders,
 * the peak heap samples included.
 *
 * @author Kubeop authors
 */
public final class InformerSyncBenchmark {

	private static final List<String> JAVA_CONTENDERS = List.of(Contenders.KUBEOP, Contenders.KUBEOP_JSON,
			Contenders.KUBEOP_KEEP_ALL, Contenders.CLIENT_JAVA, Contenders.CLIENT_JAVA_STRIP, Contenders.FABRIC8);

	/** Rows that compare heap only, run at the middle size. */
	private static final List<String> HEAP_CONTENDERS = List.of(Contenders.KUBEOP_LEAN_OFF, Contenders.KUBEOP_METADATA,
			Contenders.KUBEOP_DYNAMIC);

	/**
	 * The contenders timed at the largest size (unless {@code all-contenders-at-largest}
	 * is set), to keep the scenario within its time: those the targets compare.
	 */
	private static final List<String> LARGEST_CONTENDERS = List.of(Contenders.KUBEOP, Contenders.KUBEOP_JSON,
			Contenders.CLIENT_JAVA_STRIP, Contenders.CLIENT_GO, Contenders.CLIENT_GO_JSON, Contenders.CLIENT_GO_STRIP);

	/** Contenders whose heap is sampled during the initial list and a relist. */
	private static final List<String> PEAK_CONTENDERS = List.of(Contenders.KUBEOP, Contenders.CLIENT_JAVA);

	private static final List<String> METRICS = List.of("syncMillis", "bytesPerObject", "rssMiB",
			"cachedWithManagedFields", "cpuMillis");

	private static final List<String> PEAK_METRICS = List.of("steadyMiB", "initialListPeakMiB", "relistPeakMiB",
			"initialListPeakRatio", "relistPeakRatio", "initialListSamples", "relistSamples", "relistWatchList");

	/**
	 * Room for 150,000 Pods and their history until kube-apiserver compacts it (etcd's
	 * default quota is 2 GiB).
	 */
	private static final List<String> ETCD_ARGUMENTS = List.of("--quota-backend-bytes=" + (16L << 30));

	/**
	 * client-java and fabric8 list without pages: a list of 150,000 Pods outlasts
	 * kube-apiserver's default of one minute for a request on two cores.
	 */
	private static final List<String> API_SERVER_ARGUMENTS = List.of("--request-timeout=10m");

	private InformerSyncBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		Map<Integer, Integer> sizes = new TreeMap<>();
		for (int i = 1; i < args.length; i++) {
			String[] size = args[i].split(":");
			sizes.put(Integer.parseInt(size[0]), (size.length > 1) ? Integer.parseInt(size[1]) : repetitions);
		}
		if (sizes.isEmpty()) {
			List.of(1000, 20000, 150000).forEach((count) -> sizes.put(count, repetitions));
		}
		List<Integer> counts = new ArrayList<>(sizes.keySet());
		int middle = counts.get(counts.size() / 2);
		int largest = counts.get(counts.size() - 1);
		List<String> selected = List.of(System.getProperty("workloads", "configmaps,pods").split(","));
		boolean peakOnly = Boolean.getBoolean("peak-only");
		String only = System.getProperty("contenders", "");
		Predicate<String> chosen = (contender) -> only.isEmpty() || List.of(only.split(";")).contains(contender);
		Results results = peakOnly ? Results.read(Path.of("benchmarks", "results", "sync.json")) : new Results("sync");
		results.environment()
			.put("syncProbe",
					"each sample in a fresh process; clients and informers built before the timed region; "
							+ "timed from starting the informer until its hasSynced is true, polled every 1 ms; "
							+ "contender order rotated between samples");
		results.environment()
			.put("controlPlane", "kube-apiserver " + String.join(" ", API_SERVER_ARGUMENTS) + ", etcd "
					+ String.join(" ", ETCD_ARGUMENTS));
		Path clientGo = ClientGo.build();
		List<String> contenders = new ArrayList<>(JAVA_CONTENDERS);
		if (clientGo != null) {
			contenders.add(Contenders.CLIENT_GO);
			contenders.add(Contenders.CLIENT_GO_JSON);
			contenders.add(Contenders.CLIENT_GO_STRIP);
		}
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve(),
				API_SERVER_ARGUMENTS, ETCD_ARGUMENTS)) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			for (Workload workload : Workload.values()) {
				if (!selected.contains(workload.plural)) {
					continue;
				}
				for (int count : counts) {
					if (workload == Workload.CONFIG_MAPS && count > middle) {
						continue;
					}
					String namespace = workload.plural + "-" + count;
					long started = System.nanoTime();
					workload.populate(controlPlane, namespace, count);
					double perSecond = count / ((System.nanoTime() - started) / 1e9);
					results.environment()
						.put("populate " + workload.title + " " + count + (peakOnly ? ", peak heap run" : ""),
								String.format(Locale.ROOT, "%,.0f objects/s (%s)", perSecond, workload.writes));
					System.out.printf(Locale.ROOT, "Populated %,d %s at %,.0f per second%n", count, workload.plural,
							perSecond);
					requireManagedFieldsOnTheWire(client, namespace, workload, count);
					List<String> here = new ArrayList<>(contenders);
					if (peakOnly) {
						here.clear();
					}
					else if (count == middle) {
						here.addAll(HEAP_CONTENDERS);
					}
					else if (count == largest && !Boolean.getBoolean("all-contenders-at-largest")) {
						// the rows the targets compare; client-java without a transform
						// is
						// in the peak heap rows at this size
						here.retainAll(LARGEST_CONTENDERS);
					}
					here.removeIf(chosen.negate());
					Set<String> failed = new HashSet<>();
					for (int repetition = 0; repetition < sizes.get(count); repetition++) {
						List<String> order = new ArrayList<>(here);
						Collections.rotate(order, -(repetition + counts.indexOf(count)));
						order.removeAll(failed);
						for (String contender : order) {
							JsonObject sample;
							try {
								sample = switch (contender) {
									case Contenders.CLIENT_GO, Contenders.CLIENT_GO_JSON, Contenders.CLIENT_GO_STRIP ->
										ClientGo.sync(clientGo, controlPlane.kubeconfigFile(), namespace,
												workload.plural, contender.equals(Contenders.CLIENT_GO_STRIP),
												contender.equals(Contenders.CLIENT_GO_JSON), results);
									default -> probe(controlPlane, namespace, workload.plural, contender, count, false);
								};
							}
							catch (IllegalStateException ex) {
								notRun(results, workload.title, count, contender, ex);
								failed.add(contender);
								continue;
							}
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
						// written after every sample round, so that a failure later keeps
						// what was measured
						results.write(Path.of("benchmarks", "results"));
					}
					if (workload == Workload.PODS && count == largest) {
						for (String contender : PEAK_CONTENDERS.stream().filter(chosen).toList()) {
							JsonObject sample;
							try {
								sample = probe(controlPlane, namespace, workload.plural, contender, count, true);
							}
							catch (IllegalStateException ex) {
								notRun(results, "Peak heap, " + workload.title, count, contender, ex);
								continue;
							}
							for (String metric : PEAK_METRICS) {
								results.add("Peak heap, " + workload.title, count, contender, metric,
										sample.get(metric).getAsDouble());
							}
							System.out.printf(Locale.ROOT,
									"%s %,d %s: steady %.0f MiB, initial list peak %.0f MiB (%.2fx), "
											+ "relist peak %.0f MiB (%.2fx)%n",
									workload.title, count, contender, sample.get("steadyMiB").getAsDouble(),
									sample.get("initialListPeakMiB").getAsDouble(),
									sample.get("initialListPeakRatio").getAsDouble(),
									sample.get("relistPeakMiB").getAsDouble(),
									sample.get("relistPeakRatio").getAsDouble());
							// after each, so that a run stopped later keeps what it
							// measured
							results.write(Path.of("benchmarks", "results"));
						}
					}
					if (count != largest) {
						// the largest goes with the control plane
						workload.delete(client, namespace);
					}
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	/**
	 * Records that a contender could not run at a size (out of heap, or no sync within
	 * the probe's time limit), so that the others still run and the report says so.
	 */
	private static void notRun(Results results, String workload, int count, String contender, Exception ex) {
		String reason = String.valueOf(ex.getMessage()).lines().findFirst().orElse("");
		reason = reason.substring(0, Math.min(reason.length(), 200));
		results.environment().put("not run " + workload + "|" + count + "|" + contender, reason);
		System.out.printf(Locale.ROOT, "%s %,d %s could not run: %s%n", workload, count, contender, reason);
	}

	/**
	 * Runs one sample of a Java contender in a fresh JVM started with this JVM's flags.
	 * With {@code peak}, the child samples its retained heap while it lists, says when it
	 * has synced, and samples again while kube-apiserver is restarted here after a write
	 * elsewhere: the informer's resourceVersion is then older than anything the new watch
	 * cache can resume from, and the informer relists as it would after any 410.
	 */
	private static JsonObject probe(LocalControlPlane controlPlane, String namespace, String plural, String contender,
			int count, boolean peak) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		// a contender that runs out of heap ends its JVM rather than never syncing
		command.add("-XX:+ExitOnOutOfMemoryError");
		if (contender.equals(Contenders.KUBEOP_KEEP_ALL)) {
			// client-java's Gson drops metadata.managedFields while decoding unless told
			// otherwise (V1MetadataExclusionStrategy): without this, "nothing stripped"
			// would cache no managedFields either
			command.add("-Dkubernetes.client.includeManagedFields=true");
		}
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), SyncProbe.class.getName(),
				controlPlane.kubeconfigFile().toString(), namespace, plural, contender, Integer.toString(count)));
		if (peak) {
			command.add("peak");
		}
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder printed = new StringBuilder();
		String result = null;
		for (String line = output.readLine(); line != null; line = output.readLine()) {
			printed.append(line).append('\n');
			if (line.equals("synced")) {
				Writer input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
				input.write("relist\n");
				input.flush();
			}
			else if (line.equals("sampling")) {
				forceRelist(controlPlane);
			}
			else if (line.startsWith("{")) {
				result = line;
			}
		}
		if (process.waitFor() != 0) {
			throw new IllegalStateException(contender + " failed: " + printed);
		}
		if (result == null) {
			throw new IllegalStateException(contender + " printed no result: " + printed);
		}
		return JsonParser.parseString(result).getAsJsonObject();
	}

	/**
	 * Writes a ConfigMap, which moves etcd's revision past every informer's, then
	 * restarts kube-apiserver: its new watch cache starts at the current revision, so a
	 * watch resumed from an older one is answered {@code 410 Gone}.
	 */
	private static void forceRelist(LocalControlPlane controlPlane) {
		ApiClient client = controlPlane.apiClient();
		try {
			new CoreV1Api(client)
				.createNamespacedConfigMap("default",
						new V1ConfigMap().metadata(new V1ObjectMeta().generateName("relist-")))
				.execute();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("Could not write the ConfigMap that precedes the restart", ex);
		}
		controlPlane.restartApiServer();
	}

	/**
	 * Lists the objects as JSON, as the API server sends them (in pages of 500), and
	 * fails unless every one carries managedFields with their fieldsV1 from each of the
	 * workload's field managers: without them, stripping would save nothing and the rows
	 * with and without it would compare nothing.
	 */
	private static void requireManagedFieldsOnTheWire(ApiClient client, String namespace, Workload workload, int count)
			throws IOException {
		int listed = 0;
		String continueToken = null;
		do {
			HttpUrl.Builder url = HttpUrl.get(client.getBasePath())
				.newBuilder()
				.addPathSegments("api/v1/namespaces/" + namespace + "/" + workload.plural)
				.addQueryParameter("limit", "500");
			if (continueToken != null) {
				url.addQueryParameter("continue", continueToken);
			}
			Request request = new Request.Builder().url(url.build()).header("Accept", "application/json").build();
			try (Response response = client.getHttpClient().newCall(request).execute()) {
				if (!response.isSuccessful()) {
					throw new IllegalStateException("Listing " + workload.plural + " failed: " + response.code());
				}
				JsonObject list = JsonParser.parseString(response.body().string()).getAsJsonObject();
				for (JsonElement item : list.getAsJsonArray("items")) {
					JsonObject metadata = item.getAsJsonObject().getAsJsonObject("metadata");
					JsonArray managedFields = metadata.getAsJsonArray("managedFields");
					Set<String> managers = new HashSet<>();
					if (managedFields != null) {
						for (JsonElement entry : managedFields) {
							if (entry.getAsJsonObject().has("fieldsV1")) {
								managers.add(entry.getAsJsonObject().get("manager").getAsString());
							}
						}
					}
					if (!managers.containsAll(workload.managers)) {
						throw new IllegalStateException("A listed object carries managedFields from " + managers
								+ " on the wire, not from " + workload.managers + ": " + metadata.get("name"));
					}
					listed++;
				}
				JsonElement next = list.getAsJsonObject("metadata").get("continue");
				continueToken = (next != null && !next.getAsString().isEmpty()) ? next.getAsString() : null;
			}
		}
		while (continueToken != null);
		if (listed != count) {
			throw new IllegalStateException("Listed " + listed + " of " + count + " " + workload.plural);
		}
	}

	/**
	 * What is synced.
	 */
	private enum Workload {

		CONFIG_MAPS("ConfigMaps", "configmaps", List.of("kubectl-create"), "one create"),

		PODS("Pods", "pods", List.of("kube-controller-manager", "kubelet"),
				"a create by kube-controller-manager and a status patch by kubelet each");

		/** Concurrent writers, spread over this many connections (clients). */
		private static final int WRITERS = 16;

		private static final int CONNECTIONS = 4;

		private static final MediaType JSON = MediaType.get("application/json");

		private static final MediaType STRATEGIC_MERGE_PATCH = MediaType.get("application/strategic-merge-patch+json");

		private final String title;

		private final String plural;

		private final List<String> managers;

		private final String writes;

		Workload(String title, String plural, List<String> managers, String writes) {
			this.title = title;
			this.plural = plural;
			this.managers = managers;
			this.writes = writes + ", " + WRITERS + " writers on " + CONNECTIONS + " connections";
		}

		/**
		 * Creates the objects as their owners would: Pods by kube-controller-manager's
		 * ReplicaSet controller, then their status by the kubelet (the status
		 * subresource, a second field manager), ConfigMaps by {@code kubectl create};
		 * many writers at a time over several HTTP/2 connections.
		 */
		void populate(LocalControlPlane controlPlane, String namespace, int count) throws Exception {
			ApiClient admin = controlPlane.apiClient();
			CoreV1Api core = new CoreV1Api(admin);
			core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			// no controller-manager here: the service account admission needs it created
			core.createNamespacedServiceAccount(namespace,
					new V1ServiceAccount().metadata(new V1ObjectMeta().name("default")))
				.execute();
			List<ApiClient> connections = new ArrayList<>();
			for (int i = 0; i < CONNECTIONS; i++) {
				ApiClient client = controlPlane.apiClient();
				client.setReadTimeout(0);
				connections.add(client);
			}
			String collection = connections.get(0).getBasePath() + "/api/v1/namespaces/" + namespace + "/"
					+ this.plural;
			AtomicInteger next = new AtomicInteger();
			ExecutorService executor = Executors.newFixedThreadPool(WRITERS);
			try {
				List<Future<?>> writers = new ArrayList<>();
				for (int writer = 0; writer < WRITERS; writer++) {
					OkHttpClient http = connections.get(writer % CONNECTIONS).getHttpClient();
					writers.add(executor.submit(() -> {
						for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
							if (this == PODS) {
								send(http,
										new Request.Builder().url(collection + "?fieldManager=" + this.managers.get(0))
											.post(RequestBody.create(Payloads.pod(namespace, i), JSON)));
								String name = "web-5d7f9c8b6d-%05d".formatted(i);
								send(http, new Request.Builder()
									.url(collection + "/" + name + "/status?fieldManager=" + this.managers.get(1))
									.patch(RequestBody.create("{\"status\":" + Payloads.podStatus(i) + "}",
											STRATEGIC_MERGE_PATCH)));
							}
							else {
								send(http,
										new Request.Builder().url(collection + "?fieldManager=" + this.managers.get(0))
											.post(RequestBody.create(Payloads.configMap(namespace, i), JSON)));
							}
						}
						return null;
					}));
				}
				for (Future<?> writer : writers) {
					writer.get();
				}
			}
			finally {
				executor.shutdown();
			}
		}

		/**
		 * Sends a write, again after a moment when the API server is too busy for it.
		 */
		private static void send(OkHttpClient http, Request.Builder request) throws IOException, InterruptedException {
			for (int attempt = 1;; attempt++) {
				try (Response response = http.newCall(request.build()).execute()) {
					if (response.isSuccessful()) {
						return;
					}
					boolean busy = response.code() == 429 || response.code() >= 500;
					if (!busy || attempt == 10) {
						throw new IOException(
								request.build().method() + " " + response.code() + ": " + response.body().string());
					}
				}
				Thread.sleep(100L * attempt);
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
