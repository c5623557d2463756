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

package io.github.kubeop.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seed scenario, on the official client's own {@link SharedInformerFactory}: an
 * informer for ConfigMaps in one namespace sees a ConfigMap created, labelled and deleted
 * through the API server, and with a short resync period also sees resync updates. It
 * proves that the control plane serves list and watch as a real cluster does.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class SharedInformerFactorySeedTests {

	private SharedInformerFactory factory;

	@AfterEach
	void stopInformers() {
		if (this.factory != null) {
			this.factory.stopAllRegisteredInformers();
		}
	}

	@Test
	void addUpdateAndDeleteArriveWithChangingResourceVersions(ApiClient client, TestNamespace namespace)
			throws Exception {
		GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> configMaps = configMaps(client);
		List<Event> events = watch(client, namespace, "seed", 0);

		V1ConfigMap created = configMaps
			.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("seed").namespace(namespace.name()))
				.data(Map.of("greeting", "hello")))
			.throwsApiException()
			.getObject();
		await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 1);
		assertThat(events.get(0)).isEqualTo(new Event("add", null, created.getMetadata().getResourceVersion(), null));

		created.getMetadata().setLabels(Map.of("tier", "seed"));
		V1ConfigMap labelled = configMaps.update(created).throwsApiException().getObject();
		await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 2);
		assertThat(events.get(1)).isEqualTo(new Event("update", created.getMetadata().getResourceVersion(),
				labelled.getMetadata().getResourceVersion(), "seed"));
		assertThat(labelled.getMetadata().getResourceVersion())
			.isNotEqualTo(created.getMetadata().getResourceVersion());

		configMaps.delete(namespace.name(), "seed").throwsApiException();
		await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 3);
		assertThat(events.get(2).type()).isEqualTo("delete");
		assertThat(events.get(2).tier()).isEqualTo("seed");
		assertThat(events).hasSize(3);
	}

	@Test
	void shortResyncPeriodDeliversUpdatesWithEqualResourceVersions(ApiClient client, TestNamespace namespace)
			throws Exception {
		V1ConfigMap created = configMaps(client)
			.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("resynced").namespace(namespace.name())))
			.throwsApiException()
			.getObject();
		String resourceVersion = created.getMetadata().getResourceVersion();
		List<Event> events = watch(client, namespace, "resynced", 1000);

		await().atMost(Duration.ofSeconds(15))
			.until(() -> events.stream().filter((event) -> event.type().equals("update")).count() >= 2);
		assertThat(events.get(0)).isEqualTo(new Event("add", null, resourceVersion, null));
		assertThat(events.stream().filter((event) -> event.type().equals("update"))).allSatisfy(
				(event) -> assertThat(event).isEqualTo(new Event("update", resourceVersion, resourceVersion, null)));
	}

	private List<Event> watch(ApiClient client, TestNamespace namespace, String name, long resyncMillis) {
		client.setReadTimeout(0);
		this.factory = new SharedInformerFactory(client);
		SharedIndexInformer<V1ConfigMap> informer = this.factory.sharedIndexInformerFor(configMaps(client),
				V1ConfigMap.class, resyncMillis, namespace.name());
		List<Event> events = new CopyOnWriteArrayList<>();
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
				record(obj, new Event("add", null, obj.getMetadata().getResourceVersion(), tier(obj)));
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
				record(newObj, new Event("update", oldObj.getMetadata().getResourceVersion(),
						newObj.getMetadata().getResourceVersion(), tier(newObj)));
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				record(obj, new Event("delete", obj.getMetadata().getResourceVersion(), null, tier(obj)));
			}

			private void record(V1ConfigMap configMap, Event event) {
				if (configMap.getMetadata().getName().equals(name)) {
					events.add(event);
				}
			}

		});
		this.factory.startAllRegisteredInformers();
		await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
		return events;
	}

	private static GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> configMaps(ApiClient client) {
		return new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client);
	}

	private static String tier(V1ConfigMap configMap) {
		Map<String, String> labels = configMap.getMetadata().getLabels();
		return (labels != null) ? labels.get("tier") : null;
	}

	record Event(String type, String oldResourceVersion, String newResourceVersion, String tier) {

	}

}
