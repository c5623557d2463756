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
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for how {@link ResourceInformer} turns relists into events.
 *
 * @author Kubeop authors
 */
class ResourceInformerTests {

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final ResourceInformer<V1ConfigMap> informer = new ResourceInformer<>(
			InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("a", "b"),
			new ResourceKind("", "v1", "ConfigMap", "configmaps", true), new ApiClient());

	ResourceInformerTests() {
		this.informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
				ResourceInformerTests.this.events.add("add " + describe(obj));
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
				ResourceInformerTests.this.events.add("update " + describe(oldObj) + " -> " + describe(newObj));
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
				ResourceInformerTests.this.events
					.add("delete " + describe(obj) + (deletedFinalStateUnknown ? " (final state unknown)" : ""));
			}

		});
		this.informer.startDelivery();
	}

	@AfterEach
	void stop() {
		this.informer.stop();
	}

	@Test
	void relistReportsNewChangedAndVanishedObjectsOnly() {
		this.informer.replace("a", List.of(configMap("a", "one", "1"), configMap("a", "two", "2")), Set.of());
		this.informer.replace("a", List.of(configMap("a", "one", "1"), configMap("a", "three", "5")), Set.of());
		this.informer.replace("a", List.of(configMap("a", "one", "6"), configMap("a", "three", "5")), Set.of());
		awaitEvents("add a/one@1", "add a/two@2", "add a/three@5", "delete a/two@2 (final state unknown)",
				"update a/one@1 -> a/one@6");
	}

	@Test
	void streamedRelistTakesEachObjectAsItComesAndDeletesTheUnlistedAtTheEnd() {
		this.informer.replace("a", List.of(configMap("a", "one", "1"), configMap("a", "two", "2")), Set.of());
		ResourceInformer<V1ConfigMap>.Relist relist = this.informer.startRelist("a", false);
		relist.listed(configMap("a", "one", "3"));
		assertThat(this.informer.indexer().getByKey("a/one").getMetadata().getResourceVersion()).isEqualTo("3");
		assertThat(this.informer.indexer().listKeys()).as("nothing deleted before the end")
			.containsExactlyInAnyOrder("a/one", "a/two");
		relist.finish();
		assertThat(this.informer.indexer().listKeys()).containsExactly("a/one");
		awaitEvents("add a/one@1", "add a/two@2", "update a/one@1 -> a/one@3", "delete a/two@2 (final state unknown)");
	}

	@Test
	void relistStartedOverForgetsTheKeysItSaw() {
		this.informer.replace("a", List.of(configMap("a", "one", "1"), configMap("a", "two", "2")), Set.of());
		ResourceInformer<V1ConfigMap>.Relist relist = this.informer.startRelist("a", false);
		relist.listed(configMap("a", "one", "1"));
		relist.listed(configMap("a", "two", "2"));
		// the list read again in one piece, after a.two was deleted
		relist.restart();
		relist.listed(configMap("a", "one", "1"));
		relist.finish();
		assertThat(this.informer.indexer().listKeys()).containsExactly("a/one");
		awaitEvents("add a/one@1", "add a/two@2", "delete a/two@2 (final state unknown)");
	}

	@Test
	void firstListIsHeldBackUntilComplete() {
		ResourceInformer<V1ConfigMap>.Relist relist = this.informer.startRelist("a", true);
		relist.listed(configMap("a", "one", "1"));
		assertThat(this.informer.indexer().listKeys()).as("cached before the list completed").isEmpty();
		relist.listed(configMap("a", "two", "2"));
		relist.finish();
		assertThat(this.informer.indexer().listKeys()).containsExactlyInAnyOrder("a/one", "a/two");
		awaitEvents("add a/one@1", "add a/two@2");
	}

	@Test
	void objectReplacedUnderItsNameIsADeleteAndAnAddNeverAnUpdate() {
		V1ConfigMap first = configMap("a", "one", "1");
		first.getMetadata().uid("uid-1");
		V1ConfigMap second = configMap("a", "one", "5");
		second.getMetadata().uid("uid-2");
		V1ConfigMap third = configMap("a", "one", "9");
		third.getMetadata().uid("uid-3");
		this.informer.replace("a", List.of(first), Set.of());
		// deleted and created again while the watch was down: the relist lists another
		// object under the same name
		this.informer.replace("a", List.of(second), Set.of());
		// the same seen on a watch that resumed without the delete
		this.informer.upsert(third);
		assertThat(this.informer.indexer().getByKey("a/one")).isSameAs(third);
		awaitEvents("add a/one@1", "delete a/one@1 (final state unknown)", "add a/one@5",
				"delete a/one@5 (final state unknown)", "add a/one@9");
	}

	@Test
	void relistOfOneNamespaceLeavesTheOthersAlone() {
		this.informer.replace("a", List.of(configMap("a", "one", "1")), Set.of());
		this.informer.replace("b", List.of(configMap("b", "one", "2")), Set.of());
		this.informer.replace("a", List.of(), Set.of());
		assertThat(this.informer.indexer().listKeys()).containsExactly("b/one");
		awaitEvents("add a/one@1", "add b/one@2", "delete a/one@1 (final state unknown)");
	}

	@Test
	void unreadableListedObjectKeepsItsLastReadableState() {
		this.informer.replace("a", List.of(configMap("a", "one", "1")), Set.of());
		this.informer.replace("a", List.of(), Set.of("a/one"));
		assertThat(this.informer.indexer().listKeys()).containsExactly("a/one");
		awaitEvents("add a/one@1");
		this.informer.deleteKey("a/one");
		awaitEvents("add a/one@1", "delete a/one@1 (final state unknown)");
	}

	@Test
	void watchEventsUpdateTheCacheAndReachHandlers() {
		this.informer.upsert(configMap("a", "one", "1"));
		this.informer.upsert(configMap("a", "one", "2"));
		this.informer.delete(configMap("a", "one", "3"));
		assertThat(this.informer.indexer().listKeys()).isEmpty();
		awaitEvents("add a/one@1", "update a/one@1 -> a/one@2", "delete a/one@3");
	}

	@Test
	void handlerAddedLaterIsToldOfEveryCachedObject() {
		this.informer.replace("a", List.of(configMap("a", "one", "1")), Set.of());
		List<String> late = new CopyOnWriteArrayList<>();
		this.informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap obj) {
				late.add(describe(obj));
			}

			@Override
			public void onUpdate(V1ConfigMap oldObj, V1ConfigMap newObj) {
			}

			@Override
			public void onDelete(V1ConfigMap obj, boolean deletedFinalStateUnknown) {
			}

		});
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(late).containsExactly("a/one@1"));
	}

	@Test
	void stopEndsEveryHandlerThread() {
		this.informer.upsert(configMap("a", "one", "1"));
		awaitEvents("add a/one@1");
		assertThat(handlerThreads()).isNotEmpty();
		this.informer.stop();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(handlerThreads()).isEmpty());
	}

	private static List<Thread> handlerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("kubeop-informer-settings-handler-"))
			.toList();
	}

	private void awaitEvents(String... expected) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(this.events).containsExactly(expected));
	}

	private static V1ConfigMap configMap(String namespace, String name, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace(namespace).name(name).resourceVersion(resourceVersion));
	}

	private static String describe(V1ConfigMap configMap) {
		return configMap.getMetadata().getNamespace() + "/" + configMap.getMetadata().getName() + "@"
				+ configMap.getMetadata().getResourceVersion();
	}

}
