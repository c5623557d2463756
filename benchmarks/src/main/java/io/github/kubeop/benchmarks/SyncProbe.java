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
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import com.google.gson.Gson;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.StandardTransform;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * One initial sync by one Java contender, run by {@link InformerSyncBenchmark} in a fresh
 * JVM per sample. Every contender is measured alike: its client and its informer are
 * built first (outside the timed region); the timed region runs from starting the
 * informer until its own {@code hasSynced} is true, polled every millisecond; then heap
 * used after three full GCs (minus the same before the informer started) over the number
 * of cached objects, and the process's resident set ({@code VmRSS}). Prints one JSON
 * line.
 * <p>
 * Usage: {@code SyncProbe kubeconfig-file namespace configmaps|pods contender count}.
 *
 * @author Kubeop authors
 */
public final class SyncProbe {

	private static final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private SyncProbe() {
	}

	public static void main(String[] args) throws Exception {
		String kubeconfig = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
		String namespace = args[1];
		boolean pods = args[2].equals("pods");
		String contender = args[3];
		int count = Integer.parseInt(args[4]);
		Contender informer = switch (contender) {
			case Contenders.KUBEOP ->
				kubeop(client(kubeconfig), namespace, pods, Set.of(StandardTransform.STRIP_MANAGED_FIELDS));
			case Contenders.KUBEOP_KEEP_ALL -> kubeop(client(kubeconfig), namespace, pods, Set.of());
			case Contenders.CLIENT_JAVA -> official(client(kubeconfig), namespace, pods, false);
			case Contenders.CLIENT_JAVA_STRIP -> official(client(kubeconfig), namespace, pods, true);
			case Contenders.FABRIC8 -> fabric8(kubeconfig, namespace, pods);
			default -> throw new IllegalArgumentException("Unknown contender " + contender);
		};
		long heapBefore = usedAfterGc();
		long started = System.nanoTime();
		long cpuStarted = processCpuNanos();
		informer.start().run();
		while (!informer.synced().getAsBoolean()) {
			Thread.sleep(1);
		}
		long synced = System.nanoTime();
		long cpuSynced = processCpuNanos();
		long heapAfter = usedAfterGc();
		long rss = residentSetBytes();
		Collection<?> cached = informer.cache().get();
		if (cached.size() != count) {
			throw new IllegalStateException(contender + " cached " + cached.size() + " of " + count);
		}
		long withManagedFields = cached.stream().filter(SyncProbe::hasManagedFields).count();
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("syncMillis", (synced - started) / 1e6);
		result.put("cpuMillis", (cpuSynced - cpuStarted) / 1e6);
		result.put("bytesPerObject", Math.max(0, heapAfter - heapBefore) / count);
		result.put("rssMiB", rss / (1024.0 * 1024.0));
		result.put("cachedWithManagedFields", withManagedFields);
		System.out.println(new Gson().toJson(result));
		System.out.flush();
		// informer threads are not daemons in every client
		System.exit(0);
	}

	/**
	 * Returns the CPU time of the whole process (every thread: the informer's, the HTTP
	 * client's, the JIT compilers' and the garbage collector's), which a shared machine
	 * does not inflate as it does wall-clock time.
	 */
	private static long processCpuNanos() {
		return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
	}

