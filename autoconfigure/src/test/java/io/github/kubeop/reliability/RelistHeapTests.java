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

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A relist after {@code 410 Gone} of objects that did not change must not leave two
 * copies of each on the heap (the cache's and the one a handler was last given). The
 * object count is {@code -Dkubeop.reliability.relist-objects} (10,000).
 *
 * @author Kubeop authors
 */
@KubernetesTest
class RelistHeapTests {

	private static final int OBJECTS = Integer.getInteger("kubeop.reliability.relist-objects", 10_000);

	private static final String NAMESPACE = "relist-heap";

	@Test
	void relistOfUnchangedObjectsLeavesRetainedHeapWithinTenPercent(ControlPlane shared) throws Exception {
		assumeThat(shared).isInstanceOf(LocalControlPlane.class);
		// a control plane of its own: no watch cache, so a resumed watch reaches etcd,
		// which has compacted the old resourceVersion away (410 Gone, then a relist)
		try (LocalControlPlane controlPlane = CompactingControlPlane.start();
				FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
			api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
			String payload = "x".repeat(2048);
			createAll(api, payload);
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
						KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
				.withBean(io.kubernetes.client.openapi.ApiClient.class, () -> controlPlane.apiClientVia(proxy.url()))
				// a handler: it keeps the last state delivered for every key
				.withBean(Recorder.class, Recorder::new)
				.withPropertyValues("kubeop.informers.namespaces=" + NAMESPACE,
						"kubeop.informers.resources.settings.api-version=v1",
						"kubeop.informers.resources.settings.kind=ConfigMap",
						// one page: with etcd compacting every second, a continue token
						// can expire before a paged list of this size ends
						"kubeop.informers.page-size=" + (OBJECTS + 1))
				.run((context) -> {
					assertThat(context).hasNotFailed();
					Recorder recorder = context.getBean(Recorder.class);
					ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
					await().atMost(Duration.ofSeconds(120)).until(() -> recorder.lastVersion.size() == OBJECTS);
					long before = Heap.retained();
					long relistsBefore = informer.status().relists();
					proxy.cut();
					// the one change the relist must bring; once etcd has compacted past
					// it,
					// the watch cannot resume from before it
					WatchFaultTests.update(api, NAMESPACE, "object-0", "2");
					String changed = api.readNamespacedConfigMap("object-0", NAMESPACE)
						.execute()
						.getMetadata()
						.getResourceVersion();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> CompactingControlPlane.isCompacted(controlPlane.apiClient(), NAMESPACE, changed));
					proxy.restore();
					await().atMost(Duration.ofSeconds(120))
						.until(() -> informer.status().relists() > relistsBefore
								&& "2".equals(recorder.lastVersion.get("object-0"))
								&& informer.status().state() == WatchState.WATCHING);
					long after = Heap.retained();
					double change = (after - before) * 100.0 / before;
					Figures.record("relist of unchanged objects",
							OBJECTS + " objects (2 KB of data each) relisted after"
									+ " 410 Gone with a handler attached: retained heap " + (before >> 20)
									+ " MB before, " + (after >> 20) + " MB after (" + String.format("%+.1f", change)
									+ " %)");
					assertThat(after).as("retained heap after the relist, bytes")
						.isBetween((long) (before * 0.9), (long) (before * 1.1));
				});
		}
	}

	private static void createAll(CoreV1Api api, String payload) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> creates = new ArrayList<>();
			for (int i = 0; i < OBJECTS; i++) {
				String name = "object-" + i;
				creates.add(executor.submit(
						() -> api
							.createNamespacedConfigMap(NAMESPACE,
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

}
