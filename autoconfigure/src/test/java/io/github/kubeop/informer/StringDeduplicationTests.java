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

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link StringDeduplication}.
 *
 * @author Kubeop authors
 */
class StringDeduplicationTests {

	private static final String POD = """
			{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop","uid":"u-1",
			"resourceVersion":"7","labels":{"app":"web"},"annotations":{"long":"%s"},
			"ownerReferences":[{"kind":"ReplicaSet","name":"web-5d7f","uid":"u-rs"}]},
			"spec":{"nodeName":"node-1","containers":[{"name":"app","image":"shop/web:1.2","ports":[{"containerPort":8080}]}]}}"""
		.formatted("x".repeat(StringDeduplication.MAX_LENGTH + 1));

	@Test
	void keepsEveryValueAndTheOrderOfMembers() {
		JsonObject object = JsonParser.parseString(POD).getAsJsonObject();
		StringDeduplication.deduplicate(object);
		assertThat(object).isEqualTo(JsonParser.parseString(POD));
		assertThat(object.toString()).isEqualTo(JsonParser.parseString(POD).toString());
	}

	@Test
	void pooledStringsNoObjectUsesAnyMoreAreCollected() {
		// churn: values that come and go with objects must not stay in the pool
		List<WeakReference<String>> pooled = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			JsonObject object = JsonParser
				.parseString("{\"metadata\":{\"labels\":{\"churn\":\"" + UUID.randomUUID() + "\"}}}")
				.getAsJsonObject();
			StringDeduplication.deduplicate(object);
			String value = object.getAsJsonObject("metadata").getAsJsonObject("labels").get("churn").getAsString();
			assertThat(value).isSameAs(StringPool.pooled(new String(value)));
			pooled.add(new WeakReference<>(value));
		}
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
			System.gc();
			return pooled.stream().allMatch((reference) -> reference.get() == null);
		});
	}

	@Test
	void poolsRepeatedStringsOnly() {
		JsonObject object = JsonParser.parseString(POD).getAsJsonObject();
		JsonObject metadata = object.getAsJsonObject("metadata");
		String name = metadata.get("name").getAsString();
		String uid = metadata.get("uid").getAsString();
		String annotation = metadata.getAsJsonObject("annotations").get("long").getAsString();
		StringDeduplication.deduplicate(object);
		JsonObject owner = metadata.getAsJsonArray("ownerReferences").get(0).getAsJsonObject();
		JsonObject container = object.getAsJsonObject("spec").getAsJsonArray("containers").get(0).getAsJsonObject();
		for (String shared : List.of(metadata.get("namespace").getAsString(),
				metadata.getAsJsonObject("labels").get("app").getAsString(), owner.get("kind").getAsString(),
				owner.get("name").getAsString(), container.get("image").getAsString(),
				object.getAsJsonObject("spec").get("nodeName").getAsString())) {
			assertThat(shared).isSameAs(StringPool.pooled(new String(shared)));
		}
		for (Map.Entry<String, ?> label : metadata.getAsJsonObject("labels").entrySet()) {
			assertThat(label.getKey()).isSameAs(StringPool.pooled(new String(label.getKey())));
		}
		assertThat(metadata.get("name").getAsString()).isSameAs(name);
		assertThat(metadata.get("uid").getAsString()).isSameAs(uid);
		assertThat(metadata.getAsJsonObject("annotations").get("long").getAsString()).isSameAs(annotation);
	}

	@Test
	void poolsEveryStringOfTheMetadataModelButTheOnesUniqueToItsObject() throws IllegalAccessException {
		String json = """
				{"name":"web-1","generateName":"web-","namespace":"shop","uid":"u-1","resourceVersion":"7",
				"selfLink":"/api/v1/namespaces/shop/pods/web-1","generation":2,"creationTimestamp":"2026-01-02T03:04:05Z",
				"labels":{"app":"web"},"annotations":{"team":"a"},"finalizers":["example.com/keep"],
				"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d7f","uid":"u-rs",
				"controller":true}]}""";
		// two decodes of the same metadata: a pooled string is one instance in both
		V1ObjectMeta first = JSON.getGson().fromJson(json, V1ObjectMeta.class);
		V1ObjectMeta second = JSON.getGson().fromJson(json, V1ObjectMeta.class);
		StringDeduplication.deduplicate(first);
		StringDeduplication.deduplicate(second);
		Map<String, String> firstStrings = strings("", first, new LinkedHashMap<>());
		Map<String, String> secondStrings = strings("", second, new LinkedHashMap<>());
		// every string field the model has, found by reflection: a field the client adds
		// later is checked too
		assertThat(firstStrings).hasSize(15).isEqualTo(secondStrings);
		for (Map.Entry<String, String> string : firstStrings.entrySet()) {
			String path = string.getKey();
			if (List.of(".name", ".uid", ".resourceVersion").contains(path)) {
				assertThat(string.getValue()).as(path).isNotSameAs(secondStrings.get(path));
			}
			else {
				assertThat(string.getValue()).as(path).isSameAs(secondStrings.get(path));
			}
		}
	}

	/**
	 * Collects every string reachable from a model: its fields, the keys and values of
	 * its maps, the elements of its lists, by their path.
	 */
	private static Map<String, String> strings(String path, Object value, Map<String, String> found)
			throws IllegalAccessException {
		if (value instanceof String string) {
			found.put(path, string);
		}
		else if (value instanceof Map<?, ?> map) {
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				found.put(path + "{key " + entry.getKey() + "}", (String) entry.getKey());
				strings(path + "{" + entry.getKey() + "}", entry.getValue(), found);
			}
		}
		else if (value instanceof List<?> list) {
			for (int i = 0; i < list.size(); i++) {
				strings(path + "[" + i + "]", list.get(i), found);
			}
		}
		else if (value != null && value.getClass().getPackageName().startsWith("io.kubernetes.client")) {
			for (Field field : value.getClass().getDeclaredFields()) {
				if (!Modifier.isStatic(field.getModifiers())) {
					field.setAccessible(true);
					strings(path + "." + field.getName(), field.get(value), found);
				}
			}
		}
		return found;
	}

}
