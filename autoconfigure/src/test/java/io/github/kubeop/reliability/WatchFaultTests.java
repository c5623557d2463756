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

package io.github.kubeop.reliability;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ListStrategy;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.util.PatchUtils;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults between the operator and the API server, injected with a loopback TCP proxy: cut
 * connections, a stalled (half-open) watch, a watch resumed after its resourceVersion was
 * compacted away (410 Gone), and a paged list whose continue token expired. After each,
 * every final state reaches the handlers, every deleted object gets {@code @OnDelete},
 * and no key runs twice at once: each call takes {@link #CALL_TIME}, and keys get bursts
 * of events while their calls run.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WatchFaultTests {

	/**
	 * A control plane of its own for the faults that need etcd itself: no watch cache, so
	 * lists are paged by etcd, watches read etcd, and no bookmarks come; and a compaction
	 * every second, so that old resourceVersions and continue tokens expire.
	 */
	private static LocalControlPlane etcdBacked;

	/**
	 * How long each handler call of the recorder takes: a call for a key that another
	 * worker still handles would be seen.
	 */
	private static final Duration CALL_TIME = Duration.ofMillis(100);

	static synchronized LocalControlPlane etcdBacked(ControlPlane shared) {
		assumeThat(shared).isInstanceOf(LocalControlPlane.class);
		if (etcdBacked == null) {
			etcdBacked = CompactingControlPlane.start();
		}
		return etcdBacked;
	}

	@AfterAll
	static synchronized void stopEtcdBacked() {
		if (etcdBacked != null) {
			etcdBacked.close();
			etcdBacked = null;
		}
	}

	private static ApplicationContextRunner runner(ApiClient client, String namespace, String... properties) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
					KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withBean(Recorder.class, () -> new Recorder(CALL_TIME))
			.withPropertyValues("kubeop.informers.namespaces=" + namespace, "kubeop.handlers.workers=4",
					"kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap")
			.withPropertyValues(properties);
	}

	@Test
	void cutAndStalledWatchesHealWithEveryFinalStateAndDelete(ControlPlane controlPlane, ApiClient direct,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			// no bookmark comes within the test, so only the HTTP/2 ping can find the
			// stalled connection
			runner(controlPlane.apiClientVia(proxy.url()), namespace.name(), "kubeop.informers.ping-interval=1s")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					Recorder recorder = context.getBean(Recorder.class);
					ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
					for (int i = 0; i < 20; i++) {
						create(api, namespace.name(), "object-" + i, "1");
					}
					// the test's objects: K3s adds kube-root-ca.crt to every namespace
					await().atMost(Duration.ofSeconds(20))
						.until(() -> recorder.lastVersion.keySet()
							.stream()
							.filter((name) -> name.startsWith("object-"))
							.count() == 20);

					proxy.cut();
					for (int i = 0; i < 10; i++) {
						update(api, namespace.name(), "object-" + i, "2");
					}
					for (int i = 10; i < 15; i++) {
						api.deleteNamespacedConfigMap("object-" + i, namespace.name()).execute();
					}
					for (int i = 0; i < 5; i++) {
						create(api, namespace.name(), "created-during-cut-" + i, "1");
					}
					await().atMost(Duration.ofSeconds(10))
						.until(() -> informer.status().state() == WatchState.RECONNECTING);
					proxy.restore();
					awaitConverged(api, namespace.name(), recorder, informer);
					assertThat(recorder.deleted).containsExactlyInAnyOrderElementsOf(
							IntStream.range(10, 15).mapToObj((i) -> "object-" + i).collect(Collectors.toSet()));
					burst(api, namespace.name(), 10, "2b");
					awaitConverged(api, namespace.name(), recorder, informer);

					proxy.stall();
					long stalled = System.nanoTime();
					update(api, namespace.name(), "object-0", "3");
					api.deleteNamespacedConfigMap("object-1", namespace.name()).execute();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> informer.status().state() == WatchState.RECONNECTING);
					Duration detection = Duration.ofNanos(System.nanoTime() - stalled);
					Figures.record("stalled watch", "detected after " + detection.toMillis()
							+ " ms by HTTP/2 ping with kubeop.informers.ping-interval=1s (default 30s)");
					proxy.restore();
					awaitConverged(api, namespace.name(), recorder, informer);
					assertThat(recorder.lastVersion).containsEntry("object-0", "3");
					assertThat(recorder.deleted).contains("object-1");
					assertThat(recorder.overlaps).as("keys handled by two workers at once").isEmpty();
				});
		}
	}

	@Test
	void silentWatchIsTakenForDeadOnceABookmarkHasCome(ControlPlane controlPlane, ApiClient direct,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			InformerRegistry registry = new InformerRegistry(controlPlane.apiClientVia(proxy.url()));
			// no pings: only silence can find the stalled connection
			ResourceInformer<V1ConfigMap> informer = registry
				.informer(InformerSpec.of("silent", "v1", "ConfigMap", V1ConfigMap.class)
					.withNamespaces(namespace.name())
					.withWatchTimeouts(InformerSpec.DEFAULT_WATCH_TIMEOUT, Duration.ofSeconds(2))
					.withPingInterval(Duration.ZERO));
			registry.start();
			try {
				registry.awaitSync(Duration.ofSeconds(30));
				String listed = informer.status().lastResourceVersion();
				// a config map written elsewhere moves the watch cache on, so that the
				// bookmark it sends every minute carries a newer resourceVersion than the
				// list
				String elsewhere = "bookmark-" + namespace.name();
				api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(elsewhere))).execute();
				create(api, elsewhere, "moved-on", "1");
				await().atMost(Duration.ofSeconds(90))
					.until(() -> !listed.equals(informer.status().lastResourceVersion()));
				assertThat(informer.status().watchRestarts()).as("quiet before the first bookmark").isZero();
				proxy.stall();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> informer.status().state() == WatchState.RECONNECTING);
				proxy.restore();
				create(api, namespace.name(), "after-silence", "1");
				await().atMost(Duration.ofSeconds(30))
					.until(() -> informer.lister().namespace(namespace.name()).get("after-silence") != null);
			}
			finally {
				registry.stop();
			}
		}
	}

	@Test
	void listCutBetweenPagesIsListedAgainWithoutLossOrDuplicates(ControlPlane shared) throws Exception {
		LocalControlPlane controlPlane = etcdBacked(shared);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		// a namespace of its own: the other tests count the objects in the class's
		// namespace
		String namespace = "paged-list-cut";
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> creates = new ArrayList<>();
			for (int i = 0; i < 1000; i++) {
				String name = "paged-" + i;
				creates.add(executor.submit(() -> {
					create(api, namespace, name, "1");
					return null;
				}));
			}
			for (Future<?> create : creates) {
				create.get();
			}
		}
		finally {
			executor.shutdown();
		}
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			HeldPage heldPage = new HeldPage(10);
			ApiClient client = controlPlane.apiClientVia(proxy.url());
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(heldPage).build());
			InformerRegistry registry = new InformerRegistry(client);
			registry.setListStrategy(ListStrategy.LIST);
			// pages of 2 from etcd: 500 requests, each with the next one already
			// requested
			ResourceInformer<V1ConfigMap> informer = registry
				.informer(InformerSpec.of("paged", "v1", "ConfigMap", V1ConfigMap.class)
					.withNamespaces(namespace)
					.withPageSize(2));
			Set<String> added = ConcurrentHashMap.newKeySet();
			AtomicBoolean addedTwice = new AtomicBoolean();
			informer.addEventHandler(new ResourceEventHandler<>() {

				@Override
				public void onAdd(V1ConfigMap obj) {
					if (!added.add(obj.getMetadata().getName())) {
						addedTwice.set(true);
					}
				}

				@Override
				public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
				}

				@Override
				public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				}

			});
			registry.start();
			try {
				assertThat(heldPage.held.await(30, TimeUnit.SECONDS)).as("the 10th page is requested").isTrue();
				assertThat(informer.status().synced()).as("the first list waits for its 10th page").isFalse();
				proxy.cut();
				heldPage.release.countDown();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> informer.status().state() == WatchState.RECONNECTING);
				assertThat(informer.status().synced()).as("the list cut between pages is not taken").isFalse();
				proxy.restore();
				await().atMost(Duration.ofSeconds(60))
					.until(() -> informer.status().synced() && informer.status().state() == WatchState.WATCHING);
				assertThat(informer.lister().list()).hasSize(1000);
				assertThat(added).hasSize(1000);
				assertThat(addedTwice).isFalse();
			}
			finally {
				registry.stop();
			}
		}
	}

	@Test
	void compactedResourceVersionIsHealedByARelistWithoutLoss(ControlPlane shared) throws Exception {
		// no watch cache: a resumed watch reaches etcd, which has compacted the old
		// resourceVersion away (410 Gone)
		LocalControlPlane controlPlane = etcdBacked(shared);
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			ApiClient direct = controlPlane.apiClient();
			CoreV1Api api = new CoreV1Api(direct);
			api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("compacted"))).execute();
			for (int i = 0; i < 10; i++) {
				create(api, "compacted", "object-" + i, "1");
			}
			runner(controlPlane.apiClientVia(proxy.url()), "compacted").run((context) -> {
				assertThat(context).hasNotFailed();
				Recorder recorder = context.getBean(Recorder.class);
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				await().atMost(Duration.ofSeconds(20)).until(() -> recorder.lastVersion.size() == 10);
				long relistsBefore = informer.status().relists();
				String watchedFrom = informer.status().lastResourceVersion();
				proxy.cut();
				for (int round = 2; round <= 5; round++) {
					for (int i = 0; i < 10; i++) {
						update(api, "compacted", "object-" + i, Integer.toString(round));
					}
				}
				api.deleteNamespacedConfigMap("object-9", "compacted").execute();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> CompactingControlPlane.isCompacted(controlPlane.apiClient(), "compacted",
							Long.toString(Long.parseLong(watchedFrom) + 1)));
				proxy.restore();
				awaitConverged(api, "compacted", recorder, informer);
				long relists = informer.status().relists() - relistsBefore;
				Figures.record("410 Gone after compaction", relists + " relist(s) after the cut, "
						+ informer.status().watchRestarts() + " watch restarts in all");
				assertThat(relists).as("one relist, after the resumed watch's 410").isEqualTo(1);
				assertThat(recorder.lastVersion).hasSize(9)
					.allSatisfy((key, version) -> assertThat(version).isEqualTo("5"));
				assertThat(recorder.deleted).containsExactly("object-9");
				burst(api, "compacted", 9, "6");
				awaitConverged(api, "compacted", recorder, informer);
				assertThat(recorder.lastVersion).allSatisfy((key, version) -> assertThat(version).isEqualTo("6"));
				assertThat(recorder.overlaps).as("keys handled by two workers at once").isEmpty();
			});
		}
	}

	@Test
	void pagedListWhoseContinueTokenExpiredIsListedInOnePiece(ControlPlane shared) throws Exception {
		LocalControlPlane controlPlane = etcdBacked(shared);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		String namespace = "expired-continue";
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("churn"))).execute();
		for (int i = 0; i < 20; i++) {
			create(api, namespace, "object-" + i, "1");
		}
		// every continue token expires before it is used: a list slower than etcd's
		// compaction window
		ExpiringContinue expiring = new ExpiringContinue(controlPlane.apiClient(), api);
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(expiring).build());
		InformerRegistry registry = new InformerRegistry(client);
		// pages are what this test is about
		registry.setListStrategy(ListStrategy.LIST);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("expired", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withPageSize(2));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(60));
			assertThat(informer.lister().list()).hasSize(20);
			assertThat(expiring.lists).as("first page, expired continue (410), one list in one piece")
				.extracting((url) -> url.queryParameter("limit"), (url) -> url.queryParameter("continue") != null,
						(url) -> url.queryParameter("resourceVersion"))
				.containsExactly(tuple("2", false, null), tuple("2", true, null), tuple(null, false, null));
			assertThat(expiring.expired).hasValue(1);
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void quietWatchWithoutBookmarksIsNotTakenForDead(ControlPlane shared) throws Exception {
		// no watch cache, so no bookmarks: silence proves nothing, and a stall
		// timeout far below the bookmark interval must not restart the quiet watch
		LocalControlPlane controlPlane = etcdBacked(shared);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		String namespace = "quiet";
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		create(api, namespace, "before", "1");
		Duration stallTimeout = Duration.ofSeconds(2);
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("quiet", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withWatchTimeouts(InformerSpec.DEFAULT_WATCH_TIMEOUT, stallTimeout));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			// the silence under test: three stall timeouts without an event
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.nanosSinceLastEvent() > stallTimeout.multipliedBy(3).toNanos());
			create(api, namespace, "sentinel", "1");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.lister().namespace(namespace).get("sentinel") != null);
			assertThat(informer.status().watchRestarts()).as("watches reopened during the silence").isZero();
			assertThat(informer.status().state()).isEqualTo(WatchState.WATCHING);
		}
		finally {
			registry.stop();
		}
	}

	static void awaitConverged(CoreV1Api api, String namespace, Recorder recorder, ResourceInformer<?> informer) {
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			Map<String, String> truth = new HashMap<>();
			Map<String, String> versions = new HashMap<>();
			for (V1ConfigMap configMap : api.listNamespacedConfigMap(namespace).execute().getItems()) {
				truth.put(configMap.getMetadata().getName(), configMap.getMetadata().getResourceVersion());
				// as the recorder does: an object without "v" (kube-root-ca.crt, which a
				// cluster with a controller-manager such as K3s adds) is recorded as ""
				String version = (configMap.getData() != null) ? configMap.getData().get("v") : null;
				versions.put(configMap.getMetadata().getName(), (version != null) ? version : "");
			}
			Map<String, String> cached = new HashMap<>();
			informer.indexer()
				.list()
				.forEach((object) -> cached.put(object.getMetadata().getName(),
						object.getMetadata().getResourceVersion()));
			assertThat(cached).as("cache equals a fresh list").isEqualTo(truth);
			assertThat(recorder.lastVersion).as("handlers saw every final state").isEqualTo(versions);
			Set<String> gone = new java.util.HashSet<>(recorder.deleted);
			gone.retainAll(truth.keySet());
			assertThat(gone).as("deleted keys that exist").isEmpty();
		});
	}

	/**
	 * Changes each of the first {@code count} objects five times at once, from five
	 * writers, then sets their {@code v} to {@code version}. The API server takes the
	 * changes of one object one after the other, so on a healed watch the later ones come
	 * while the call for an earlier one runs (a burst replayed by a resumed watch would
	 * instead be merged in the queue before a worker takes the key); {@code v} is the
	 * sentinel that tells when the burst was handled.
	 */
	private static void burst(CoreV1Api api, String namespace, int count, String version) throws Exception {
		Writers.parallel(count * 5,
				(i) -> patchData(api, namespace, "object-" + (i / 5), "burst", Integer.toString(i)));
		for (int i = 0; i < count; i++) {
			patchData(api, namespace, "object-" + i, "v", version);
		}
	}

	/**
	 * Sets one data entry with a merge patch: one request, and no resourceVersion, so
	 * that writers of one key do not conflict.
	 */
	static void patchData(CoreV1Api api, String namespace, String name, String key, String value) throws ApiException {
		PatchUtils.patch(V1ConfigMap.class,
				() -> api
					.patchNamespacedConfigMap(name, namespace,
							new V1Patch("{\"data\":{\"" + key + "\":\"" + value + "\"}}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, api.getApiClient());
	}

	static void create(CoreV1Api api, String namespace, String name, String version) throws ApiException {
		api.createNamespacedConfigMap(namespace,
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", version)))
			.execute();
	}

	static void update(CoreV1Api api, String namespace, String name, String version) throws ApiException {
		V1ConfigMap current = api.readNamespacedConfigMap(name, namespace).execute();
		current.setData(Map.of("v", version));
		api.replaceNamespacedConfigMap(name, namespace, current).execute();
	}

	/**
	 * Holds the n-th continue request of a list until released.
	 */
	private static final class HeldPage implements Interceptor {

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		private final AtomicInteger continues = new AtomicInteger();

		private final int page;

		HeldPage(int page) {
			this.page = page;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			if (chain.request().url().queryParameter("continue") != null
					&& this.continues.incrementAndGet() == this.page - 1) {
				this.held.countDown();
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new InterruptedIOException();
				}
			}
			return chain.proceed(chain.request());
		}

	}

	/**
	 * Lets every continue token of a config map list expire before it is used: writes
	 * elsewhere until etcd has compacted the token's resourceVersion away; records the
	 * list requests.
	 */
	private static final class ExpiringContinue implements Interceptor {

		private final List<HttpUrl> lists = new CopyOnWriteArrayList<>();

		private final AtomicInteger expired = new AtomicInteger();

		private final ApiClient direct;

		private final CoreV1Api api;

		private final AtomicInteger churn = new AtomicInteger();

		ExpiringContinue(ApiClient direct, CoreV1Api api) {
			this.direct = direct;
			this.api = api;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			if (!url.encodedPath().endsWith("/configmaps") || url.queryParameter("watch") != null) {
				return chain.proceed(chain.request());
			}
			this.lists.add(url);
			if (url.queryParameter("continue") != null) {
				await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
					create(this.api, "churn", "churn-" + this.churn.incrementAndGet(), "1");
					return isExpired(url);
				});
			}
			Response response = chain.proceed(chain.request());
			if (response.code() == 410) {
				this.expired.incrementAndGet();
			}
			return response;
		}

		private boolean isExpired(HttpUrl url) throws IOException {
			try (Response response = this.direct.getHttpClient()
				.newCall(this.direct
					.buildCall(url.toString(), "", "GET", new ArrayList<>(), new ArrayList<>(), null, new HashMap<>(),
							new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null)
					.request())
				.execute()) {
				return response.code() == 410;
			}
			catch (ApiException ex) {
				throw new IOException(ex);
			}
		}

	}

}
