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

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Load: 10,000 objects created, updated and partly deleted as fast as the local API
 * server takes them, while the operator watches and handles them. At the end the cache
 * equals a fresh list, the handlers saw every final state and the heap stays bounded.
 * Then a few hot keys are written by several writers at once, so that their events come
 * while their calls run; no key is ever handled by two workers at once (each call takes a
 * few milliseconds, so that two calls for one key would be seen). The object count is
 * {@code -Dkubeop.reliability.objects} (10,000); {@code -Dkubeop.reliability.rounds}
 * repeats the update round for a longer soak.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class LoadTests {

	private static final int OBJECTS = Integer.getInteger("kubeop.reliability.objects", 10_000);

	private static final int ROUNDS = Integer.getInteger("kubeop.reliability.rounds", 1);

	/**
	 * How long each handler call takes: long enough for a second worker on the same key
	 * to be caught, short enough for 4 workers to keep up with the writers.
	 */
	private static final Duration CALL_TIME = Duration.ofMillis(5);

	/**
	 * The hot keys: none of them is deleted (every tenth object is).
	 */
	private static final List<String> HOT_KEYS = IntStream.rangeClosed(1, 8).mapToObj((i) -> "object-" + i).toList();

	@Test
	void tenThousandObjectsChurnedConvergeWithBoundedHeap(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
					KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(Recorder.class, () -> new Recorder(CALL_TIME))
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.handlers.workers=4",
					"kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Recorder recorder = context.getBean(Recorder.class);
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				long heapBefore = Heap.retained();
				long started = System.nanoTime();
				int writes = Writers.parallel(OBJECTS,
						(i) -> WatchFaultTests.create(api, namespace.name(), "object-" + i, "0"));
				for (int round = 1; round <= ROUNDS; round++) {
					String version = Integer.toString(round);
					writes += Writers.parallel(OBJECTS,
							(i) -> WatchFaultTests.update(api, namespace.name(), "object-" + i, version));
				}
				writes += Writers.parallel(OBJECTS / 10,
						(i) -> api.deleteNamespacedConfigMap("object-" + (i * 10), namespace.name()).execute());
				long written = System.nanoTime();
				WatchFaultTests.awaitConverged(api, namespace.name(), recorder, informer);
				long converged = System.nanoTime();
				assertThat(recorder.deleted).hasSize(OBJECTS / 10);
				long operator = Heap.retained() - heapBefore;
				long cached = informer.indexer().listKeys().size();
				// the same objects once more, in a bare cache: what one copy of them
				// costs
				long bareCache = bareCacheBytes(controlPlane, namespace, cached);
				double seconds = (written - started) / 1e9;
				Figures.record("load",
						OBJECTS + " objects, " + writes + " writes in " + String.format("%.1f", seconds) + " s ("
								+ Math.round(writes / seconds) + " writes/s); converged "
								+ Duration.ofNanos(converged - written).toMillis() + " ms after the last write; "
								+ operator / cached + " bytes retained per object by the operator (cache, handler "
								+ "state and the test's recorder), " + bareCache / cached
								+ " bytes per object in a bare cache of the same objects");
				// handler state that kept its own copy of every object (as a relist that
				// replaced every instance did) would double what the operator retains
				assertThat(operator).as("bytes the operator retains, against one bare cache of the same objects")
					.isLessThan(bareCache * 7 / 4);
				// 8 writers on 8 keys: each key's next event comes while its call runs
				Writers.parallel(HOT_KEYS.size() * 50, (i) -> WatchFaultTests.patchData(api, namespace.name(),
						HOT_KEYS.get(i % HOT_KEYS.size()), "hot", Integer.toString(i)));
				WatchFaultTests.awaitConverged(api, namespace.name(), recorder, informer);
				assertThat(recorder.overlaps).as("keys handled by two workers at once").isEmpty();
			});
	}

	/**
	 * Returns what the heap retains for an informer alone over the same objects.
	 */
	private static long bareCacheBytes(ControlPlane controlPlane, TestNamespace namespace, long expected)
			throws InterruptedException {
		long[] bytes = new long[1];
		long before = Heap.retained();
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.bare.api-version=v1", "kubeop.informers.resources.bare.kind=ConfigMap")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> bare = context.getBean("bareInformer", ResourceInformer.class);
				await().atMost(Duration.ofSeconds(60))
					.until(() -> bare.hasSynced() && bare.indexer().listKeys().size() == expected);
				bytes[0] = Heap.retained() - before;
			});
		return bytes[0];
	}

}
