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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ListStrategy;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A relist of 10,000 objects never holds two full copies: the objects a relist reads go
 * into the cache one at a time, and an unchanged one is dropped at once (the cached
 * instance stays), so that the relist holds the cache and little more, where collecting
 * the list before replacing the cache held the cache and a second copy. The retained heap
 * is sampled while the relist has read nine tenths of its bytes (held there by the test)
 * and throughout the relist, and compared with the size of one copy: the cache's share of
 * the retained heap, measured before. The object count is
 * {@code -Dkubeop.reliability.relist-objects} (10,000).
 *
 * @author Kubeop authors
 */
@KubernetesTest
class RelistPeakHeapTests {

	private static final int OBJECTS = Integer.getInteger("kubeop.reliability.relist-objects", 10_000);

	@ParameterizedTest
	@EnumSource(ListStrategy.class)
	void relistHoldsTheCacheAndNotASecondCopy(ListStrategy strategy, ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = "relist-peak-" + strategy.name().toLowerCase().replace('_', '-');
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		try {
			createAll(api, namespace, "x".repeat(2048));
			long listBytes = listBytes(direct, namespace);
			HeldRelist held = new HeldRelist(listBytes * 9 / 10);
			ApiClient client = controlPlane.apiClient();
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(held).build());
			long baseline = Heap.retained();
			InformerRegistry registry = new InformerRegistry(client);
			registry.setListStrategy(strategy);
			ResourceInformer<V1ConfigMap> informer = registry
				.informer(InformerSpec.of("relist-peak", "v1", "ConfigMap", V1ConfigMap.class)
					.withNamespaces(namespace)
					// the watch ends within seconds, so that the one told to relist comes
					// soon
					.withWatchTimeouts(Duration.ofSeconds(2), InformerSpec.DEFAULT_STALL_TIMEOUT));
			registry.start();
			try {
				registry.awaitSync(Duration.ofSeconds(120));
				assertThat(informer.lister().list()).hasSize(OBJECTS);
				long steady = Heap.retained();
				long copy = steady - baseline;
				held.arm();
				assertThat(held.paused.await(60, TimeUnit.SECONDS)).as("the relist read nine tenths of its bytes")
					.isTrue();
				assertThat(informer.status().relists()).as("relist not completed yet").isEqualTo(1);
				// sampled during the relist: while it is held, then until it completes
				long peak = Heap.retained();
				AtomicLong sampled = new AtomicLong(peak);
				AtomicBoolean sampling = new AtomicBoolean(true);
				Thread sampler = new Thread(() -> {
					try {
						while (sampling.get()) {
							sampled.accumulateAndGet(Heap.retained(), Math::max);
						}
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}, "relist-heap-sampler");
				sampler.start();
				held.release.countDown();
				await().atMost(Duration.ofSeconds(120))
					.until(() -> informer.status().relists() == 2 && informer.status().state() == WatchState.WATCHING);
				sampling.set(false);
				sampler.join();
				long extra = sampled.get() - steady;
				Figures.record("relist peak heap (" + strategy + ")",
						OBJECTS + " config maps (2 KB of data each), relisted by " + informer.status().listMethod()
								+ ": one copy " + (copy >> 20) + " MB, steady " + (steady >> 20)
								+ " MB, peak during the relist " + (sampled.get() >> 20) + " MB ("
								+ Heap.signedMegabytes(extra) + ", " + String.format("%.2f", extra / (double) copy)
								+ " of a copy)");
				assertThat(informer.status().listMethod())
					.isEqualTo((strategy == ListStrategy.WATCH_LIST) ? "watch-list" : "list");
				// collecting the list before replacing the cache holds 0.9 of a copy
				// more at the point held, and a whole copy at the end: the bound is half
				// a copy, far above what streaming holds (the keys seen and one object)
				assertThat(extra)
					.as("retained heap during the relist above the steady cache, bytes (one copy: %d)", copy)
					.isLessThan(copy / 2);
			}
			finally {
				held.release.countDown();
				registry.stop();
			}
		}
		finally {
			api.deleteCollectionNamespacedConfigMap(namespace).execute();
			api.deleteNamespace(namespace).execute();
		}
	}

	/**
	 * Returns the size of the namespace's list in JSON: the bytes a relist reads, give or
	 * take the event envelopes of a watch-list.
	 */
	private static long listBytes(ApiClient client, String namespace) throws IOException {
		Request request = new Request.Builder()
			.url(HttpUrl.get(client.getBasePath())
				.newBuilder()
				.addPathSegments("api/v1/namespaces/" + namespace + "/configmaps")
				.build())
			.build();
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).isEqualTo(200);
			return response.body().bytes().length;
		}
	}

	private static void createAll(CoreV1Api api, String namespace, String payload) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> creates = new ArrayList<>();
			for (int i = 0; i < OBJECTS; i++) {
				String name = "object-" + i;
				creates.add(executor.submit(
						() -> api
							.createNamespacedConfigMap(namespace,
									new V1ConfigMap().metadata(new V1ObjectMeta().name(name))
										.data(Map.of("v", "1", "payload", payload)))
							.execute()));
			}
			for (Future<?> create : creates) {
				create.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

	/**
	 * Once armed, answers the next plain watch with the {@code 410 Gone} event an API
	 * server sends when it no longer has the resourceVersion asked for (its watch cache
	 * keeps minutes of history), so that the informer relists; and holds the relist's
	 * response once nine tenths of the list's bytes are read, until released.
	 */
	private static final class HeldRelist implements Interceptor {

		private final long pauseAt;

		private final AtomicBoolean expireNextWatch = new AtomicBoolean();

		private final AtomicBoolean counting = new AtomicBoolean();

		private final AtomicLong read = new AtomicLong();

		private final CountDownLatch paused = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		HeldRelist(long pauseAt) {
			this.pauseAt = pauseAt;
		}

		void arm() {
			this.counting.set(true);
			this.expireNextWatch.set(true);
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			if (!url.encodedPath().endsWith("/configmaps")) {
				return chain.proceed(chain.request());
			}
			boolean watch = "true".equals(url.queryParameter("watch"));
			boolean watchList = watch && "true".equals(url.queryParameter("sendInitialEvents"));
			if (watch && !watchList && this.expireNextWatch.compareAndSet(true, false)) {
				return expired(chain);
			}
			Response response = chain.proceed(chain.request());
			if ((watch && !watchList) || !this.counting.get()) {
				return response;
			}
			// the relist's bytes, over all its pages
			BufferedSource held = Okio.buffer(new ForwardingSource(response.body().source()) {

				@Override
				public long read(Buffer sink, long byteCount) throws IOException {
					if (HeldRelist.this.read.get() >= HeldRelist.this.pauseAt
							&& HeldRelist.this.counting.compareAndSet(true, false)) {
						HeldRelist.this.paused.countDown();
						try {
							HeldRelist.this.release.await();
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
							throw new InterruptedIOException();
						}
					}
					long bytes = super.read(sink, Math.min(byteCount, 8192));
					if (bytes > 0) {
						HeldRelist.this.read.addAndGet(bytes);
					}
					return bytes;
				}

			});
			return response.newBuilder().body(ResponseBody.create(held, response.body().contentType(), -1)).build();
		}

		private static Response expired(Chain chain) {
			String event = """
					{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
					"message":"too old resource version","reason":"Expired","code":410}}
					""";
			return new Response.Builder().request(chain.request())
				.protocol(Protocol.HTTP_1_1)
				.code(200)
				.message("OK")
				.body(ResponseBody.create(event, MediaType.get("application/json")))
				.build();
		}

	}

}
