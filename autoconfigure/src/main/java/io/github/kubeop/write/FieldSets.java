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

package io.github.kubeop.write;

import java.util.ArrayList;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

/**
 * The field sets of {@code metadata.managedFields} ({@code FieldsV1}, as
 * structured-merge-diff writes them): {@code f:<name>} for a field, {@code k:<json>} for
 * the item of a list keyed by fields, {@code v:<json>} for a value of a set,
 * {@code i:<index>} for an item of an atomic list by position, and {@code .} for the
 * field itself as opposed to what it holds.
 *
 * @author Kubeop authors
 */
final class FieldSets {

	private FieldSets() {
	}

	/**
	 * Adds a field set to another, in place.
	 * @param into the set to add to
	 * @param fields the set to add
	 */
	static void merge(JsonObject into, JsonObject fields) {
		for (Map.Entry<String, JsonElement> entry : fields.entrySet()) {
			if (!(entry.getValue() instanceof JsonObject child)) {
				continue;
			}
			JsonElement existing = into.get(entry.getKey());
			if (existing instanceof JsonObject existingChild) {
				merge(existingChild, child);
			}
			else {
				into.add(entry.getKey(), child.deepCopy());
			}
		}
	}

	/**
	 * Removes from an object, in place, every field that the {@code others} set holds and
	 * the {@code ours} set does not. A map, structure or list emptied that way is removed
	 * too, unless {@code ours} holds it.
	 * @param object the object
	 * @param others the fields of the other managers
	 * @param ours the fields of this manager
	 */
	static void removeOwnedByOthers(JsonObject object, JsonObject others, JsonObject ours) {
		for (String member : new ArrayList<>(object.keySet())) {
			JsonObject othersField = child(others, "f:" + member);
			if (othersField != null && drop(object.get(member), othersField, child(ours, "f:" + member))) {
				object.remove(member);
			}
		}
	}

	/**
	 * Removes what others own from a value whose field the others hold.
	 * @return whether the value itself is to be removed
	 */
	private static boolean drop(JsonElement value, JsonObject others, JsonObject ours) {
		if (ours != null && isLeaf(ours)) {
			// atomic and ours (too): the value is sent whole
			return false;
		}
		if (isLeaf(others)) {
			// atomic and theirs only
			return ours == null;
		}
		if (value instanceof JsonObject object) {
			removeOwnedByOthers(object, others, (ours != null) ? ours : new JsonObject());
			return object.isEmpty() && ours == null;
		}
		if (value instanceof JsonArray array) {
			for (int i = array.size() - 1; i >= 0; i--) {
				JsonElement item = array.get(i);
				JsonObject othersItem = itemOf(others, item, i);
				if (othersItem == null) {
					continue;
				}
				JsonObject oursItem = (ours != null) ? itemOf(ours, item, i) : null;
				boolean whole = (item instanceof JsonObject) ? drop(item, othersItem, oursItem) : oursItem == null;
				if (whole) {
					array.remove(i);
				}
			}
			return array.isEmpty() && ours == null;
		}
		return ours == null;
	}

	/**
	 * Whether a field set node stands for the field alone ({@code {}}), as atomic values
	 * and lists are recorded.
	 */
	private static boolean isLeaf(JsonObject node) {
		return node.isEmpty();
	}

	/**
	 * The node of a list item in a field set: by its key fields, its value, or its
	 * position.
	 */
	private static JsonObject itemOf(JsonObject list, JsonElement item, int index) {
		for (Map.Entry<String, JsonElement> entry : list.entrySet()) {
			String path = entry.getKey();
			if (!(entry.getValue() instanceof JsonObject node)) {
				continue;
			}
			if (path.startsWith("k:") && item instanceof JsonObject object && matchesKey(object, path.substring(2))) {
				return node;
			}
			if (path.startsWith("v:") && item.equals(parse(path.substring(2)))) {
				return node;
			}
			if (path.equals("i:" + index)) {
				return node;
			}
		}
		return null;
	}

	private static boolean matchesKey(JsonObject item, String key) {
		if (!(parse(key) instanceof JsonObject fields)) {
			return false;
		}
		return fields.entrySet()
			.stream()
			.allMatch((field) -> field.getValue().equals(item.get(field.getKey())) || (item.get(field.getKey()) != null
					&& field.getValue().isJsonPrimitive() && item.get(field.getKey()).isJsonPrimitive()
					&& field.getValue().getAsString().equals(item.get(field.getKey()).getAsString())));
	}

	private static JsonElement parse(String json) {
		try {
			return JsonParser.parseString(json);
		}
		catch (JsonParseException ex) {
			return null;
		}
	}

	private static JsonObject child(JsonObject node, String path) {
		return (node != null && node.get(path) instanceof JsonObject child) ? child : null;
	}

}
