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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Namespace;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults between the operator and the API server, injected with a loopback TCP proxy: cut
 * connections, a stalled (half-open) watch, and a watch resumed after its resourceVersion
 * was compacted away (410 Gone). After each, every final state reaches the handlers,
 * every deleted object gets {@code @OnDelete}, and no key runs twice at once.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WatchFaultTests {

	private static ApplicationContextRunner runner(ApiClient client, String namespace, String... properties) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
					KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withBean(Recorder.class, Recorder::new)
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
			runner(controlPlane.apiClientVia(proxy.url()), namespace.name(), "kubeop.informers.stall-timeout=3s")
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

					proxy.stall();
					long stalled = System.nanoTime();
					update(api, namespace.name(), "object-0", "3");
					api.deleteNamespacedConfigMap("object-1", namespace.name()).execute();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> informer.status().state() == WatchState.RECONNECTING);
					Duration detection = Duration.ofNanos(System.nanoTime() - stalled);
					Figures.record("stalled watch",
							"detected after " + detection.toMillis() + " ms with kubeop.informers.stall-timeout=3s");
					assertThat(detection).isLessThan(Duration.ofSeconds(15));
					proxy.restore();
					awaitConverged(api, namespace.name(), recorder, informer);
					assertThat(recorder.lastVersion).containsEntry("object-0", "3");
					assertThat(recorder.deleted).contains("object-1");
					assertThat(recorder.overlap).isFalse();
				});
		}
	}

	@Test
	void listCutBetweenPagesIsListedAgainWithoutLossOrDuplicates(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
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
			InformerRegistry registry = new InformerRegistry(controlPlane.apiClientVia(proxy.url()));
			// pages of 2: 500 requests, each with the next one already requested
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
				await().atMost(Duration.ofSeconds(10)).until(() -> informer.status().state() == WatchState.LISTING);
				Thread.sleep(200);
				proxy.cut();
				assertThat(informer.status().synced()).as("cut while the first list was still paging").isFalse();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> informer.status().state() == WatchState.RECONNECTING);
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
		assumeThat(shared).isInstanceOf(LocalControlPlane.class);
		// a control plane of its own: no watch cache, so a resumed watch reaches etcd,
		// which
		// has compacted the old resourceVersion away (410 Gone)
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve(),
				List.of("--watch-cache=false", "--etcd-compaction-interval=1s"));
				FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
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
				proxy.cut();
				for (int round = 2; round <= 5; round++) {
					for (int i = 0; i < 10; i++) {
						update(api, "compacted", "object-" + i, Integer.toString(round));
					}
				}
				api.deleteNamespacedConfigMap("object-9", "compacted").execute();
				Thread.sleep(3000);
				proxy.restore();
				awaitConverged(api, "compacted", recorder, informer);
				long relists = informer.status().relists() - relistsBefore;
				Figures.record("410 Gone after compaction", relists + " relist(s) after the cut, "
						+ informer.status().watchRestarts() + " watch restarts in all");
				assertThat(relists).isBetween(1L, 3L);
				assertThat(recorder.lastVersion).hasSize(9)
					.allSatisfy((key, version) -> assertThat(version).isEqualTo("5"));
				assertThat(recorder.deleted).containsExactly("object-9");
				assertThat(recorder.overlap).isFalse();
			});
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

}
