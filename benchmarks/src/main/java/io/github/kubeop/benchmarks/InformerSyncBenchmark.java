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
import java.lang.management.MemoryMXBean;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
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
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * Initial sync of N ConfigMaps of realistic size (about 1 KB of data, with managedFields)
 * from a real kube-apiserver: time until synced, and heap retained per cached object
 * after a full GC, for Kubeop's informer and the official client's
 * {@code SharedInformerFactory} informer with a no-op handler. Both run in this JVM,
 * alternating, several repetitions; medians and ranges go to
 * {@code benchmarks/results/informer-sync.md}.
 * <p>
 * Usage: {@code InformerSyncBenchmark [repetitions] [count...]}, for example
 * {@code 3 1000 10000}.
 *
 * @author Kubeop authors
 */
public final class InformerSyncBenchmark {

	private static final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private InformerSyncBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		List<Integer> counts = new ArrayList<>();
		for (int i = 1; i < args.length; i++) {
			counts.add(Integer.parseInt(args[i]));
		}
		if (counts.isEmpty()) {
			counts = List.of(1000, 10000);
		}
		StringBuilder report = new StringBuilder("# Initial sync: Kubeop vs the official client's informer\n\n")
			.append("ConfigMaps with about 1 KB of data and managedFields, listed from a local kube-apiserver ")
			.append("1.35; JVM ")
			.append(System.getProperty("java.version"))
			.append(", ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" cores, heap ")
			.append(Runtime.getRuntime().maxMemory() >> 20)
			.append(" MB max; ")
			.append(repetitions)
			.append(" alternating repetitions, median (min to max).\n\n")
			.append("| objects | contender | sync time (ms) | retained heap per object (bytes) |\n")
			.append("|---|---|---|---|\n");
		Path clientGo = buildClientGo();
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			for (int count : counts) {
				String namespace = "sync-" + count;
				populate(client, namespace, count);
				Map<String, List<long[]>> results = new LinkedHashMap<>();
				for (int repetition = 0; repetition < repetitions; repetition++) {
					results.computeIfAbsent("Kubeop", (k) -> new ArrayList<>())
						.add(measure(count, () -> kubeop(client, namespace)));
					results.computeIfAbsent("client-java SharedInformerFactory", (k) -> new ArrayList<>())
						.add(measure(count, () -> official(client, namespace)));
					results.computeIfAbsent("fabric8 8.0.0 SharedIndexInformer", (k) -> new ArrayList<>())
						.add(measure(count, () -> fabric8(controlPlane.kubeconfig(), namespace)));
					if (clientGo != null) {
						results.computeIfAbsent("client-go informer (Go, separate process)", (k) -> new ArrayList<>())
							.add(clientGo(clientGo, controlPlane.kubeconfigFile(), namespace));
					}
				}
				results.forEach((contender, samples) -> report.append("| ")
					.append(count)
					.append(" | ")
					.append(contender)
					.append(" | ")
					.append(summary(samples, 0))
					.append(" | ")
					.append(summary(samples, 1))
					.append(" |\n"));
				System.out.println(report);
			}
			report.append("\n## Custom resources without a Java model\n\n")
				.append("Objects of a custom resource (about 1 KB of spec each) read as dynamic objects.\n\n")
				.append("| objects | contender | sync time (ms) | retained heap per object (bytes) |\n")
				.append("|---|---|---|---|\n");
			new io.github.kubeop.test.Manifests(client).apply(WIDGET_CRD, null);
			for (int count : counts) {
				String namespace = "widgets-" + count;
				populateWidgets(client, namespace, count);
				Map<String, List<long[]>> results = new LinkedHashMap<>();
				for (int repetition = 0; repetition < repetitions; repetition++) {
					results
						.computeIfAbsent("Kubeop (DynamicKubernetesObject, managedFields stripped)",
								(k) -> new ArrayList<>())
						.add(measure(count, () -> kubeopDynamic(client, namespace)));
					results
						.computeIfAbsent("client-java SharedInformerFactory (DynamicKubernetesObject)",
								(k) -> new ArrayList<>())
						.add(measure(count, () -> officialDynamic(client, namespace)));
				}
				results.forEach((contender, samples) -> report.append("| ")
					.append(count)
					.append(" | ")
					.append(contender)
					.append(" | ")
					.append(summary(samples, 0))
					.append(" | ")
					.append(summary(samples, 1))
					.append(" |\n"));
				System.out.println(report);
			}
		}
		Path output = Path.of("benchmarks", "results", "informer-sync.md");
		Files.createDirectories(output.getParent());
		Files.writeString(output, report, StandardCharsets.UTF_8);
		System.out.println("Wrote " + output);
	}

	/**
	 * Builds the client-go program from the Go module beside this harness, or returns
	 * {@code null} (and says so) when Go is not on the PATH.
	 */
	private static Path buildClientGo() throws Exception {
		Path source = Path.of("benchmarks", "src", "main", "go", "informer-sync");
		Path binary = Path.of("benchmarks", "target", "informer-sync").toAbsolutePath();
		ProcessBuilder build = new ProcessBuilder("go", "build", "-o", binary.toString(), ".")
			.directory(source.toFile())
			.inheritIO();
		build.environment().put("GOTOOLCHAIN", "local");
		build.environment().put("CGO_ENABLED", "0");
		try {
			if (build.start().waitFor() == 0) {
				return binary;
			}
		}
		catch (java.io.IOException ex) {
			// no Go on the PATH
		}
		System.out.println("client-go contender skipped: could not build " + source + " with go");
		return null;
	}

	private static long[] clientGo(Path binary, Path kubeconfig, String namespace) {
		try {
			Process process = new ProcessBuilder(binary.toString(), "-kubeconfig", kubeconfig.toString(), "-namespace",
					namespace)
				.redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (process.waitFor() != 0) {
				throw new IllegalStateException("client-go program failed");
			}
			com.google.gson.JsonObject result = com.google.gson.JsonParser.parseString(output).getAsJsonObject();
			return new long[] { result.get("syncMillis").getAsLong(), result.get("bytesPerObject").getAsLong() };
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not run " + binary, ex);
		}
	}

	private static long[] measure(int count, Supplier<Runnable> start) {
		long before = usedAfterGc();
		long started = System.nanoTime();
		Runnable stop = start.get();
		long synced = System.nanoTime();
		long after = usedAfterGc();
		stop.run();
		return new long[] { TimeUnit.NANOSECONDS.toMillis(synced - started), Math.max(0, after - before) / count };
	}

	private static Runnable kubeop(ApiClient client, String namespace) {
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace));
		informer.addEventHandler(new NoOp());
		registry.start();
		registry.awaitSync(Duration.ofMinutes(5));
		return registry::stop;
	}

	private static final String WIDGET_CRD = """
			apiVersion: apiextensions.k8s.io/v1
			kind: CustomResourceDefinition
			metadata:
			  name: widgets.bench.kubeop.io
			spec:
			  group: bench.kubeop.io
			  scope: Namespaced
			  names: {kind: Widget, plural: widgets, singular: widget}
			  versions:
			    - name: v1
			      served: true
			      storage: true
			      schema:
			        openAPIV3Schema:
			          type: object
			          properties:
			            spec:
			              type: object
			              x-kubernetes-preserve-unknown-fields: true
			""";

	private static Runnable kubeopDynamic(ApiClient client, String namespace) {
		InformerRegistry registry = new InformerRegistry(client);
		registry
			.informer(InformerSpec
				.of("widgets", "bench.kubeop.io/v1", "Widget",
						io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject.class)
				.withNamespaces(namespace));
		registry.start();
		registry.awaitSync(Duration.ofMinutes(5));
		return registry::stop;
	}

	private static Runnable officialDynamic(ApiClient client, String namespace) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject> informer = factory
			.sharedIndexInformerFor(
					new GenericKubernetesApi<>(io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject.class,
							io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject.class,
							"bench.kubeop.io", "v1", "widgets", client),
					io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject.class, 0, namespace);
		factory.startAllRegisteredInformers();
		while (!informer.hasSynced()) {
			sleep(5);
		}
		return () -> factory.stopAllRegisteredInformers(true);
	}

	private static void populateWidgets(ApiClient client, String namespace, int count) throws Exception {
		new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi widgets = new io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi(
				"bench.kubeop.io", "v1", "widgets", client);
		String payload = "x".repeat(1024);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String json = "{\"apiVersion\":\"bench.kubeop.io/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"widget-"
						+ i + "\",\"namespace\":\"" + namespace
						+ "\",\"labels\":{\"app\":\"benchmark\"}},\"spec\":{\"size\":" + i + ",\"payload\":\"" + payload
						+ "\"}}";
				futures.add(
						executor.submit(() -> widgets
							.create(new io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject(
									com.google.gson.JsonParser.parseString(json).getAsJsonObject()))
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

	private static Runnable official(ApiClient client, String namespace) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
				new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
				V1ConfigMap.class, 0, namespace);
		informer.addEventHandler(new NoOp());
		factory.startAllRegisteredInformers();
		while (!informer.hasSynced()) {
			sleep(5);
		}
		return () -> factory.stopAllRegisteredInformers(true);
	}

	private static Runnable fabric8(String kubeconfig, String namespace) {
		io.fabric8.kubernetes.client.KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
			.withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(kubeconfig))
			.build();
		io.fabric8.kubernetes.client.informers.SharedIndexInformer<io.fabric8.kubernetes.api.model.ConfigMap> informer = client
			.configMaps()
			.inNamespace(namespace)
			.inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {

				@Override
				public void onAdd(io.fabric8.kubernetes.api.model.ConfigMap obj) {
				}

				@Override
				public void onUpdate(io.fabric8.kubernetes.api.model.ConfigMap oldObj,
						io.fabric8.kubernetes.api.model.ConfigMap newObj) {
				}

				@Override
				public void onDelete(io.fabric8.kubernetes.api.model.ConfigMap obj, boolean deletedFinalStateUnknown) {
				}

			}, 0);
		while (!informer.hasSynced()) {
			sleep(5);
		}
		return () -> {
			informer.stop();
			client.close();
		};
	}

	private static void populate(ApiClient client, String namespace, int count) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		String value = "x".repeat(1024);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "settings-" + i;
				futures.add(executor.submit(
						() -> api
							.createNamespacedConfigMap(namespace,
									new V1ConfigMap()
										.metadata(new V1ObjectMeta().name(name)
											.labels(Map.of("app", "benchmark", "tier", "settings"))
											.annotations(Map.of("example.com/owner", "team-a")))
										.data(Map.of("payload", value, "mode", "fast")))
							.execute()));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

	private static String summary(List<long[]> samples, int index) {
		List<Long> values = new ArrayList<>();
		samples.forEach((sample) -> values.add(sample[index]));
		Collections.sort(values);
		return String.format(Locale.ROOT, "%d (%d to %d)", values.get(values.size() / 2), values.get(0),
				values.get(values.size() - 1));
	}

	private static long usedAfterGc() {
		for (int i = 0; i < 3; i++) {
			System.gc();
			sleep(100);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static final class NoOp implements ResourceEventHandler<V1ConfigMap> {

		@Override
		public void onAdd(V1ConfigMap obj) {
		}

		@Override
		public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
		}

		@Override
		public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
		}

	}

}
