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
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.References;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.StandardTransform;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.openjdk.jol.info.GraphLayout;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Heap retained per cached object by Kubeop's informer with each memory feature: full
 * typed objects with and without each ready-made transform, and metadata-only. Every
 * variant syncs the same N objects from one real kube-apiserver in this one JVM, one
 * after the other, measured as {@link InformerSyncBenchmark} measures heap: used heap
 * after three full GCs with the informer synced, minus the same before it started,
 * divided by N. The objects carry managedFields (from their create) and a
 * {@code kubectl.kubernetes.io/last-applied-configuration} annotation (the object's own
 * JSON, as {@code kubectl apply} leaves it); the first round warms the JIT up and is
 * dropped.
 * <p>
 * A second part measures the referenced-only cache ({@code @References(referencedOnly =
 * true)}): 5,000 Secrets ({@code -Dmemory.referenced-secrets}) of 1 KB of data each, 10
 * of them referenced by a Deployment, and the heap the whole application context (the
 * Deployment informer, the Secret informer, the handler) retains with the Secret informer
 * synced, keeping referenced objects only against caching every Secret, the two
 * alternating in the same JVM; measured as above, the first round dropped.
 * <p>
 * Samples go to {@code benchmarks/results/memory.json}, the tables to
 * {@code _memory-figures.adoc} in the docs directory given. {@code -Dmemory.parts}
 * ({@code features,referenced} by default) runs only the parts named; the rows of the
 * parts not run are kept from the results file as they are.
 * <p>
 * Usage: {@code MemoryFeaturesBenchmark [repetitions] [count] [docs directory]}.
 *
 * @author Kubeop authors
 */
public final class MemoryFeaturesBenchmark {

	private static final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private static final String BYTES = "bytesPerObject";

	/** The variants whose cached Pods are broken down by class. */
	private static final Set<Variant> BREAKDOWN = EnumSet.of(Variant.TYPED_NOT_LEAN, Variant.TYPED);

	private static final int BREAKDOWN_ROWS = 14;

	private static final String REFERENCED_WORKLOAD = "Secrets, 10 referenced";

	private static final int SECRETS = Integer.getInteger("memory.referenced-secrets", 5_000);

	private static final int REFERENCED = 10;

	private static final String REFERENCES_PATH = "spec.template.spec.volumes[].secret.secretName";

	private static final String CACHED = "objectsCached";

	private static final String RETAINED = "retainedKiB";

	/** The client the application contexts of the referenced-only part use. */
	private static volatile ApiClient referencedClient;

