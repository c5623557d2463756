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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.google.gson.JsonParser;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.common.KubernetesListObject;
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
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Initial sync of N objects of realistic size (ConfigMaps with about 1 KB of data, Pods
 * as a Deployment would create them, and custom resources read as dynamic objects, all
 * with managedFields) from a real kube-apiserver: time until synced, and heap retained
 * per cached object after a full GC. Kubeop, the official client's
 * {@code SharedInformerFactory}, fabric8's {@code SharedIndexInformer} (all in this JVM)
 * and a client-go informer (a separate Go process) run alternating, several repetitions;
 * the samples go to {@code benchmarks/results/sync.json}.
 * <p>
 * Usage: {@code InformerSyncBenchmark [repetitions] [count...]}, for example
 * {@code 3 1000 10000 50000}.
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
		Results results = new Results("sync");
		Path clientGo = ClientGo.build();
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			new io.github.kubeop.test.Manifests(client).apply(WIDGET_CRD, null);
			for (int count : counts) {
				for (Workload workload : Workload.values()) {
					String namespace = workload.plural + "-" + count;
					workload.populate(client, namespace, count);
					// the first count's first round only warms the JIT up, for every
					// contender alike
					int first = (count == counts.get(0)) ? -1 : 0;
					for (int repetition = first; repetition < repetitions; repetition++) {
						for (String contender : workload.contenders(clientGo != null)) {
							long[] sample = switch (contender) {
								case Contenders.CLIENT_GO -> ClientGo.sync(clientGo, controlPlane.kubeconfigFile(),
										namespace, workload.plural, results);
								default -> measure(count, () -> workload.start(contender, controlPlane, namespace));
							};
							if (repetition < 0) {
								continue;
							}
							results.add(workload.title, count, contender, "syncMillis", sample[0]);
							results.add(workload.title, count, contender, "bytesPerObject", sample[1]);
							System.out.printf(Locale.ROOT, "%s %,d %s: %d ms, %,d B per object%n", workload.title,
									count, contender, sample[0], sample[1]);
						}
					}
					new CoreV1Api(client).deleteNamespace(namespace).execute();
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	/**
	 * What is synced, and by whom.
	 */
	private enum Workload {

		CONFIG_MAPS("ConfigMaps", "configmaps",
				List.of(Contenders.KUBEOP, Contenders.CLIENT_JAVA, Contenders.FABRIC8, Contenders.CLIENT_GO)),

		PODS("Pods", "pods",
				List.of(Contenders.KUBEOP, Contenders.CLIENT_JAVA, Contenders.FABRIC8, Contenders.CLIENT_GO)),

		WIDGETS("Custom resources (dynamic)", "widgets", List.of(Contenders.KUBEOP, Contenders.CLIENT_JAVA));

		private final String title;

		private final String plural;

		private final List<String> contenders;

		Workload(String title, String plural, List<String> contenders) {
			this.title = title;
			this.plural = plural;
			this.contenders = contenders;
		}

		List<String> contenders(boolean withClientGo) {
			return this.contenders.stream()
				.filter((name) -> withClientGo || !name.equals(Contenders.CLIENT_GO))
				.toList();
		}

		void populate(ApiClient client, String namespace, int count) throws Exception {
			CoreV1Api core = new CoreV1Api(client);
			core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			// no controller-manager here: the service account admission needs it created
			core.createNamespacedServiceAccount(namespace, new io.kubernetes.client.openapi.models.V1ServiceAccount()
				.metadata(new V1ObjectMeta().name("default"))).execute();
			String group = (this == WIDGETS) ? "bench.kubeop.io" : "";
			DynamicKubernetesApi api = new DynamicKubernetesApi(group, "v1", this.plural, client);
			ExecutorService executor = Executors.newFixedThreadPool(8);
			try {
				List<Future<?>> futures = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					String json = switch (this) {
						case CONFIG_MAPS -> Payloads.configMap(namespace, i);
						case PODS -> Payloads.pod(namespace, i);
						case WIDGETS -> Payloads.widget(namespace, i);
					};
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

		Runnable start(String contender, LocalControlPlane controlPlane, String namespace) {
			ApiClient client = controlPlane.apiClient();
			client.setReadTimeout(0);
			return switch (this) {
				case CONFIG_MAPS -> switch (contender) {
					case Contenders.KUBEOP -> kubeop(client, namespace, "ConfigMap", V1ConfigMap.class);
					case Contenders.CLIENT_JAVA ->
						official(new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1",
								"configmaps", client), V1ConfigMap.class, client, namespace);
					default ->
						fabric8(controlPlane.kubeconfig(), (fabric8) -> fabric8.configMaps().inNamespace(namespace));
				};
				case PODS -> switch (contender) {
					case Contenders.KUBEOP -> kubeop(client, namespace, "Pod", V1Pod.class);
					case Contenders.CLIENT_JAVA ->
						official(new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", client),
								V1Pod.class, client, namespace);
					default -> fabric8(controlPlane.kubeconfig(), (fabric8) -> fabric8.pods().inNamespace(namespace));
				};
				case WIDGETS -> switch (contender) {
					case Contenders.KUBEOP -> kubeopDynamic(client, namespace);
					default -> officialDynamic(client, namespace);
				};
			};
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

	private static <T extends KubernetesObject> Runnable kubeop(ApiClient client, String namespace, String kind,
			Class<T> type) {
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<T> informer = registry
			.informer(InformerSpec.of("objects", "v1", kind, type).withNamespaces(namespace));
		informer.addEventHandler(new NoOp<>());
		registry.start();
		registry.awaitSync(Duration.ofMinutes(5));
		return registry::stop;
	}

	private static <T extends KubernetesObject, L extends KubernetesListObject> Runnable official(
			GenericKubernetesApi<T, L> api, Class<T> type, ApiClient client, String namespace) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<T> informer = factory.sharedIndexInformerFor(api, type, 0, namespace);
		informer.addEventHandler(new NoOp<>());
		factory.startAllRegisteredInformers();
		while (!informer.hasSynced()) {
			sleep(5);
		}
		return () -> factory.stopAllRegisteredInformers(true);
	}

	private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> Runnable fabric8(String kubeconfig,
			java.util.function.Function<io.fabric8.kubernetes.client.KubernetesClient, io.fabric8.kubernetes.client.dsl.Informable<T>> resources) {
		io.fabric8.kubernetes.client.KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
			.withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(kubeconfig))
			.build();
		io.fabric8.kubernetes.client.informers.SharedIndexInformer<T> informer = resources.apply(client)
			.inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {

				@Override
				public void onAdd(T obj) {
				}

				@Override
				public void onUpdate(T oldObj, T newObj) {
				}

				@Override
				public void onDelete(T obj, boolean deletedFinalStateUnknown) {
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
		registry.informer(InformerSpec.of("widgets", "bench.kubeop.io/v1", "Widget", DynamicKubernetesObject.class)
			.withNamespaces(namespace));
		registry.start();
		registry.awaitSync(Duration.ofMinutes(5));
		return registry::stop;
	}

	private static Runnable officialDynamic(ApiClient client, String namespace) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<DynamicKubernetesObject> informer = factory
			.sharedIndexInformerFor(new GenericKubernetesApi<>(DynamicKubernetesObject.class,
					io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject.class, "bench.kubeop.io",
					"v1", "widgets", client), DynamicKubernetesObject.class, 0, namespace);
		factory.startAllRegisteredInformers();
		while (!informer.hasSynced()) {
			sleep(5);
		}
		return () -> factory.stopAllRegisteredInformers(true);
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

	private static final class NoOp<T extends KubernetesObject> implements ResourceEventHandler<T> {

		@Override
		public void onAdd(T obj) {
		}

		@Override
		public void onUpdate(T oldObj, T newObj) {
		}

		@Override
		public void onDelete(T obj, boolean deletedFinalStateUnknown) {
		}

	}

}
