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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.Gson;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lean cache ({@link StandardTransform#DEDUPLICATE_STRINGS}) against a real API
 * server: objects decoded from the initial list and from the watch share the strings they
 * repeat, and without the transform they do not; handlers get models they can read and
 * copy; updates keep working.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class LeanCacheIntegrationTests {

	private static final Map<String, String> LABELS = Map.of("app.kubernetes.io/name", "web", "tier", "frontend");

	@Test
	void cachedObjectsShareTheStringsTheyRepeat(ControlPlane controlPlane, ApiClient admin, TestNamespace namespace)
			throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		create(api, namespace.name(), "listed", LABELS);
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		// a paged list, then a watch: both ways into the cache
		registry.setListStrategy(ListStrategy.LIST);
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("lean", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace.name()));
		assertThat(informer.spec().standardTransforms()).contains(StandardTransform.DEDUPLICATE_STRINGS);
		Gson gson = admin.getJSON().getGson();
		Map<String, V1ConfigMap> copies = new ConcurrentHashMap<>();
		informer.addEventHandler(new CopyingHandler(gson, copies));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			create(api, namespace.name(), "watched", LABELS);
			await().atMost(Duration.ofSeconds(30)).until(() -> copies.containsKey("watched"));
			V1ConfigMap listed = cached(informer, namespace.name(), "listed");
			V1ConfigMap watched = cached(informer, namespace.name(), "watched");
			assertSharedStrings(listed, watched);
			// handlers got the client's models: a copy reads back every value and takes
			// changes of its own
			V1ConfigMap copy = copies.get("watched");
			assertThat(copy.getMetadata().getLabels()).containsEntry("extra", "copy").containsAllEntriesOf(LABELS);
			assertThat(copy.getData()).isEqualTo(watched.getData());
			assertThat(watched.getMetadata().getLabels()).doesNotContainKey("extra");
			// an update comes in through the watch, pooled as well
			V1ConfigMap current = api.readNamespacedConfigMap("listed", namespace.name()).execute();
			current.getMetadata().putLabelsItem("tier", "backend");
			api.replaceNamespacedConfigMap("listed", namespace.name(), current).execute();
			create(api, namespace.name(), "later", Map.of("tier", "backend"));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "backend"
					.equals(cached(informer, namespace.name(), "listed").getMetadata().getLabels().get("tier"))
						&& informer.lister().namespace(namespace.name()).get("later") != null);
			assertThat(cached(informer, namespace.name(), "listed").getMetadata().getLabels().get("tier"))
				.isSameAs(cached(informer, namespace.name(), "later").getMetadata().getLabels().get("tier"));
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void withoutTheTransformEachObjectKeepsItsOwnStrings(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		create(api, namespace.name(), "fat-listed", LABELS);
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer = registry.informer(new InformerSpec<>("fat", "v1", "ConfigMap",
				V1ConfigMap.class, List.of(namespace.name()), null, null, Duration.ZERO, true, Map.of(),
				InformerSpec.DEFAULT_PAGE_SIZE, InformerSpec.DEFAULT_WATCH_TIMEOUT, InformerSpec.DEFAULT_STALL_TIMEOUT,
				InformerSpec.DEFAULT_PING_INTERVAL, Set.of(), List.of()));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(30));
			create(api, namespace.name(), "fat-watched", LABELS);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> informer.lister().namespace(namespace.name()).get("fat-watched") != null);
			V1ConfigMap listed = cached(informer, namespace.name(), "fat-listed");
			V1ConfigMap watched = cached(informer, namespace.name(), "fat-watched");
			assertThat(watched.getMetadata().getNamespace()).isEqualTo(listed.getMetadata().getNamespace())
				.isNotSameAs(listed.getMetadata().getNamespace());
			assertThat(watched.getMetadata().getLabels().get("tier")).isEqualTo("frontend")
				.isNotSameAs(listed.getMetadata().getLabels().get("tier"));
		}
		finally {
			registry.stop();
		}
	}

	private static void assertSharedStrings(V1ConfigMap first, V1ConfigMap second) {
		assertThat(first.getMetadata().getNamespace()).isSameAs(second.getMetadata().getNamespace());
		for (String key : LABELS.keySet()) {
			assertThat(first.getMetadata().getLabels().get(key)).as("label value %s", key)
				.isSameAs(second.getMetadata().getLabels().get(key));
			assertThat(keyInstance(first.getMetadata().getLabels(), key)).as("label key %s", key)
				.isSameAs(keyInstance(second.getMetadata().getLabels(), key));
		}
		assertThat(first.getData().get("mode")).isSameAs(second.getData().get("mode"));
		// values unique to each object are not pooled, but still right
		assertThat(first.getMetadata().getName()).isEqualTo("listed");
		assertThat(second.getMetadata().getName()).isEqualTo("watched");
	}

	private static String keyInstance(Map<String, String> map, String key) {
		return map.keySet().stream().filter(key::equals).findFirst().orElseThrow();
	}

	private static V1ConfigMap cached(ResourceInformer<V1ConfigMap> informer, String namespace, String name) {
		return informer.lister().namespace(namespace).get(name);
	}

	private static void create(CoreV1Api api, String namespace, String name, Map<String, String> labels)
			throws ApiException {
		api.createNamespacedConfigMap(namespace,
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(Map.of("mode", "fast")))
			.execute();
	}

	/**
	 * A handler that copies what it is handed through JSON and changes its copy, as a
	 * handler building a desired state from the cached object does.
	 */
	private static final class CopyingHandler implements ResourceEventHandler<V1ConfigMap> {

		private final Gson gson;

		private final Map<String, V1ConfigMap> copies;

		CopyingHandler(Gson gson, Map<String, V1ConfigMap> copies) {
			this.gson = gson;
			this.copies = copies;
		}

		@Override
		public void onAdd(V1ConfigMap object) {
			V1ConfigMap copy = this.gson.fromJson(this.gson.toJson(object), V1ConfigMap.class);
			copy.getMetadata().putLabelsItem("extra", "copy");
			this.copies.put(object.getMetadata().getName(), copy);
		}

		@Override
		public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
			onAdd(newObject);
		}

		@Override
		public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
		}

	}

}
