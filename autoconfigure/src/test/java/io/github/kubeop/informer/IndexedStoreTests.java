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

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link IndexedStore}.
 *
 * @author Kubeop authors
 */
class IndexedStoreTests {

	private final AtomicInteger teamCalls = new AtomicInteger();

	private final IndexedStore<V1ConfigMap> store = new IndexedStore<>("test");

	IndexedStoreTests() {
		this.store.addIndexers(Map.of("team", (configMap) -> {
			this.teamCalls.incrementAndGet();
			String team = configMap.getMetadata().getLabels().get("team");
			if (team.equals("poison")) {
				throw new IllegalStateException("poison");
			}
			return List.of(team);
		}));
	}

	@Test
	void objectWhoseIndexFunctionThrowsIsStoredAndInOtherIndexes() {
		this.store.put(configMap("one", "poison"));
		this.store.put(configMap("two", "a"));
		assertThat(this.store.getByKey("ns/one")).isNotNull();
		assertThat(this.store.byIndex("namespace", "ns")).hasSize(2);
		assertThat(this.store.byIndex("team", "a")).extracting((c) -> c.getMetadata().getName()).containsExactly("two");
		assertThat(this.store.indexKeys("team", "poison")).isEmpty();
		assertThat(this.store.indexFailures()).isEqualTo(1);
		assertThat(this.store.objectsLeftOutOfIndexes()).containsExactly(Map.entry("team", 1));
	}

	@Test
	void objectIsIndexedAgainOnceItsFunctionNoLongerThrows() {
		this.store.put(configMap("one", "poison"));
		this.store.put(configMap("one", "b"));
		assertThat(this.store.indexKeys("team", "b")).containsExactly("ns/one");
		assertThat(this.store.indexFailures()).isEqualTo(1);
		assertThat(this.store.objectsLeftOutOfIndexes()).isEmpty();
	}

	@Test
	void changedObjectLeavesItsOldIndexValues() {
		this.store.put(configMap("one", "a"));
		this.store.put(configMap("one", "poison"));
		assertThat(this.store.indexKeys("team", "a")).isEmpty();
		assertThat(this.store.getByKey("ns/one").getMetadata().getLabels()).containsEntry("team", "poison");
	}

	@Test
	void deleteUsesTheValuesComputedOnStoreWithoutCallingTheFunctionAgain() {
		this.store.put(configMap("one", "a"));
		int calls = this.teamCalls.get();
		this.store.delete(configMap("one", "poison"));
		assertThat(this.teamCalls).hasValue(calls);
		assertThat(this.store.indexKeys("team", "a")).isEmpty();
		assertThat(this.store.list()).isEmpty();
	}

	@Test
	void deletedObjectIsNoLongerCountedAsLeftOut() {
		this.store.put(configMap("one", "poison"));
		this.store.deleteByKey("ns/one");
		assertThat(this.store.objectsLeftOutOfIndexes()).isEmpty();
		assertThat(this.store.indexFailures()).isEqualTo(1);
	}

	@Test
	void indexAddedToAFilledStoreIndexesItsObjects() {
		this.store.put(configMap("one", "a"));
		this.store.addIndexers(Map.of("name", (configMap) -> List.of(configMap.getMetadata().getName())));
		assertThat(this.store.indexKeys("name", "one")).containsExactly("ns/one");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.store.addIndexers(Map.of("name", (configMap) -> List.of())));
	}

	@Test
	void unknownIndexIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.byIndex("missing", "a"));
	}

	private static V1ConfigMap configMap(String name, String team) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ns").name(name).labels(Map.of("team", team)));
	}

}
