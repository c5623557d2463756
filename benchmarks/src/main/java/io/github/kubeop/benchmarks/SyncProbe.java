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
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.PartialObjectMetadata;
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
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Response;

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

	/** How long a contender may take to sync before it counts as unable to. */
	private static final Duration SYNC_TIME_LIMIT = Duration.ofMinutes(20);

	private SyncProbe() {
	}

	public static void main(String[] args) throws Exception {
		String kubeconfig = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
		String namespace = args[1];
		boolean pods = args[2].equals("pods");
		String contender = args[3];
		int count = Integer.parseInt(args[4]);
		boolean peak = args.length > 5 && args[5].equals("peak");
		RequestLog requests = new RequestLog(args[2]);
		Contender informer = switch (contender) {
			case Contenders.KUBEOP,
					Contenders.KUBEOP_JSON ->
				kubeop(client(kubeconfig, requests), namespace, pods, Pod.TYPED,
						EnumSet.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.DEDUPLICATE_STRINGS),
						contender);
			case Contenders.KUBEOP_LEAN_OFF -> kubeop(client(kubeconfig, requests), namespace, pods, Pod.TYPED,
					EnumSet.of(StandardTransform.STRIP_MANAGED_FIELDS));
			case Contenders.KUBEOP_KEEP_ALL -> kubeop(client(kubeconfig, requests), namespace, pods, Pod.TYPED,
					EnumSet.of(StandardTransform.DEDUPLICATE_STRINGS));
			case Contenders.KUBEOP_METADATA -> kubeop(client(kubeconfig, requests), namespace, pods, Pod.METADATA,
					EnumSet.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.DEDUPLICATE_STRINGS));
			case Contenders.KUBEOP_DYNAMIC -> kubeop(client(kubeconfig, requests), namespace, pods, Pod.DYNAMIC,
					EnumSet.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.DEDUPLICATE_STRINGS));
			case Contenders.CLIENT_JAVA -> official(client(kubeconfig, requests), namespace, pods, false);
			case Contenders.CLIENT_JAVA_STRIP -> official(client(kubeconfig, requests), namespace, pods, true);
			case Contenders.FABRIC8 -> fabric8(kubeconfig, namespace, pods);
			default -> throw new IllegalArgumentException("Unknown contender " + contender);
		};
		long heapBefore = usedAfterGc();
		RetainedHeapSampler initialList = peak ? RetainedHeapSampler.start() : null;
		long started = System.nanoTime();
		long cpuStarted = processCpuNanos();
		informer.start().run();
		long deadline = started + SYNC_TIME_LIMIT.toNanos();
		while (!informer.synced().getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(contender + " did not sync within " + SYNC_TIME_LIMIT);
			}
			Thread.sleep(1);
		}
		long synced = System.nanoTime();
		long cpuSynced = processCpuNanos();
		long initialPeak = (initialList != null) ? initialList.stop() : 0;
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
		if (peak) {
			result.put("initialListSamples", initialList.samples());
			result.putAll(relist(informer, requests, heapBefore, heapAfter, initialPeak, count));
		}
		System.out.println(new Gson().toJson(result));
		System.out.flush();
		// informer threads are not daemons in every client
		System.exit(0);
	}

	/**
	 * Tells the parent that the informer synced, waits for its go, then samples the
	 * retained heap from before the parent forces a relist (it restarts kube-apiserver
	 * after a write elsewhere, so that the informer's resourceVersion is older than the
	 * new watch cache) until the informer has relisted and watches again.
	 */
	private static Map<String, Object> relist(Contender informer, RequestLog requests, long heapBefore, long heapAfter,
			long initialPeak, int count) throws Exception {
		System.out.println("synced");
		System.out.flush();
		BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		if (!"relist".equals(parent.readLine())) {
			throw new IllegalStateException("The parent did not ask for a relist");
		}
		int listsBefore = requests.lists();
		RetainedHeapSampler relist = RetainedHeapSampler.start();
		System.out.println("sampling");
		System.out.flush();
		long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
		while (!(requests.lists() > listsBefore && requests.watchesAfterLastList() > 0
				&& informer.synced().getAsBoolean() && informer.cache().get().size() == count)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("No relist within 15 minutes after kube-apiserver restarted");
			}
			Thread.sleep(10);
		}
		long relistPeak = relist.stop();
		long steady = heapAfter - heapBefore;
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("steadyMiB", steady / (1024.0 * 1024.0));
		figures.put("initialListPeakMiB", (initialPeak - heapBefore) / (1024.0 * 1024.0));
		figures.put("relistPeakMiB", (relistPeak - heapBefore) / (1024.0 * 1024.0));
		figures.put("initialListPeakRatio", (initialPeak - heapBefore) / (double) steady);
		figures.put("relistPeakRatio", (relistPeak - heapBefore) / (double) steady);
		figures.put("relistSamples", (double) relist.samples());
		figures.put("relistWatchList", requests.lastListWasWatchList() ? 1.0 : 0.0);
		return figures;
	}

	/**
	 * Returns the CPU time of the whole process (every thread: the informer's, the HTTP
	 * client's, the JIT compilers' and the garbage collector's), which a shared machine
	 * does not inflate as it does wall-clock time.
	 */
	private static long processCpuNanos() {
		return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
	}

	private static ApiClient client(String kubeconfig, RequestLog requests) throws IOException {
		ApiClient client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig))).build();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(requests).build());
		client.setReadTimeout(0);
		return client;
	}

	private static Contender kubeop(ApiClient client, String namespace, boolean pods, Pod representation,
			Set<StandardTransform> transforms) {
		// every Kubeop variant but "Kubeop, JSON" keeps the default encoding, as its
		// users run it, so that each differs from "Kubeop" in the one thing it names
		return kubeop(client, namespace, pods, representation, transforms, Contenders.KUBEOP);
	}

	private static Contender kubeop(ApiClient client, String namespace, boolean pods, Pod representation,
			Set<StandardTransform> transforms, String contender) {
		InformerRegistry registry = new InformerRegistry(client);
		// discovery happens here, when the informer is registered: before the timed
		// region
		Class<? extends KubernetesObject> type = switch (representation) {
			case TYPED -> pods ? V1Pod.class : V1ConfigMap.class;
			case METADATA -> PartialObjectMetadata.class;
			case DYNAMIC -> DynamicKubernetesObject.class;
		};
		ResourceInformer<? extends KubernetesObject> informer = registry
			.informer(Contenders.encoding(contender, spec(namespace, pods ? "Pod" : "ConfigMap", type, transforms)));
		informer.addEventHandler(new NoOpHandler<>());
		return new Contender(registry::start, informer::hasSynced, () -> informer.indexer().list());
	}

	private static <T extends KubernetesObject> InformerSpec<T> spec(String namespace, String kind, Class<T> type,
			Set<StandardTransform> transforms) {
		return new InformerSpec<>("objects", "v1", kind, type, List.of(namespace), null, null, Duration.ZERO, false,
				Map.of(), InformerSpec.DEFAULT_PAGE_SIZE, InformerSpec.DEFAULT_WATCH_TIMEOUT,
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
		informer.addEventHandler(new NoOpHandler<>());
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
		if (object instanceof DynamicKubernetesObject dynamic) {
			JsonObject metadata = dynamic.getRaw().getAsJsonObject("metadata");
			return metadata != null && metadata.has("managedFields");
		}
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
		return ManyInformersProbe.statusField("VmRSS:") * 1024;
	}

	/**
	 * Samples the retained heap (used after a full GC) over and over on its own thread
	 * until stopped, and keeps the largest. Used after a full GC, rather than used at any
	 * moment or after young collections, counts only what is reachable: whether a list
	 * holds a second copy of the cache, not how much garbage G1 lets pile up in a large
	 * heap before it collects.
	 */
	private static final class RetainedHeapSampler implements Runnable {

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicLong peak = new AtomicLong();

		private final AtomicInteger samples = new AtomicInteger();

		private final Thread thread = new Thread(this, "retained-heap-sampler");

		static RetainedHeapSampler start() {
			RetainedHeapSampler sampler = new RetainedHeapSampler();
			sampler.thread.setDaemon(true);
			sampler.thread.start();
			return sampler;
		}

		@Override
		public void run() {
			while (this.running.get()) {
				System.gc();
				this.peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
				this.samples.incrementAndGet();
				try {
					// leaves the informer some time between the stops
					Thread.sleep(50);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		/**
		 * Stops sampling, after one last sample.
		 * @return the largest retained heap sampled, bytes
		 */
		long stop() throws InterruptedException {
			this.running.set(false);
			this.thread.join();
			System.gc();
			return this.peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
		}

		int samples() {
			return this.samples.get();
		}

	}

	/**
	 * Counts the lists (paged lists and watch-lists) and the plain watches of the
	 * informer's resource, so that the end of a relist is known for every client alike:
	 * an informer opens its watch only once it has replaced its cache with the new list.
	 */
	private static final class RequestLog implements Interceptor {

		private final String plural;

		private final AtomicInteger lists = new AtomicInteger();

		private final AtomicInteger watchesAfterLastList = new AtomicInteger();

		private volatile boolean lastListWasWatchList;

		RequestLog(String plural) {
			this.plural = plural;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			if (url.encodedPath().endsWith("/" + this.plural)) {
				boolean watch = "true".equals(url.queryParameter("watch"));
				boolean watchList = watch && "true".equals(url.queryParameter("sendInitialEvents"));
				if (!watch || watchList) {
					// a paged list's later pages carry a continue token
					if (url.queryParameter("continue") == null) {
						this.lastListWasWatchList = watchList;
						this.watchesAfterLastList.set(0);
						this.lists.incrementAndGet();
						if (watchList) {
							// a watch-list goes on as the watch
							this.watchesAfterLastList.incrementAndGet();
						}
					}
				}
				else {
					this.watchesAfterLastList.incrementAndGet();
				}
			}
			return chain.proceed(chain.request());
		}

		int lists() {
			return this.lists.get();
		}

		int watchesAfterLastList() {
			return this.watchesAfterLastList.get();
		}

		boolean lastListWasWatchList() {
			return this.lastListWasWatchList;
		}

	}

	/**
	 * How Kubeop's informer represents the objects.
	 */
	private enum Pod {

		TYPED, METADATA, DYNAMIC

	}

	/**
	 * A contender ready to start: what starts it, its own synced probe, and its cache.
	 */
	private record Contender(Runnable start, BooleanSupplier synced, Supplier<Collection<?>> cache) {

	}

}
