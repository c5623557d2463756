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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of how informers list against a real API server: through a watch-list where the
 * server offers it, in pages where it refuses one, and with every delete that happened
 * while the informer was not watching delivered with the object's last known state either
 * way.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WatchListIntegrationTests {

	/**
	 * A watch that the server ends within seconds, so that the next one comes soon.
	 */
	private static final Duration SHORT_WATCH_TIMEOUT = Duration.ofSeconds(2);

	@Test
	void listsThroughAWatchListAndGoesOnWatchingOnIt(ControlPlane controlPlane, ApiClient direct) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, "watch-list");
		for (int i = 0; i < 30; i++) {
			ListWatchIntegrationTests.create(api, namespace, "item-" + i);
		}
		Requests requests = new Requests();
		InformerRegistry registry = new InformerRegistry(withInterceptor(controlPlane.apiClient(), requests));
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("watch-list", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			assertThat(informer.lister().list()).hasSize(30);
			ListWatchIntegrationTests.create(api, namespace, "sentinel");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.lister().namespace(namespace).get("sentinel") != null);
			assertThat(requests.lists()).as("lists").isEmpty();
			assertThat(requests.watches()).as("one watch: the watch-list, which went on watching")
				.singleElement()
				.satisfies((url) -> {
					assertThat(url.queryParameter("sendInitialEvents")).isEqualTo("true");
					assertThat(url.queryParameter("resourceVersionMatch")).isEqualTo("NotOlderThan");
					assertThat(url.queryParameter("allowWatchBookmarks")).isEqualTo("true");
				});
			assertThat(informer.status().listMethod()).isEqualTo("watch-list");
			assertThat(informer.status().relists()).isEqualTo(1);
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void watchListRefusedByTheServerIsReplacedByPagedListsForGood(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, "refused-watch-list");
		for (int i = 0; i < 5; i++) {
			ListWatchIntegrationTests.create(api, namespace, "item-" + i);
		}
		Requests requests = new Requests();
		RefuseWatchLists refusal = new RefuseWatchLists();
		ExpireNextWatch expiry = new ExpireNextWatch();
		InformerRegistry registry = new InformerRegistry(
				withInterceptor(withInterceptor(withInterceptor(controlPlane.apiClient(), requests), refusal), expiry));
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("refused-watch-list", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withWatchTimeouts(SHORT_WATCH_TIMEOUT, InformerSpec.DEFAULT_STALL_TIMEOUT));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			assertThat(informer.lister().list()).hasSize(5);
			assertThat(informer.status().listMethod()).isEqualTo("list");
			// a relist: still a paged list, the refusal is remembered
			expiry.expireNext();
			ListWatchIntegrationTests.create(api, namespace, "sentinel");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.status().relists() == 2
						&& informer.lister().namespace(namespace).get("sentinel") != null);
			assertThat(refusal.refused).as("watch-lists refused: one, the probe").hasValue(1);
			assertThat(requests.lists()).as("paged lists").hasSize(2).allSatisfy((url) -> {
				assertThat(url.queryParameter("limit")).isEqualTo("500");
				assertThat(url.queryParameter("watch")).isNull();
			});
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void deletesWhileNotWatchingAreDeliveredWithLastKnownStateByAWatchList(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		deletesWhileNotWatchingAreDeliveredWithLastKnownState(controlPlane, direct, ListStrategy.WATCH_LIST);
	}

	@Test
	void deletesWhileNotWatchingAreDeliveredWithLastKnownStateByAPagedList(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		deletesWhileNotWatchingAreDeliveredWithLastKnownState(controlPlane, direct, ListStrategy.LIST);
	}

	/**
	 * The watch is held back while objects change and go, then told to relist (the
	 * {@code 410 Gone} a watch cache answers once its window has passed, which it keeps
	 * for minutes); the relist, served by the real API server, must bring every change,
	 * and a delete with the last known state for every object gone.
	 */
	private void deletesWhileNotWatchingAreDeliveredWithLastKnownState(ControlPlane controlPlane, ApiClient direct,
			ListStrategy strategy) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api,
				"gap-" + strategy.name().toLowerCase().replace('_', '-'));
		for (int i = 0; i < 20; i++) {
			ListWatchIntegrationTests.create(api, namespace, "item-" + i);
		}
		Requests requests = new Requests();
		ExpireNextWatch expiry = new ExpireNextWatch();
		InformerRegistry registry = new InformerRegistry(
				withInterceptor(withInterceptor(controlPlane.apiClient(), requests), expiry));
		registry.setListStrategy(strategy);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("gap", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withWatchTimeouts(SHORT_WATCH_TIMEOUT, InformerSpec.DEFAULT_STALL_TIMEOUT));
		Map<String, String> deleted = new ConcurrentHashMap<>();
		Set<String> deletedKnown = ConcurrentHashMap.newKeySet();
		List<String> updated = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
				updated.add(newObj.getMetadata().getName() + "=" + newObj.getData().get("v"));
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				deleted.put(obj.getMetadata().getName(), obj.getData().get("v"));
				if (!deletedFinalStateUnknown) {
					deletedKnown.add(obj.getMetadata().getName());
				}
			}

		});
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			// the watch ends within seconds; its successor waits for the test
			expiry.holdNext();
			await().atMost(Duration.ofSeconds(30)).until(expiry::isHolding);
			for (int i = 0; i < 5; i++) {
				api.replaceNamespacedConfigMap("item-" + i, namespace,
						api.readNamespacedConfigMap("item-" + i, namespace).execute().data(Map.of("v", "2")))
					.execute();
			}
			for (int i = 10; i < 15; i++) {
				api.deleteNamespacedConfigMap("item-" + i, namespace).execute();
			}
			ListWatchIntegrationTests.create(api, namespace, "sentinel");
			expiry.release();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.status().relists() == 2
						&& informer.lister().namespace(namespace).get("sentinel") != null);
			assertThat(deleted).as("deleted, with the last state known")
				.containsOnlyKeys("item-10", "item-11", "item-12", "item-13", "item-14");
			assertThat(deleted).allSatisfy((name, version) -> assertThat(version).isEqualTo("1"));
			assertThat(deletedKnown).as("deletes whose final state came from the server").isEmpty();
			assertThat(updated).containsExactlyInAnyOrder("item-0=2", "item-1=2", "item-2=2", "item-3=2", "item-4=2");
			assertThat(informer.lister().list()).as("15 of 20 left, and the sentinel").hasSize(16);
			boolean watchListed = requests.watches()
				.stream()
				.anyMatch((url) -> "true".equals(url.queryParameter("sendInitialEvents")));
			assertThat(watchListed).isEqualTo(strategy == ListStrategy.WATCH_LIST);
			assertThat(requests.lists()).as("lists").hasSize((strategy == ListStrategy.LIST) ? 2 : 0);
		}
		finally {
			registry.stop();
		}
	}

	private static ApiClient withInterceptor(ApiClient client, Interceptor interceptor) {
		return client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(interceptor).build());
	}

	private static boolean isConfigMaps(HttpUrl url) {
		return url.encodedPath().endsWith("/configmaps");
	}

	private static boolean isWatch(HttpUrl url) {
		return isConfigMaps(url) && "true".equals(url.queryParameter("watch"));
	}

	private static boolean isWatchList(HttpUrl url) {
		return isWatch(url) && "true".equals(url.queryParameter("sendInitialEvents"));
	}

	/**
	 * Records the config map requests the informer sends.
	 */
	private static final class Requests implements Interceptor {

		private final List<HttpUrl> urls = new CopyOnWriteArrayList<>();

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			if (isConfigMaps(url)) {
				this.urls.add(url);
			}
			return chain.proceed(chain.request());
		}

		List<HttpUrl> lists() {
			return this.urls.stream().filter((url) -> !isWatch(url)).toList();
		}

		List<HttpUrl> watches() {
			return this.urls.stream().filter(WatchListIntegrationTests::isWatch).toList();
		}

	}

	/**
	 * Answers every watch-list as an API server without the feature does.
	 */
	private static final class RefuseWatchLists implements Interceptor {

		private final AtomicInteger refused = new AtomicInteger();

		@Override
		public Response intercept(Chain chain) throws IOException {
			if (!isWatchList(chain.request().url())) {
				return chain.proceed(chain.request());
			}
			this.refused.incrementAndGet();
			String status = """
					{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
					"message":"resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch",\
					"reason":"BadRequest","code":400}""";
			return new Response.Builder().request(chain.request())
				.protocol(Protocol.HTTP_1_1)
				.code(400)
				.message("Bad Request")
				.body(ResponseBody.create(status, MediaType.get("application/json")))
				.build();
		}

	}

	/**
	 * Holds the next plain watch until released, then answers it with the
	 * {@code 410 Gone} event an API server sends when it no longer has the
	 * resourceVersion asked for.
	 */
	private static final class ExpireNextWatch implements Interceptor {

		private final AtomicBoolean hold = new AtomicBoolean();

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		void holdNext() {
			this.hold.set(true);
		}

		void expireNext() {
			holdNext();
			release();
		}

		boolean isHolding() {
			return this.held.getCount() == 0;
		}

		void release() {
			this.released.countDown();
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			if (!isWatch(url) || isWatchList(url) || !this.hold.compareAndSet(true, false)) {
				return chain.proceed(chain.request());
			}
			this.held.countDown();
			try {
				this.released.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new InterruptedIOException();
			}
			return expired(chain);
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