	private MemoryFeaturesBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int count = (args.length > 1) ? Integer.parseInt(args[1]) : 2000;
		Path docs = Path.of((args.length > 2) ? args[2] : "docs/src/docs/asciidoc");
		Set<String> parts = Set.of(System.getProperty("memory.parts", "features,referenced").split(","));
		Results results = new Results("memory");
		// which parts ran is not a JVM flag the figures depend on
		results.environment()
			.put("jvmFlags",
					String.join(" ",
							ManagementFactory.getRuntimeMXBean()
								.getInputArguments()
								.stream()
								.filter((flag) -> !flag.startsWith("-Dmemory."))
								.toList()));
		Path resultsDirectory = Path.of("benchmarks", "results");
		Path previous = resultsDirectory.resolve("memory.json");
		if (!parts.contains("features") && Files.exists(previous)) {
			// a partial run keeps the other rows as the last full run measured them
			keep(Results.read(previous), results, (row) -> !row.workload().equals(REFERENCED_WORKLOAD));
		}
		Map<Variant, Footprint> breakdown = new EnumMap<>(Variant.class);
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			for (Workload workload : Workload.values()) {
				if (!parts.contains("features")) {
					break;
				}
				String namespace = "memory-" + workload.plural;
				populate(client, workload, namespace, count);
				for (int repetition = -1; repetition < repetitions; repetition++) {
					for (Variant variant : Variant.values()) {
						if (variant.skip(workload)) {
							continue;
						}
						Map<Variant, Footprint> layouts = (workload == Workload.PODS && repetition == repetitions - 1)
								? breakdown : null;
						long bytes = measure(count, controlPlane, workload, variant, namespace, layouts);
						if (repetition >= 0) {
							results.add(workload.title, count, variant.title, BYTES, bytes);
							System.out.printf(Locale.ROOT, "%s %,d %s: %,d B per object%n", workload.title, count,
									variant.title, bytes);
						}
					}
				}
				new CoreV1Api(client).deleteNamespace(namespace).execute();
			}
			if (parts.contains("referenced")) {
				measureReferencedOnly(repetitions, controlPlane, results);
			}
		}
		if (!parts.contains("referenced") && Files.exists(previous)) {
			keep(Results.read(previous), results, (row) -> row.workload().equals(REFERENCED_WORKLOAD));
		}
		results.write(resultsDirectory);
		writeFigures(results, count, docs);
		writeBreakdown(breakdown, count, docs);
	}

	private static long measure(int count, LocalControlPlane controlPlane, Workload workload, Variant variant,
			String namespace, Map<Variant, Footprint> layouts) {
		ApiClient client = controlPlane.apiClient();
		client.setReadTimeout(0);
		long before = usedAfterGc();
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<?> informer = registry.informer(variant.spec(workload, namespace));
		registry.start();
		registry.awaitSync(Duration.ofMinutes(5));
		long after = usedAfterGc();
		if (informer.indexer().list().size() != count) {
			throw new IllegalStateException(variant.title + " cached " + informer.indexer().list().size() + " of "
					+ count + " " + workload.plural);
		}
		if (layouts != null && BREAKDOWN.contains(variant)) {
			// the cached objects only, each shared instance counted once
			layouts.put(variant, Footprint.of(GraphLayout.parseInstance(informer.indexer().list().toArray())));
		}
		registry.stop();
		return Math.max(0, after - before) / count;
	}

	private static void keep(Results from, Results to, java.util.function.Predicate<Results.Row> which) {
		for (Results.Row row : from.rows()) {
			if (which.test(row)) {
				row.samples()
					.forEach((metric, values) -> values
						.forEach((value) -> to.add(row.workload(), row.objects(), row.contender(), metric, value)));
			}
		}
	}

	/**
	 * Measures the referenced-only cache against caching every Secret, alternating which
	 * goes first, the first round dropped.
	 */
	private static void measureReferencedOnly(int repetitions, LocalControlPlane controlPlane, Results results)
			throws Exception {
		String namespace = "memory-referenced";
		ApiClient client = controlPlane.apiClient();
		client.setReadTimeout(0);
		referencedClient = client;
		populateSecrets(client, namespace);
		List<Cache> caches = List.of(Cache.values());
		for (int repetition = -1; repetition < repetitions; repetition++) {
			List<Cache> order = new ArrayList<>(caches);
			if (repetition % 2 != 0) {
				java.util.Collections.reverse(order);
			}
			for (Cache cache : order) {
				long[] measured = retainedBy(cache, namespace);
				if (repetition >= 0) {
					results.add(REFERENCED_WORKLOAD, SECRETS, cache.title, CACHED, measured[0]);
					results.add(REFERENCED_WORKLOAD, SECRETS, cache.title, RETAINED, measured[1] / 1024.0);
					System.out.printf(Locale.ROOT, "%s of %,d: %s: %,d cached, %,d KiB retained%n", REFERENCED_WORKLOAD,
							SECRETS, cache.title, measured[0], measured[1] / 1024);
				}
			}
		}
		new CoreV1Api(client).deleteNamespace(namespace).execute();
	}

	/**
	 * Starts an application context with the handler of the cache given, waits until its
	 * Secret informer holds what it should, and returns the objects it caches and the
	 * heap the context retains then, in bytes.
	 */
	private static long[] retainedBy(Cache cache, String namespace) throws InterruptedException {
		long before = usedAfterGc();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ReferencesApplication.class,
				cache.handler)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("kubeop.informers.namespaces=" + namespace, "spring.main.banner-mode=off")
			.run()) {
			ResourceInformer<?> secrets = context.getBean(InformerRegistry.class)
				.informers()
				.stream()
				.filter((informer) -> informer.spec().name().equals(cache.informer))
				.findFirst()
				.orElseThrow();
			int expected = cache.expected();
			long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
			while (secrets.indexer().listKeys().size() != expected) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(cache.title + " cached " + secrets.indexer().listKeys().size()
							+ " Secrets, not " + expected);
				}
				Thread.sleep(50);
			}
			long after = usedAfterGc();
			int cached = secrets.indexer().listKeys().size();
			if (cached != expected) {
				throw new IllegalStateException(cache.title + " cached " + cached + " Secrets, not " + expected);
			}
			return new long[] { cached, Math.max(0, after - before) };
		}
	}

	/**
	 * Creates the Secrets, 1 KB of data each, and one Deployment whose Pod template
	 * mounts the first ten.
	 */
	private static void populateSecrets(ApiClient client, String namespace) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		String payload = "x".repeat(1024);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> creates = new ArrayList<>();
			for (int i = 0; i < SECRETS; i++) {
				String name = "secret-" + i;
				creates.add(executor.submit(
						() -> core
							.createNamespacedSecret(namespace,
									new V1Secret().metadata(new V1ObjectMeta().name(name))
										.stringData(Map.of("v", payload)))
							.execute()));
			}
			for (Future<?> create : creates) {
				create.get();
			}
		}
		finally {
			executor.shutdown();
		}
		V1PodSpec pod = new V1PodSpec().addContainersItem(new V1Container().name("app").image("nginx"));
		for (int i = 0; i < REFERENCED; i++) {
			pod.addVolumesItem(
					new V1Volume().name("secret-" + i).secret(new V1SecretVolumeSource().secretName("secret-" + i)));
		}
		new AppsV1Api(client)
			.createNamespacedDeployment(namespace,
					new V1Deployment().metadata(new V1ObjectMeta().name("consumer"))
						.spec(new V1DeploymentSpec().selector(new V1LabelSelector().matchLabels(Map.of("app", "c")))
							.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", "c")))
								.spec(pod))))
			.execute();
	}

	/**
	 * Writes where a cached Pod spends its bytes, by class, as JOL finds them in the
	 * graph of every cached Pod (a string shared by many Pods counts once).
	 */
	private static void writeBreakdown(Map<Variant, Footprint> layouts, int count, Path docs) throws IOException {
		Footprint fat = layouts.get(Variant.TYPED_NOT_LEAN);
		Footprint lean = layouts.get(Variant.TYPED);
		if (fat == null || lean == null) {
			return;
		}
		List<Class<?>> classes = new ArrayList<>(fat.sizes().keySet());
		classes.sort(Comparator.comparingLong((Class<?> type) -> fat.size(type)).reversed());
		StringBuilder table = new StringBuilder();
		table.append("// generated by benchmarks/run (MemoryFeaturesBenchmark): do not edit\n");
		table
			.append(String.format(Locale.ROOT,
					"Where a cached Pod spends its bytes (JOL, the graph of all %,d cached Pods divided by their "
							+ "number, managedFields stripped; a string that many Pods share counts once):%n%n",
					count));
		table.append("[cols=\"3,>1,>1,>1,>1\",options=\"header\"]\n|===\n");
		table.append("| Class | lean off: B per Pod | objects per Pod | lean: B per Pod | objects per Pod\n\n");
		long shown = 0;
		for (Class<?> type : classes.subList(0, Math.min(BREAKDOWN_ROWS, classes.size()))) {
			shown += fat.size(type);
			table.append(row(type.getSimpleName(), fat.size(type), fat.count(type), lean.size(type), lean.count(type),
					count));
		}
		table.append(row("other classes", fat.totalSize() - shown, 0, lean.totalSize() - leanShown(lean, classes), 0,
				count));
		table.append(row("total", fat.totalSize(), fat.totalCount(), lean.totalSize(), lean.totalCount(), count));
		table.append("|===\n");
		Files.createDirectories(docs);
		Path file = docs.resolve("_memory-breakdown.adoc");
		Files.writeString(file, table, StandardCharsets.UTF_8);
		System.out.println("Wrote " + file);
		System.out.println(table);
	}

	private static long leanShown(Footprint lean, List<Class<?>> classes) {
		return classes.subList(0, Math.min(BREAKDOWN_ROWS, classes.size()))
			.stream()
			.mapToLong((type) -> lean.size(type))
			.sum();
	}

	private static String row(String name, long fatBytes, long fatObjects, long leanBytes, long leanObjects,
			int count) {
		String fatCount = (fatObjects > 0) ? String.format(Locale.ROOT, "%.1f", (double) fatObjects / count) : "";
		String leanCount = (fatObjects > 0) ? String.format(Locale.ROOT, "%.1f", (double) leanObjects / count) : "";
		return String.format(Locale.ROOT, "| %s | %,d | %s | %,d | %s%n", name, fatBytes / count, fatCount,
				leanBytes / count, leanCount);
	}

	/**
	 * Creates the objects: the benchmark's realistic payloads, each with the annotation
	 * {@code kubectl apply} would leave.
	 */
	private static void populate(ApiClient client, Workload workload, String namespace, int count) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		// no controller-manager here: the service account admission needs it created
		core.createNamespacedServiceAccount(namespace,
				new V1ServiceAccount().metadata(new V1ObjectMeta().name("default")))
			.execute();
		DynamicKubernetesApi api = new DynamicKubernetesApi("", "v1", workload.plural, client);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String json = (workload == Workload.PODS) ? Payloads.pod(namespace, i)
						: Payloads.configMap(namespace, i);
				JsonObject object = JsonParser.parseString(json).getAsJsonObject();
				JsonObject metadata = object.getAsJsonObject("metadata");
				if (!metadata.has("annotations")) {
					metadata.add("annotations", new JsonObject());
				}
				metadata.getAsJsonObject("annotations").addProperty(StandardTransform.LAST_APPLIED_CONFIGURATION, json);
				if (workload == Workload.PODS) {
					object.getAsJsonObject("spec").addProperty("nodeName", Payloads.nodeName(i));
				}
				JsonObject status = (workload == Workload.PODS)
						? JsonParser.parseString(Payloads.podStatus(i)).getAsJsonObject() : null;
				futures.add(executor.submit(() -> {
					DynamicKubernetesObject created = api.create(new DynamicKubernetesObject(object))
						.throwsApiException()
						.getObject();
					if (status != null) {
						// as the kubelet reports it: conditions, container statuses, IPs
						created.getRaw().add("status", status);
						api.updateStatus(created, (pod) -> pod.getRaw().get("status")).throwsApiException();
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

	private static void writeFigures(Results results, int count, Path docs) throws IOException {
		StringBuilder table = new StringBuilder();
		table.append("// generated by benchmarks/run (MemoryFeaturesBenchmark): do not edit\n");
		table.append("Heap retained per cached object, ")
			.append(String.format(Locale.ROOT, "%,d", count))
			.append(" objects of each kind, median of ")
			.append(results.rows().get(0).metric(BYTES).size())
			.append(" runs (")
			.append(results.environment().get("java"))
			.append(", ")
			.append(results.environment().get("jvmFlags"))
			.append(", ")
			.append(results.environment().get("cores"))
			.append(" cores):\n\n");
		table.append("[cols=\"3,>1,>1,>1,>1\",options=\"header\"]\n|===\n");
		table.append("| Informer | ConfigMap (B) | vs. default | Pod (B) | vs. default\n\n");
		for (Variant variant : Variant.values()) {
			table.append("| ").append(variant.title);
			for (Workload workload : Workload.values()) {
				double bytes = median(results, workload, variant.title);
				double base = median(results, workload, Variant.TYPED.title);
				if (bytes < 0) {
					table.append(" | n/a | ");
				}
				else {
					table.append(String.format(Locale.ROOT, " | %,.0f | %.2fx", bytes, bytes / base));
				}
			}
			table.append('\n');
		}
		table.append("|===\n");
		writeReferencedOnly(results, table);
		Files.createDirectories(docs);
		Path file = docs.resolve("_memory-figures.adoc");
		Files.writeString(file, table, StandardCharsets.UTF_8);
		System.out.println("Wrote " + file);
	}

	private static void writeReferencedOnly(Results results, StringBuilder table) {
		List<Results.Row> rows = results.rows()
			.stream()
			.filter((row) -> row.workload().equals(REFERENCED_WORKLOAD))
			.toList();
		if (rows.isEmpty()) {
			return;
		}
		Results.Row first = rows.get(0);
		table.append(String.format(Locale.ROOT,
				"%n[[memory.referenced-only]]%nThe referenced-only cache (`@References(referencedOnly = true)`): "
						+ "%,d Secrets of 1 KB of data each, %d of them referenced by a Deployment; heap the whole "
						+ "application context retains with its Secret informer synced, median of %d runs, the two "
						+ "alternating in one JVM:%n%n",
				first.objects(), REFERENCED, first.metric(RETAINED).size()));
		table.append("[cols=\"3,>1,>1,>1\",options=\"header\"]\n|===\n");
		table.append("| Secret informer | Secrets cached | Heap retained (KiB) | vs. caching every Secret\n\n");
		double everything = rows.stream()
			.filter((row) -> row.contender().equals(Cache.EVERYTHING.title))
			.findFirst()
			.map((row) -> Results.median(row.metric(RETAINED)))
			.orElse(-1.0);
		for (Results.Row row : rows) {
			double retained = Results.median(row.metric(RETAINED));
			table.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %s%n", row.contender(),
					Results.median(row.metric(CACHED)), retained,
					(everything > 0) ? String.format(Locale.ROOT, "%.2fx", retained / everything) : "n/a"));
		}
		table.append("|===\n");
	}

	private static double median(Results results, Workload workload, String variant) {
		return results.rows()
			.stream()
			.filter((row) -> row.workload().equals(workload.title) && row.contender().equals(variant))
			.findFirst()
			.map((row) -> Results.median(row.metric(BYTES)))
			.orElse(-1.0);
	}

	private static long usedAfterGc() {
		for (int i = 0; i < 3; i++) {
			System.gc();
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	/**
	 * What JOL found in the graph of the cached objects, kept without the objects.
	 */
	private record Footprint(Map<Class<?>, Long> sizes, Map<Class<?>, Long> counts, long totalSize, long totalCount) {

		static Footprint of(GraphLayout layout) {
			Map<Class<?>, Long> sizes = new HashMap<>();
			Map<Class<?>, Long> counts = new HashMap<>();
			for (Class<?> type : layout.getClasses()) {
				sizes.put(type, layout.getClassSizes().count(type));
				counts.put(type, layout.getClassCounts().count(type));
			}
			return new Footprint(sizes, counts, layout.totalSize(), layout.totalCount());
		}

		long size(Class<?> type) {
			return this.sizes.getOrDefault(type, 0L);
		}

		long count(Class<?> type) {
			return this.counts.getOrDefault(type, 0L);
		}

	}

	/**
	 * The two caches of the referenced Secrets.
	 */
	private enum Cache {

		REFERENCED_ONLY("referenced objects only (referencedOnly = true)", ReferencedOnlyHandler.class,
				"v1Secret-referenced"),

		EVERYTHING("every Secret (referencedOnly = false)", EverythingHandler.class, "v1Secret");

		private final String title;

		private final Class<?> handler;

		private final String informer;

		Cache(String title, Class<?> handler, String informer) {
			this.title = title;
			this.handler = handler;
			this.informer = informer;
		}

		int expected() {
			return (this == REFERENCED_ONLY) ? REFERENCED : SECRETS;
		}

	}

	/**
	 * The application of the referenced-only part: Kubeop's client, informers and
	 * handlers, on the benchmark's control plane.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
			KubeopHandlersAutoConfiguration.class })
	static class ReferencesApplication {

		@Bean
		ApiClient apiClient() {
			return referencedClient;
		}

	}

	/**
	 * Caches the Secrets a Deployment mounts, and no other.
	 */
	@References(value = V1Secret.class, path = REFERENCES_PATH, referencedOnly = true)
	static class ReferencedOnlyHandler {

		@OnAdd
		void added(V1Deployment deployment) {
		}

	}

	/**
	 * The same relation, caching every Secret.
	 */
	@References(value = V1Secret.class, path = REFERENCES_PATH)
	static class EverythingHandler {

		@OnAdd
		void added(V1Deployment deployment) {
		}

	}

	private enum Workload {

		CONFIG_MAPS("ConfigMaps", "configmaps", "ConfigMap", V1ConfigMap.class),

		PODS("Pods", "pods", "Pod", V1Pod.class);

		private final String title;

		private final String plural;

		private final String kind;

		private final Class<? extends KubernetesObject> type;

		Workload(String title, String plural, String kind, Class<? extends KubernetesObject> type) {
			this.title = title;
			this.plural = plural;
			this.kind = kind;
			this.type = type;
		}

	}

	private enum Variant {

		TYPED_KEEP_ALL("typed, nothing stripped, lean off", false, Set.of()),

		TYPED_NOT_LEAN("typed, strip-managed-fields, lean off", false, Set.of(StandardTransform.STRIP_MANAGED_FIELDS)),

		TYPED("typed, default (strip-managed-fields, lean)", false, lean(StandardTransform.STRIP_MANAGED_FIELDS)),

		TYPED_LAST_APPLIED("typed, default + strip-last-applied-configuration", false,
				lean(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION)),

		TYPED_STATUS("typed, default + strip-status", false,
				lean(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.STRIP_STATUS)),

		TYPED_ALL("typed, all ready-made transforms", false, EnumSet.allOf(StandardTransform.class)),

		METADATA_KEEP_ALL("metadata-only, nothing stripped, lean off", true, Set.of()),

		METADATA_NOT_LEAN("metadata-only, strip-managed-fields, lean off", true,
				Set.of(StandardTransform.STRIP_MANAGED_FIELDS)),

		METADATA("metadata-only, default (strip-managed-fields, lean)", true,
				lean(StandardTransform.STRIP_MANAGED_FIELDS)),

		METADATA_LAST_APPLIED("metadata-only, default + strip-last-applied-configuration", true,
				lean(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION));

		private final String title;

		private final boolean metadataOnly;

		private final Set<StandardTransform> transforms;

		Variant(String title, boolean metadataOnly, Set<StandardTransform> transforms) {
			this.title = title;
			this.metadataOnly = metadataOnly;
			this.transforms = transforms;
		}

		private static Set<StandardTransform> lean(StandardTransform... transforms) {
			return EnumSet.of(StandardTransform.DEDUPLICATE_STRINGS, transforms);
		}

		boolean skip(Workload workload) {
			// ConfigMaps have no status
			return this == TYPED_STATUS && workload == Workload.CONFIG_MAPS;
		}

		@SuppressWarnings({ "unchecked", "rawtypes" })
		InformerSpec<?> spec(Workload workload, String namespace) {
			Class type = this.metadataOnly ? PartialObjectMetadata.class : workload.type;
			return new InformerSpec(this.name(), "v1", workload.kind, type, List.of(namespace), null, null,
					Duration.ZERO, false, Map.of(), InformerSpec.DEFAULT_PAGE_SIZE, InformerSpec.DEFAULT_WATCH_TIMEOUT,
					InformerSpec.DEFAULT_STALL_TIMEOUT, InformerSpec.DEFAULT_PING_INTERVAL, this.transforms, List.of());
		}

	}

}
