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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;

/**
 * Makes the strings that many objects repeat (namespaces, label and annotation keys and
 * values, images, node names, owner kinds, container names, resource names, ...) one
 * instance each, by deduplicating the strings of an object's JSON before it is decoded
 * (Gson hands the decoded model the very instances of the JSON tree), or those of an
 * object's metadata once it is decoded; so the cached models stay the client's own
 * classes and share their repeated strings.
 * <p>
 * The pool is {@link StringPool}: it holds its strings weakly, so a string no cached
 * object uses any more is collected and churn does not grow it; and it is shared by every
 * informer, so that a namespace or a label that Pods and ConfigMaps both carry is kept
 * once. It costs a weak entry of about 40 bytes per distinct string, and a few times less
 * time per string than the JVM's string table ({@link String#intern()}) it replaced.
 * Values that are unique to an object (its name, uid and resourceVersion) and long values
 * (such as the last-applied configuration) are left alone, since pooling them saves
 * nothing and costs hashing.
 *
 * @author Kubeop authors
 */
final class StringDeduplication {

	/**
	 * Strings longer than this are not pooled: long values are rarely shared, and hashing
	 * them costs more than it saves.
	 */
	static final int MAX_LENGTH = 256;

	/**
	 * Metadata fields whose values are unique to each object.
	 */
	private static final Set<String> UNIQUE_METADATA_FIELDS = Set.of("name", "uid", "resourceVersion");

	private StringDeduplication() {
	}

	/**
	 * Replaces the repeated strings of an object's JSON by pooled instances, in place:
	 * object keys and short string values, except the metadata fields unique to each
	 * object.
	 * @param object the object's JSON
	 */
	static void deduplicate(JsonObject object) {
		deduplicateMembers(object, false);
	}

	/**
	 * Replaces the repeated strings of an object's own metadata, decoded without
	 * {@code managedFields}, by pooled instances, in place: as
	 * {@link #deduplicate(JsonObject)} does to the metadata of a tree, every string but
	 * the name, uid and resourceVersion, and the keys of the labels and annotations.
	 * @param metadata the object's metadata
	 */
	static void deduplicate(V1ObjectMeta metadata) {
		metadata.setNamespace(pooled(metadata.getNamespace()));
		metadata.setGenerateName(pooled(metadata.getGenerateName()));
		metadata.setSelfLink(pooled(metadata.getSelfLink()));
		deduplicate(metadata.getLabels());
		deduplicate(metadata.getAnnotations());
		List<String> finalizers = metadata.getFinalizers();
		if (finalizers != null) {
			finalizers.replaceAll(StringDeduplication::pooled);
		}
		if (metadata.getOwnerReferences() != null) {
			for (V1OwnerReference owner : metadata.getOwnerReferences()) {
				owner.setApiVersion(pooled(owner.getApiVersion()));
				owner.setKind(pooled(owner.getKind()));
				owner.setName(pooled(owner.getName()));
				owner.setUid(pooled(owner.getUid()));
			}
		}
	}

	/**
	 * Pools the keys and values of a map in place, keeping its order and its class.
	 */
	private static void deduplicate(Map<String, String> map) {
		if (map == null || map.isEmpty()) {
			return;
		}
		// a key cannot be replaced in place: take every entry out and put it back
		String[] entries = new String[map.size() * 2];
		int i = 0;
		for (Map.Entry<String, String> entry : map.entrySet()) {
			entries[i++] = entry.getKey();
			entries[i++] = entry.getValue();
		}
		map.clear();
		for (int j = 0; j < entries.length; j += 2) {
			map.put(pooled(entries[j]), pooled(entries[j + 1]));
		}
	}

	private static String pooled(String value) {
		return (value != null && value.length() <= MAX_LENGTH) ? StringPool.pooled(value) : value;
	}

	private static void deduplicateMembers(JsonObject object, boolean metadata) {
		// keys cannot be replaced in place: take every member out and put it back, in
		// order, under the pooled key
		List<Map.Entry<String, JsonElement>> members = new ArrayList<>(object.entrySet());
		for (Map.Entry<String, JsonElement> member : members) {
			object.remove(member.getKey());
		}
		for (Map.Entry<String, JsonElement> member : members) {
			String key = member.getKey();
			JsonElement value = member.getValue();
			if (metadata && UNIQUE_METADATA_FIELDS.contains(key)) {
				object.add(StringPool.pooled(key), value);
			}
			else if (!metadata && "metadata".equals(key) && value instanceof JsonObject objectMetadata) {
				deduplicateMembers(objectMetadata, true);
				object.add(StringPool.pooled(key), objectMetadata);
			}
			else {
				object.add(StringPool.pooled(key), deduplicate(value));
			}
		}
	}

	private static JsonElement deduplicate(JsonElement element) {
		if (element instanceof JsonObject object) {
			deduplicateMembers(object, false);
			return object;
		}
		if (element instanceof JsonArray array) {
			for (int i = 0; i < array.size(); i++) {
				array.set(i, deduplicate(array.get(i)));
			}
			return array;
		}
		if (element instanceof JsonPrimitive primitive && primitive.isString()) {
			String value = primitive.getAsString();
			String pooled = pooled(value);
			return (pooled != value) ? new JsonPrimitive(pooled) : primitive;
		}
		return element;
	}

}
