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

package io.github.kubeop.shard;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Adoption in the labels mode against the real API server: objects without a live
 * member's label are labelled by the first member, objects created while it runs
 * included; objects of departed members are listed page by page, and nothing is listed
 * while nothing changes.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ShardAdoptionTests {

	private static final String GROUP = "adoption";

	private static final String LABEL = ShardLabels.labelKey(GROUP);

	@Test
	void labelsWhatNoLiveMemberHoldsPagingAndListsOnlyAfterAChange(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		List<HttpUrl> adoptionLists = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			HttpUrl url = chain.request().url();
			String selector = url.queryParameter("labelSelector");
			if (chain.request().method().equals("GET") && !"true".equals(url.queryParameter("watch"))
					&& selector != null && selector.contains("notin")) {
				adoptionLists.add(url);
			}
			return chain.proceed(chain.request());
		}).build());
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		// five objects of a member that is gone, three that no member labelled
		for (int i = 0; i < 5; i++) {
			create(api, namespace, "departed-" + i, Map.of(LABEL, "gone"));
		}
		for (int i = 0; i < 3; i++) {
			create(api, namespace, "unlabelled-" + i, Map.of());
		}
		Set<String> handled = ConcurrentHashMap.newKeySet();
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("configMaps", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace.name())
				.withLabelSelector(LABEL + "=member"));
		HandlerRegistrar handlers = new HandlerRegistrar(registry, List.of(namespace.name()), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> 1, HandlerObserver.NONE);
		handlers.register(HandlerEndpoint.builder("adopted", V1ConfigMap.class)
			.informer("configMaps")
			.onAdd((configMap) -> handled.add(configMap.getMetadata().getName()))
			.build());
		ShardLabels labels = new ShardLabels(client, GROUP, () -> List.of(informer), handlers::shardKey, registry);
		labels.pageSize(2);
		ShardMember member = new ShardMember(new ShardingConfig(namespace.name(), GROUP, "member",
				Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500), 16), client,
				new ShardingLifecycle.Handlers(handlers), labels);
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			member.start();
			handlers.startWorkers();
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(handled).hasSize(8));
			// the departed member's five objects, two a page
			assertThat(adoptionLists).as("lists of objects of departed members").hasSizeGreaterThanOrEqualTo(3);
			assertThat(adoptionLists).allSatisfy((url) -> assertThat(url.queryParameter("limit")).isEqualTo("2"));
			assertThat(adoptionLists).anySatisfy((url) -> assertThat(url.queryParameter("continue")).isNotBlank());
			// created while the member runs, and adopted without a list
			int listsBefore = adoptionLists.size();
			create(api, namespace, "created-later", Map.of());
			await().atMost(Duration.ofSeconds(30)).until(() -> handled.contains("created-later"));
			// nothing changes: the member goes on renewing (the sentinel), and lists
			// nothing
			CoordinationV1Api leases = new CoordinationV1Api(controlPlane.apiClient());
			String lease = member.leaseName();
			for (int renewal = 0; renewal < 6; renewal++) {
				String before = leases.readNamespacedLease(lease, namespace.name())
					.execute()
					.getMetadata()
					.getResourceVersion();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> !before.equals(leases.readNamespacedLease(lease, namespace.name())
						.execute()
						.getMetadata()
						.getResourceVersion()));
			}
			assertThat(adoptionLists).as("lists while nothing changed").hasSize(listsBefore);
			assertThat(
					api.readNamespacedConfigMap("created-later", namespace.name()).execute().getMetadata().getLabels())
				.containsEntry(LABEL, "member");
		}
		finally {
			handlers.shutdown(Duration.ofSeconds(2));
			member.stop();
			registry.stop();
		}
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name, Map<String, String> labels)
			throws Exception {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(Map.of("k", "v")))
			.execute();
	}

}
