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
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.StandardTransform;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Heap retained per cached object by Kubeop's informer with each memory feature: full
 * typed objects with and without each ready-made transform, and metadata-only. Every
 * variant syncs the same N objects from one real kube-apiserver in this one JVM, one
 * after the other, measured as {@link InformerSyncBenchmark} measures heap: used heap
 * after three full GCs with the informer synced, minus the same before it started,
 * divided by N. The objects carry managedFields (from their create) and a
 * {@code kubectl.kubernetes.io/last-applied-configuration} annotation (the object's own
 * JSON, as {@code kubectl apply} leaves it); the first round warms the JIT up and is
 * dropped. Samples go to {@code benchmarks/results/memory.json}, the table to
 * {@code _memory-figures.adoc} in the docs directory given.
 * <p>
 * Usage: {@code MemoryFeaturesBenchmark [repetitions] [count] [docs directory]}.
 *
 * @author Kubeop authors
 */
public final class MemoryFeaturesBenchmark {

	private static final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private static final String BYTES = "bytesPerObject";

	private MemoryFeaturesBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int count = (args.length > 1) ? Integer.parseInt(args[1]) : 2000;
		Path docs = Path.of((args.length > 2) ? args[2] : "docs/src/docs/asciidoc");
		Results results = new Results("memory");
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			for (Workload workload : Workload.values()) {
				String namespace = "memory-" + workload.plural;
				populate(client, workload, namespace, count);
				for (int repetition = -1; repetition < repetitions; repetition++) {
					for (Variant variant : Variant.values()) {
						if (variant.skip(workload)) {
							continue;
						}
						long bytes = measure(count, controlPlane, workload, variant, namespace);
						if (repetition >= 0) {
							results.add(workload.title, count, variant.title, BYTES, bytes);
							System.out.printf(Locale.ROOT, "%s %,d %s: %,d B per object%n", workload.title, count,
									variant.title, bytes);
						}
					}
				}
				new CoreV1Api(client).deleteNamespace(namespace).execute();
			}
		}
		results.write(Path.of("benchmarks", "results"));
		writeFigures(results, count, docs);
	}

	private static long measure(int count, LocalControlPlane controlPlane, Workload workload, Variant variant,
			String namespace) {
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
		registry.stop();
		return Math.max(0, after - before) / count;
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
				futures
					.add(executor.submit(() -> api.create(new DynamicKubernetesObject(object)).throwsApiException()));
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
		Files.createDirectories(docs);
		Path file = docs.resolve("_memory-figures.adoc");
		Files.writeString(file, table, StandardCharsets.UTF_8);
		System.out.println("Wrote " + file);
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

		TYPED_KEEP_ALL("typed, nothing stripped", false, Set.of()),

		TYPED("typed, default (strip-managed-fields)", false, Set.of(StandardTransform.STRIP_MANAGED_FIELDS)),

		TYPED_LAST_APPLIED("typed, default + strip-last-applied-configuration", false,
				Set.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION)),

		TYPED_STATUS("typed, default + strip-status", false,
				Set.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.STRIP_STATUS)),

		TYPED_ALL("typed, all three ready-made transforms", false, EnumSet.allOf(StandardTransform.class)),

		METADATA_KEEP_ALL("metadata-only, nothing stripped", true, Set.of()),

		METADATA("metadata-only, default (strip-managed-fields)", true, Set.of(StandardTransform.STRIP_MANAGED_FIELDS)),

		METADATA_LAST_APPLIED("metadata-only, default + strip-last-applied-configuration", true,
				Set.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION));

		private final String title;

		private final boolean metadataOnly;

		private final Set<StandardTransform> transforms;

		Variant(String title, boolean metadataOnly, Set<StandardTransform> transforms) {
			this.title = title;
			this.metadataOnly = metadataOnly;
			this.transforms = transforms;
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