	private static ApiClient client(String kubeconfig) throws IOException {
		ApiClient client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig))).build();
		client.setReadTimeout(0);
		return client;
	}

	private static Contender kubeop(ApiClient client, String namespace, boolean pods,
			Set<StandardTransform> transforms) {
		InformerRegistry registry = new InformerRegistry(client);
		// discovery happens here, when the informer is registered: before the timed
		// region
		ResourceInformer<? extends KubernetesObject> informer = pods
				? registry.informer(spec(namespace, "Pod", V1Pod.class, transforms))
				: registry.informer(spec(namespace, "ConfigMap", V1ConfigMap.class, transforms));
		informer.addEventHandler(new NoOp<>());
		return new Contender(registry::start, informer::hasSynced, () -> informer.indexer().list());
	}

	private static <T extends KubernetesObject> InformerSpec<T> spec(String namespace, String kind, Class<T> type,
			Set<StandardTransform> transforms) {
		return new InformerSpec<>("objects", "v1", kind, type, List.of(namespace), null, null, java.time.Duration.ZERO,
				false, Map.of(), InformerSpec.DEFAULT_PAGE_SIZE, InformerSpec.DEFAULT_WATCH_TIMEOUT,
				InformerSpec.DEFAULT_STALL_TIMEOUT, InformerSpec.DEFAULT_PING_INTERVAL, transforms, List.of());
	}

	private static Contender official(ApiClient client, String namespace, boolean pods, boolean strip) {
		return pods
				? official(new GenericKubernetesApi<>(V1Pod.class, V1PodList.class, "", "v1", "pods", client),
						V1Pod.class, client, namespace, strip)
				: official(new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps",
						client), V1ConfigMap.class, client, namespace, strip);
	}

	private static <T extends KubernetesObject, L extends KubernetesListObject> Contender official(
			GenericKubernetesApi<T, L> api, Class<T> type, ApiClient client, String namespace, boolean strip) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<T> informer = factory.sharedIndexInformerFor(api, type, 0, namespace);
		if (strip) {
			informer.setTransform((object) -> {
				V1ObjectMeta metadata = object.getMetadata();
				if (metadata != null) {
					metadata.setManagedFields(null);
				}
				return object;
			});
		}
		informer.addEventHandler(new NoOp<>());
		return new Contender(factory::startAllRegisteredInformers, informer::hasSynced,
				() -> informer.getIndexer().list());
	}

	private static Contender fabric8(String kubeconfig, String namespace, boolean pods) {
		// the client (and its Vert.x) is built here, before the timed region
		io.fabric8.kubernetes.client.KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
			.withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(kubeconfig))
			.build();
		io.fabric8.kubernetes.client.informers.SharedIndexInformer<? extends io.fabric8.kubernetes.api.model.HasMetadata> informer = pods
				? fabric8Informer(client.pods().inNamespace(namespace))
				: fabric8Informer(client.configMaps().inNamespace(namespace));
		return new Contender(informer::start, informer::hasSynced, () -> informer.getIndexer().list());
	}

	private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> io.fabric8.kubernetes.client.informers.SharedIndexInformer<T> fabric8Informer(
			io.fabric8.kubernetes.client.dsl.Informable<T> resources) {
		io.fabric8.kubernetes.client.informers.SharedIndexInformer<T> informer = resources.runnableInformer(0);
		informer.addEventHandler(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {

			@Override
			public void onAdd(T obj) {
			}

			@Override
			public void onUpdate(T oldObj, T newObj) {
			}

			@Override
			public void onDelete(T obj, boolean deletedFinalStateUnknown) {
			}

		});
		return informer;
	}

	private static boolean hasManagedFields(Object object) {
		if (object instanceof KubernetesObject kubernetes) {
			V1ObjectMeta metadata = kubernetes.getMetadata();
			return metadata != null && metadata.getManagedFields() != null && !metadata.getManagedFields().isEmpty();
		}
		if (object instanceof io.fabric8.kubernetes.api.model.HasMetadata fabric8) {
			return fabric8.getMetadata().getManagedFields() != null
					&& !fabric8.getMetadata().getManagedFields().isEmpty();
		}
		return false;
	}

	private static long usedAfterGc() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(100);
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

	/**
	 * Returns this process's resident set size, from {@code /proc/self/status}.
	 * @return bytes, or 0 where there is no {@code /proc}
	 */
	static long residentSetBytes() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith("VmRSS:")) {
					return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
				}
			}
		}
		catch (IOException ex) {
			// not Linux
		}
		return 0;
	}

	/**
	 * A contender ready to start: what starts it, its own synced probe, and its cache.
	 */
	private record Contender(Runnable start, BooleanSupplier synced, Supplier<Collection<?>> cache) {

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
