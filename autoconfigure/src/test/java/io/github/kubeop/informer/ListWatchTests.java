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
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.kubeop.informer.ListWatch.ListMetadata;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for how {@link ListWatch} reads a page of a list as a stream.
 *
 * @author Kubeop authors
 */
class ListWatchTests {

	private static final String ITEMS = """
			[
			  {"metadata": {"namespace": "a", "name": "one", "resourceVersion": "1",
			    "managedFields": [{"manager": "kubectl"}]}, "data": {"k": "v"}},
			  {"metadata": {"namespace": "a", "name": "two", "resourceVersion": "2"}, "data": {"k": ["not", "a", "string"]}},
			  {"metadata": {"namespace": "a", "name": "three", "resourceVersion": "3"}}
			]""";

	private static final String METADATA = """
			{"resourceVersion": "7", "continue": "next", "remainingItemCount": 4}""";

	private final ApiClient client = new ApiClient();

	private final ListWatch<V1ConfigMap> listWatch = new ListWatch<>(
			new ResourceInformer<>(InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class),
					new ResourceKind("", "v1", "ConfigMap", "configmaps", true), this.client),
			this.client, "a");

	private final List<V1ConfigMap> objects = new ArrayList<>();

	private final Set<String> unreadable = new HashSet<>();

	@Test
	void pageWithMetadataBeforeItemsIsRead() throws IOException {
		ListMetadata metadata = read("""
				{"kind": "ConfigMapList", "apiVersion": "v1", "metadata": %s, "items": %s}""".formatted(METADATA,
				ITEMS));
		assertRead(metadata);
	}

	@Test
	void pageWithMetadataAfterItemsIsRead() throws IOException {
		ListMetadata metadata = read("""
				{"items": %s, "extra": {"nested": [1, {"x": null}]}, "metadata": %s}""".formatted(ITEMS, METADATA));
		assertRead(metadata);
	}

	@Test
	void itemThatDoesNotFitIsSkippedWithItsKeyWhenItsMetadataComesLast() throws IOException {
		ListMetadata metadata = read("""
				{"metadata": {"resourceVersion": "7"}, "items": [
				  {"data": {"k": ["not", "a", "string"], "later": {"deep": [1, 2]}}, "binaryData": {},
				    "metadata": {"namespace": "a", "name": "first", "labels": {"x": "y"}}},
				  {"metadata": {"namespace": "a", "name": "second"}, "data": {"k": "v"}}
				]}""");
		assertThat(metadata).isEqualTo(new ListMetadata("7", null));
		assertThat(this.unreadable).containsExactly("a/first");
		assertThat(this.objects).extracting((configMap) -> configMap.getMetadata().getName()).containsExactly("second");
		assertThat(this.objects.get(0).getData()).containsEntry("k", "v");
	}

	@Test
	void lastPageHasNoContinueToken() throws IOException {
		ListMetadata metadata = read("""
				{"metadata": {"resourceVersion": "9", "continue": ""}, "items": []}""");
		assertThat(metadata).isEqualTo(new ListMetadata("9", null));
		assertThat(this.objects).isEmpty();
	}

	@Test
	void responseThatIsNotAListIsNotTakenForAnEmptyList() {
		assertThatIOException().isThrownBy(() -> read("""
				{"kind": "Status", "metadata": {}, "status": "Success"}""")).withMessageContaining("no items");
		assertThatIOException().isThrownBy(() -> read("""
				{"items": []}""")).withMessageContaining("no metadata");
	}

	private ListMetadata read(String json) throws IOException {
		return this.listWatch.readPage(new StringReader(json), this.objects::add, this.unreadable::add, (metadata) -> {
		});
	}

	private void assertRead(ListMetadata metadata) {
		assertThat(metadata).isEqualTo(new ListMetadata("7", "next"));
		assertThat(this.objects).extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactly("one", "three");
		assertThat(this.objects).allSatisfy((configMap) -> {
			assertThat(configMap.getApiVersion()).isEqualTo("v1");
			assertThat(configMap.getKind()).isEqualTo("ConfigMap");
			assertThat(configMap.getMetadata().getManagedFields()).isNullOrEmpty();
		});
		assertThat(this.objects.get(0).getData()).containsEntry("k", "v");
		assertThat(this.unreadable).containsExactly("a/two");
	}

}
