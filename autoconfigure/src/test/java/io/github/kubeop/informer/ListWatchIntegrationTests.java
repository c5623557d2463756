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

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import com.google.gson.Gson;
import com.google.gson.JsonParser;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.Okio;
import okio.Source;
import okio.Timeout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the list-and-watch loop against a real API server: it survives an
 * {@link Error}, discards a list cut short by {@code stop()}, and treats a watch that
 * ends at once as a failure whose back-off a successful reconnect does not reset.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ListWatchIntegrationTests {

	private static final ResourceKind CONFIG_MAPS = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);

	@Test
	void errorThrownInTheLoopIsSurvivedByListingAgain(ControlPlane controlPlane, ApiClient direct) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = namespace(api, "loop-error");
		create(api, namespace, "before");
		AtomicBoolean thrown = new AtomicBoolean();
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer;
		Gson gson = JSON.getGson();
		// the client's Gson is the seam a user has to convert objects: one that throws an
		// Error once, as an OutOfMemoryError while converting a listed object would
		JSON.setGson(gson.newBuilder().registerTypeAdapterFactory(new ErrorOnce("poison", thrown)).create());
		try {
			informer = registry.informer(
					InformerSpec.of("loop-error", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace));
		}
		finally {
			JSON.setGson(gson);
		}
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			create(api, namespace, "poison");
			create(api, namespace, "sentinel");
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(informer.lister().list())
					.extracting((object) -> object.getMetadata().getName())
					.containsExactlyInAnyOrder("before", "poison", "sentinel"));
			assertThat(thrown).as("the Error was thrown").isTrue();
			assertThat(informer.status().relists()).as("the initial list and the one after the Error").isEqualTo(2);
			assertThat(informer.status().state()).isEqualTo(WatchState.WATCHING);
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void relistStoppedBetweenPagesIsDiscarded(ControlPlane controlPlane, ApiClient direct) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = namespace(api, "stopped-relist");
		for (int i = 0; i < 40; i++) {
			create(api, namespace, "item-" + i);
		}
		BlockingListPage blockingPage = new BlockingListPage();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(blockingPage).build());
		InformerRegistry registry = new InformerRegistry(client);
		// pages are what this test is about
		registry.setListStrategy(ListStrategy.LIST);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("stopped-relist", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withPageSize(2)
				// the test reads and splits the pages' JSON; protobuf's paged lists are
				// ProtobufInformerIntegrationTests'
				.withEncoding(InformerSpec.Encoding.JSON));
		List<String> deleted = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				deleted.add(obj.getMetadata().getName());
			}

		});
		registry.start();
		registry.awaitSync(Duration.ofSeconds(30));
		registry.stop();
		// started again, the loop relists at its last resourceVersion, in pages of 2 the
		// watch cache serves; the first page stops mid-body until the loop is stopped
		blockingPage.arm();
		registry.start();
		assertThat(blockingPage.blocked.await(30, TimeUnit.SECONDS)).as("the relist's first page is being read")
			.isTrue();
		assertThat(blockingPage.url.queryParameter("resourceVersionMatch")).as("served by the watch cache")
			.isEqualTo("NotOlderThan");
		assertThat(blockingPage.firstPage).contains("\"continue\"");
		registry.stop();
		assertThat(Thread.getAllStackTraces().keySet())
			.noneMatch((thread) -> thread.getName().equals("kubeop-informer-stopped-relist-" + namespace));
		assertThat(deleted).as("objects taken for deleted").isEmpty();
		assertThat(informer.lister().list()).hasSize(40);
		assertThat(informer.status().relists()).as("only the completed initial list").isEqualTo(1);
	}

	@Test
	void initialListStoppedBetweenPagesIsDiscarded(ControlPlane controlPlane, ApiClient direct) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = namespace(api, "stopped-list");
		for (int i = 0; i < 40; i++) {
			create(api, namespace, "item-" + i);
		}
		BlockingListPage blockingPage = new BlockingListPage();
		blockingPage.arm();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(blockingPage).build());
		InformerRegistry registry = new InformerRegistry(client);
		// pages are what this test is about
		registry.setListStrategy(ListStrategy.LIST);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("stopped-list", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withPageSize(2)
				// the test reads and splits the pages' JSON; protobuf's paged lists are
				// ProtobufInformerIntegrationTests'
				.withEncoding(InformerSpec.Encoding.JSON));
		List<String> added = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
				added.add(obj.getMetadata().getName());
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
			}

		});
		registry.start();
		assertThat(blockingPage.blocked.await(30, TimeUnit.SECONDS)).as("the first page is being read").isTrue();
		assertThat(blockingPage.firstPage).contains("\"continue\"");
		registry.stop();
		assertThat(Thread.getAllStackTraces().keySet())
			.noneMatch((thread) -> thread.getName().equals("kubeop-informer-stopped-list-" + namespace));
		assertThat(informer.hasSynced()).as("synced").isFalse();
		assertThat(informer.lister().list()).as("cached").isEmpty();
		assertThat(added).as("objects added").isEmpty();
	}

	@Test
	void veryShortWatchesBackOffWithoutResetBetweenThem(ControlPlane controlPlane, ApiClient direct) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = namespace(api, "short-watch");
		create(api, namespace, "before");
		ShortWatches shortWatches = new ShortWatches(3);
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(shortWatches).build());
		ResourceInformer<V1ConfigMap> informer = new ResourceInformer<>(
				InformerSpec.of("short-watch", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace),
				CONFIG_MAPS, client, ListStrategy.LIST);
		ListWatch<V1ConfigMap> listWatch = new ListWatch<>(informer, client, namespace);
		listWatch.start();
		try {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> listWatch.state() == WatchState.RECONNECTING && listWatch.lastError() != null
						&& listWatch.lastError().contains("very short watch"));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> shortWatches.requests.get() == 4 && listWatch.state() == WatchState.WATCHING);
			create(api, namespace, "sentinel");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.lister().namespace(namespace).get("sentinel") != null);
			assertThat(shortWatches.requests).as("watch requests: 3 ended at once, then one that lasts").hasValue(4);
			assertThat(listWatch.backoffSteps()).as("back-offs in a row, not reset by the reconnects").isEqualTo(3);
			assertThat(listWatch.relists()).as("a watch that ended is resumed, not relisted").isEqualTo(1);
		}
		finally {
			listWatch.stop();
		}
	}

	@Test
	void readAfterWriteGateStaysClosedUntilAPagedRelistIsInTheCache(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = namespace(api, "gate-relist");
		for (int i = 0; i < 4; i++) {
			create(api, namespace, "item-" + i);
		}
		// sorts after every item: on a later page than the first
		create(api, namespace, "target");
		BlockingLaterPages laterPages = new BlockingLaterPages();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(laterPages).build());
		InformerRegistry registry = new InformerRegistry(client);
		registry.setListStrategy(ListStrategy.LIST);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("gate-relist", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withPageSize(2)
				// the test reads and splits the pages' JSON; protobuf's paged lists are
				// ProtobufInformerIntegrationTests'
				.withEncoding(InformerSpec.Encoding.JSON));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			String before = informer.lister().namespace(namespace).get("target").getMetadata().getResourceVersion();
			registry.stop();
			// a write the cache has not seen, and a later change, so that the relist's
			// resourceVersion is newer than the write
			V1ConfigMap written = api
				.replaceNamespacedConfigMap("target", namespace,
						api.readNamespacedConfigMap("target", namespace).execute().data(Map.of("v", "2")))
				.execute();
			String write = written.getMetadata().getResourceVersion();
			V1ConfigMap later = api
				.createNamespacedConfigMap(namespace,
						new V1ConfigMap().metadata(new V1ObjectMeta().name("later")).data(Map.of("v", "1")))
				.execute();
			// the watch cache has the later change before the relist asks it
			api.listNamespacedConfigMap(namespace)
				.resourceVersion(later.getMetadata().getResourceVersion())
				.resourceVersionMatch("NotOlderThan")
				.execute();
			laterPages.arm();
			registry.start();
			assertThat(laterPages.blocked.await(30, TimeUnit.SECONDS)).as("the relist's second page is held back")
				.isTrue();
			assertThat(ResourceInformer.compareResourceVersions(laterPages.firstPageResourceVersion(), write))
				.as("the relist's resourceVersion is newer than the write")
				.isPositive();
			assertThat(informer.lister().namespace(namespace).get("target").getMetadata().getResourceVersion())
				.as("the cache still shows the object before the write")
				.isEqualTo(before);
			assertThat(informer.hasSeenAfter(namespace, write))
				.as("the read-after-write gate while the relist's first page is in and the rest is not")
				.isFalse();
			laterPages.release();
			await().atMost(Duration.ofSeconds(30)).until(() -> informer.hasSeenAfter(namespace, write));
			assertThat(informer.lister().namespace(namespace).get("target").getMetadata().getResourceVersion())
				.as("the cache once the gate opened")
				.isEqualTo(write);
		}
		finally {
			laterPages.release();
			registry.stop();
		}
	}

	static String namespace(CoreV1Api api, String prefix) throws ApiException {
		String name = prefix + "-" + Long.toString(System.nanoTime(), 36);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
		return name;
	}

	static void create(CoreV1Api api, String namespace, String name) throws ApiException {
		api.createNamespacedConfigMap(namespace,
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", "1")))
			.execute();
	}

	private static boolean isWatch(HttpUrl url) {
		return url.encodedPath().endsWith("/configmaps") && "true".equals(url.queryParameter("watch"));
	}

	/**
	 * Reads config maps as the client's Gson does, but throws an {@link Error} the first
	 * time one of a given name is read.
	 */
	private static final class ErrorOnce implements TypeAdapterFactory {

		private final String name;

		private final AtomicBoolean thrown;

		ErrorOnce(String name, AtomicBoolean thrown) {
			this.name = name;
			this.thrown = thrown;
		}

		@Override
		@SuppressWarnings("unchecked")
		public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
			if (type.getRawType() != V1ConfigMap.class) {
				return null;
			}
			TypeAdapter<V1ConfigMap> delegate = (TypeAdapter<V1ConfigMap>) gson.getDelegateAdapter(this, type);
			return (TypeAdapter<T>) new TypeAdapter<V1ConfigMap>() {

				@Override
				public void write(JsonWriter out, V1ConfigMap value) throws IOException {
					delegate.write(out, value);
				}

				@Override
				public V1ConfigMap read(JsonReader in) throws IOException {
					V1ConfigMap configMap = delegate.read(in);
					if (ErrorOnce.this.name.equals(configMap.getMetadata().getName())
							&& ErrorOnce.this.thrown.compareAndSet(false, true)) {
						throw new OutOfMemoryError("Java heap space (thrown by the test)");
					}
					return configMap;
				}

			};
		}

	}

	/**
	 * Once armed, serves the first page of the next list up to its items, then blocks
	 * until the reading thread is interrupted and serves the rest: a page whose bytes are
	 * in flight while the informer is stopped, as a socket read that an interrupt does
	 * not end.
	 */
	private static final class BlockingListPage implements Interceptor {

		private final CountDownLatch blocked = new CountDownLatch(1);

		private volatile boolean armed;

		private volatile String firstPage;

		private volatile HttpUrl url;

		void arm() {
			this.armed = true;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			Response response = chain.proceed(chain.request());
			if (!this.armed || isWatch(url) || !url.encodedPath().endsWith("/configmaps")
					|| url.queryParameter("continue") != null) {
				return response;
			}
			this.armed = false;
			this.url = url;
			byte[] body = response.body().bytes();
			this.firstPage = new String(body, StandardCharsets.UTF_8);
			int items = this.firstPage.indexOf("\"items\"");
			Buffer head = new Buffer().write(body, 0, items + 12);
			Buffer tail = new Buffer().write(body, items + 12, body.length - items - 12);
			Source source = new Source() {

				@Override
				public long read(Buffer sink, long byteCount) throws IOException {
					if (head.size() > 0) {
						return head.read(sink, byteCount);
					}
					while (!Thread.currentThread().isInterrupted()) {
						BlockingListPage.this.blocked.countDown();
						LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
					}
					return tail.read(sink, byteCount);
				}

				@Override
				public Timeout timeout() {
					return Timeout.NONE;
				}

				@Override
				public void close() {
				}

			};
			BufferedSource buffered = Okio.buffer(source);
			return response.newBuilder()
				.body(ResponseBody.create(buffered, MediaType.get("application/json"), body.length))
				.build();
		}

	}

	/**
	 * Once armed, holds back every later page of a paged list (a request with a continue
	 * token) until released, and keeps the first page's resourceVersion.
	 */
	private static final class BlockingLaterPages implements Interceptor {

		private final CountDownLatch blocked = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		private volatile boolean armed;

		private volatile String firstPageResourceVersion;

		void arm() {
			this.armed = true;
		}

		void release() {
			this.released.countDown();
		}

		String firstPageResourceVersion() {
			return this.firstPageResourceVersion;
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			if (!this.armed || isWatch(url) || !url.encodedPath().endsWith("/configmaps")) {
				return chain.proceed(chain.request());
			}
			if (url.queryParameter("continue") == null) {
				Response response = chain.proceed(chain.request());
				String body = response.peekBody(Long.MAX_VALUE).string();
				this.firstPageResourceVersion = JsonParser.parseString(body)
					.getAsJsonObject()
					.getAsJsonObject("metadata")
					.get("resourceVersion")
					.getAsString();
				return response;
			}
			this.blocked.countDown();
			try {
				this.released.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new InterruptedIOException("interrupted while held back");
			}
			return chain.proceed(chain.request());
		}

	}

	/**
	 * Ends the first watches at once, without events, as a proxy that closes streams
	 * would; counts watch requests.
	 */
	private static final class ShortWatches implements Interceptor {

		private final AtomicInteger requests = new AtomicInteger();

		private final AtomicInteger remaining;

		ShortWatches(int count) {
			this.remaining = new AtomicInteger(count);
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			Response response = chain.proceed(chain.request());
			if (!isWatch(chain.request().url())) {
				return response;
			}
			this.requests.incrementAndGet();
			if (this.remaining.getAndDecrement() <= 0) {
				return response;
			}
			response.close();
			return response.newBuilder().body(ResponseBody.create("", MediaType.get("application/json"))).build();
		}

	}

}
