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

package io.github.kubeop.informer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.actuate.InformersEndpoint;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link ResourceInformer} promises its cache and its raw handlers, against a real
 * API server: each handler gets one ordered delivery that never blocks the watch, a
 * handler added during churn misses nothing and sees nothing twice, and an index function
 * that throws leaves its object out of that index only.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ResourceInformerIntegrationTests {

	@Test
	void handlerCallsForOneKeyAreOrderedAcrossNamespaceLoopsResyncAndLateRegistration(ControlPlane controlPlane,
			ApiClient admin, TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		String first = createNamespace(api, namespace.name() + "-order-a");
		String second = createNamespace(api, namespace.name() + "-order-b");
		List<String> namespaces = List.of(first, second);
		for (String ns : namespaces) {
			for (int i = 0; i < 40; i++) {
				create(api, ns, "object-" + i);
			}
		}
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		// two namespaces: two list-and-watch loops; a resync every 500 ms: a third thread
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("ordered", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(first, second)
				.withResyncPeriod(Duration.ofMillis(500)));
		// a handler that takes a moment per call, as real ones do
		OrderRecorder early = new OrderRecorder(true);
		informer.addEventHandler(early);
		registry.start();
		ExecutorService writers = Executors.newFixedThreadPool(4);
		try {
			await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
			CountDownLatch halfway = new CountDownLatch(2);
			List<Future<?>> writes = new ArrayList<>();
			for (String ns : namespaces) {
				for (int part = 0; part < 2; part++) {
					int offset = part;
					writes.add(writers.submit(() -> {
						for (int round = 1; round <= 12; round++) {
							// keys are split between writers: no write conflicts
							for (int i = offset; i < 40; i += 2) {
								update(api, ns, "object-" + i, Integer.toString(round));
							}
							create(api, ns, "created-" + offset + "-" + round);
							if (round == 6) {
								halfway.countDown();
							}
						}
						return null;
					}));
				}
			}
			assertThat(halfway.await(60, TimeUnit.SECONDS)).isTrue();
			OrderRecorder late = new OrderRecorder(false);
			informer.addEventHandler(late);
			for (Future<?> write : writes) {
				write.get(120, TimeUnit.SECONDS);
			}
			// sentinels: written after everything else in each namespace, so once a
			// handler
			// has seen both, it has been told of every earlier change
			for (String ns : namespaces) {
				create(api, ns, "sentinel");
			}
			for (OrderRecorder recorder : List.of(early, late)) {
				await().atMost(Duration.ofSeconds(60))
					.until(() -> recorder.last.containsKey(first + "/sentinel")
							&& recorder.last.containsKey(second + "/sentinel"));
			}
			Map<String, String> truth = new HashMap<>();
			for (String ns : namespaces) {
				for (V1ConfigMap configMap : api.listNamespacedConfigMap(ns).execute().getItems()) {
					truth.put(ResourceInformer.key(configMap), configMap.getMetadata().getResourceVersion());
				}
			}
			assertThat(truth).hasSize(2 * (40 + 2 * 12 + 1));
			for (OrderRecorder recorder : List.of(early, late)) {
				assertThat(recorder.violations).as("calls out of order or at once").isEmpty();
				assertThat(recorder.last).as("every key's last delivered state").isEqualTo(truth);
				assertThat(recorder.adds).as("adds per key").hasSameSizeAs(truth).allSatisfy((key, adds) -> {
					assertThat(adds.get()).as("adds of %s", key).isEqualTo(1);
				});
			}
			assertThat(early.resyncs.get()).as("resyncs seen").isPositive();
		}
		finally {
			writers.shutdownNow();
			registry.stop();
			deleteNamespaces(api, namespaces);
		}
	}

	@Test
	void blockedHandlerHoldsUpNeitherTheCacheNorOtherHandlers(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		String ns = createNamespace(api, namespace.name() + "-blocked");
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("blocked", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(ns));
		CountDownLatch release = new CountDownLatch(1);
		List<String> blockedSaw = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
				blockedSaw.add(obj.getMetadata().getName());
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
			}

		});
		OrderRecorder other = new OrderRecorder(false);
		informer.addEventHandler(other);
		registry.start();
		try {
			await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
			create(api, ns, "first");
			await().atMost(Duration.ofSeconds(10)).until(() -> blockedSaw.contains("first"));
			create(api, ns, "second");
			update(api, ns, "first", "2");
			String firstVersion = api.readNamespacedConfigMap("first", ns).execute().getMetadata().getResourceVersion();
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				assertThat(informer.lister().namespace(ns).get("second")).as("cache while a handler blocks")
					.isNotNull();
				assertThat(informer.lister().namespace(ns).get("first").getMetadata().getResourceVersion())
					.isEqualTo(firstVersion);
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> firstVersion.equals(other.last.get(ns + "/first"))
						&& other.last.containsKey(ns + "/second"));
			assertThat(blockedSaw).containsExactly("first");
			release.countDown();
			await().atMost(Duration.ofSeconds(10)).until(() -> blockedSaw.size() == 2);
			assertThat(blockedSaw).containsExactly("first", "second");
			assertThat(other.violations).isEmpty();
		}
		finally {
			release.countDown();
			registry.stop();
			deleteNamespaces(api, List.of(ns));
		}
	}

	@Test
	void addsOfTheInitialListAreToldFromAddsThatAWatchBrings(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		String ns = createNamespace(api, namespace.name() + "-initial");
		create(api, ns, "listed");
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("initial", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(ns));
		Map<String, Boolean> early = new ConcurrentHashMap<>();
		informer.addEventHandler(initialListRecorder(early));
		registry.start();
		try {
			await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
			create(api, ns, "watched");
			await().atMost(Duration.ofSeconds(30)).until(() -> early.containsKey("watched"));
			assertThat(early).containsExactlyInAnyOrderEntriesOf(Map.of("listed", true, "watched", false));
			// a handler added later is told of the cached objects first: all in its
			// initial list, however they reached the cache
			Map<String, Boolean> late = new ConcurrentHashMap<>();
			informer.addEventHandler(initialListRecorder(late));
			create(api, ns, "after");
			await().atMost(Duration.ofSeconds(30)).until(() -> late.containsKey("after"));
			assertThat(late)
				.containsExactlyInAnyOrderEntriesOf(Map.of("listed", true, "watched", true, "after", false));
		}
		finally {
			registry.stop();
			deleteNamespaces(api, List.of(ns));
		}
	}

	private static InitialListAwareEventHandler<V1ConfigMap> initialListRecorder(Map<String, Boolean> adds) {
		return new InitialListAwareEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap object, boolean inInitialList) {
				adds.put(object.getMetadata().getName(), inInitialList);
			}

			@Override
			public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
			}

			@Override
			public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
			}

		};
	}

	@Test
	void indexFunctionThatThrowsLeavesItsObjectOutOfThatIndexOnly(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		String ns = createNamespace(api, namespace.name() + "-index");
		// listed by the initial list, which must not throw
		create(api, ns, "poison-listed", Map.of("team", "a"));
		create(api, ns, "healthy", Map.of("team", "a"));
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("indexed", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(ns)
				.withIndexer("team", (configMap) -> {
					if (configMap.getMetadata().getName().startsWith("poison")) {
						throw new IllegalStateException("cannot index " + configMap.getMetadata().getName());
					}
					return List.of(configMap.getMetadata().getLabels().get("team"));
				})
				.withIndexer("name", (configMap) -> List.of(configMap.getMetadata().getName())));
		registry.start();
		try {
			await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
			// a watch event for a poisoned object, then a change to it, then a sentinel
			create(api, ns, "poison-watched", Map.of("team", "a"));
			update(api, ns, "poison-listed", "2");
			String changed = api.readNamespacedConfigMap("poison-listed", ns)
				.execute()
				.getMetadata()
				.getResourceVersion();
			create(api, ns, "sentinel", Map.of("team", "b"));
			await().atMost(Duration.ofSeconds(10)).until(() -> informer.indexer().getByKey(ns + "/sentinel") != null);
			IndexLookup indexer = new IndexLookup(informer);
			assertThat(indexer.names("team", "a")).containsExactly("healthy");
			assertThat(indexer.names("team", "b")).containsExactly("sentinel");
			assertThat(indexer.names("name", "poison-watched")).containsExactly("poison-watched");
			assertThat(indexer.names("name", "poison-listed")).containsExactly("poison-listed");
			assertThat(informer.lister().namespace(ns).list()).hasSize(4);
			assertThat(informer.indexer().getByKey(ns + "/poison-listed").getMetadata().getResourceVersion())
				.as("the change to a poisoned object was not skipped")
				.isEqualTo(changed);
			assertThat(informer.indexer().getByKey(ns + "/poison-watched")).isNotNull();
			InformerStatus status = informer.status();
			// listed, watched, changed: three failed calls, two objects left out
			assertThat(status.indexFailures()).isEqualTo(3);
			assertThat(status.objectsLeftOutOfIndexes()).containsExactly(Map.entry("team", 2));
			assertThat(status.state()).isEqualTo(WatchState.WATCHING);
			assertThat(status.lastError()).isNull();
			Map<String, Object> described = informerEntry(registry);
			assertThat(described).containsEntry("indexFailures", 3L)
				.containsEntry("objectsLeftOutOfIndexes", Map.of("team", 2));
			// a relist of the same objects does not throw either
			informer.replace(ns, informer.lister().namespace(ns).list(), java.util.Set.of());
			api.deleteNamespacedConfigMap("poison-watched", ns).execute();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> informer.indexer().getByKey(ns + "/poison-watched") == null);
			assertThat(informer.status().objectsLeftOutOfIndexes()).containsExactly(Map.entry("team", 1));
		}
		finally {
			registry.stop();
			deleteNamespaces(api, List.of(ns));
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> informerEntry(InformerRegistry registry) {
		InformersEndpoint endpoint = new InformersEndpoint(registry,
				new DefaultListableBeanFactory().getBeanProvider(HandlerRegistrar.class));
		List<Map<String, Object>> informers = (List<Map<String, Object>>) endpoint.informers().get("informers");
		assertThat(informers).hasSize(1);
		return informers.get(0);
	}

	private static String createNamespace(CoreV1Api api, String name) throws ApiException {
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
		return name;
	}

	private static void deleteNamespaces(CoreV1Api api, List<String> names) {
		for (String name : names) {
			try {
				api.deleteNamespace(name).execute();
			}
			catch (ApiException ex) {
				// best effort: the control plane is the run's
			}
		}
	}

	private static void create(CoreV1Api api, String namespace, String name) throws ApiException {
		create(api, namespace, name, Map.of());
	}

	private static void create(CoreV1Api api, String namespace, String name, Map<String, String> labels)
			throws ApiException {
		api.createNamespacedConfigMap(namespace,
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(Map.of("v", "0")))
			.execute();
	}

	private static void update(CoreV1Api api, String namespace, String name, String version) throws ApiException {
		V1ConfigMap current = api.readNamespacedConfigMap(name, namespace).execute();
		current.setData(Map.of("v", version));
		api.replaceNamespacedConfigMap(name, namespace, current).execute();
	}

	private static long resourceVersion(V1ConfigMap configMap) {
		// etcd's revisions, which a real API server hands out in order
		return Long.parseLong(configMap.getMetadata().getResourceVersion());
	}

	/**
	 * Looks names up by index.
	 */
	private record IndexLookup(ResourceInformer<V1ConfigMap> informer) {

		List<String> names(String index, String value) {
			return this.informer.indexer()
				.byIndex(index, value)
				.stream()
				.map((configMap) -> configMap.getMetadata().getName())
				.toList();
		}

	}

	/**
	 * Records, per key, the last state delivered and whether any call broke the order: an
	 * update whose old state is not the state delivered last, a resourceVersion that goes
	 * back, an add of a key already added, two calls for a key at once.
	 */
	static final class OrderRecorder implements ResourceEventHandler<V1ConfigMap> {

		final Map<String, String> last = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> adds = new ConcurrentHashMap<>();

		final List<String> violations = new CopyOnWriteArrayList<>();

		final AtomicInteger resyncs = new AtomicInteger();

		private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

		private final boolean slow;

		OrderRecorder(boolean slow) {
			this.slow = slow;
		}

		@Override
		public void onAdd(V1ConfigMap obj) {
			String key = ResourceInformer.key(obj);
			enter(key);
			if (this.last.containsKey(key)) {
				this.violations.add("add of " + key + " already delivered at " + this.last.get(key));
			}
			this.adds.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			this.last.put(key, obj.getMetadata().getResourceVersion());
			leave(key);
		}

		@Override
		public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
			String key = ResourceInformer.key(newObj);
			enter(key);
			String delivered = this.last.get(key);
			if (delivered == null) {
				this.violations.add("update of " + key + " before its add");
			}
			else if (!delivered.equals(oldObj.getMetadata().getResourceVersion())) {
				this.violations.add("update of " + key + " from " + oldObj.getMetadata().getResourceVersion()
						+ " after " + delivered + " was delivered");
			}
			if (resourceVersion(newObj) < resourceVersion(oldObj)) {
				this.violations.add("update of " + key + " goes back");
			}
			if (resourceVersion(newObj) == resourceVersion(oldObj)) {
				this.resyncs.incrementAndGet();
			}
			this.last.put(key, newObj.getMetadata().getResourceVersion());
			leave(key);
		}

		@Override
		public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
			String key = ResourceInformer.key(obj);
			enter(key);
			this.last.remove(key);
			leave(key);
		}

		private void enter(String key) {
			if (this.inFlight.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
				this.violations.add("two calls for " + key + " at once");
			}
			if (this.slow) {
				try {
					Thread.sleep(1);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

		private void leave(String key) {
			this.inFlight.get(key).decrementAndGet();
		}

	}

}
