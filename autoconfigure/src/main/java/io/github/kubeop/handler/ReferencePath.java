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

package io.github.kubeop.handler;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

import org.springframework.core.ResolvableType;

/**
 * A reference path in a primary, such as {@code spec.configRef.name} or
 * {@code spec.consumers[].secretRef.name}, checked against the primary's class once and
 * then read from each object: by the Java fields that its JSON field names map to, or
 * from the JSON of a dynamic object.
 *
 * @author Kubeop authors
 */
final class ReferencePath {

	private final String text;

	private final List<Step> steps;

	private ReferencePath(String text, List<Step> steps) {
		this.text = text;
		this.steps = steps;
	}

	/**
	 * Parses a path and checks it against the primary's class: every field must exist,
	 * {@code []} must follow a list, and the last field must hold a string or a list of
	 * strings. A dynamic object's fields cannot be checked before it is read.
	 * @param text the path
	 * @param type the primary's class
	 * @return the path
	 * @throws IllegalArgumentException if the path does not fit the class, saying why
	 */
	static ReferencePath of(String text, Class<?> type) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("the path is empty");
		}
		List<Step> steps = new ArrayList<>();
		// resolved against the class: CustomResource's spec is a type variable
		ResolvableType current = ResolvableType.forClass(type);
		boolean dynamic = DynamicKubernetesObject.class.isAssignableFrom(type);
		String[] segments = text.trim().split("\\.", -1);
		for (int i = 0; i < segments.length; i++) {
			String segment = segments[i];
			boolean each = segment.endsWith("[]");
			String name = each ? segment.substring(0, segment.length() - 2) : segment;
			if (name.isEmpty() || name.contains("[") || name.contains("]")) {
				throw new IllegalArgumentException("segment '" + segment + "' is not a field name (write a list "
						+ "field's elements as 'field[]')");
			}
			if (dynamic) {
				steps.add(new Step(name, null, each));
				continue;
			}
			Class<?> owner = current.resolve(Object.class);
			Field field = field(owner, name);
			if (field == null) {
				throw new IllegalArgumentException(owner.getSimpleName() + " has no field '" + name + "'");
			}
			field.setAccessible(true);
			current = ResolvableType.forField(field, current);
			if (each) {
				current = elementType(current);
				if (current == ResolvableType.NONE) {
					throw new IllegalArgumentException("'" + name + "' of " + owner.getSimpleName()
							+ " is not a list, so '" + segment + "' has no elements");
				}
			}
			steps.add(new Step(name, field, each));
		}
		if (!dynamic && current.resolve() != String.class && elementType(current).resolve() != String.class) {
			throw new IllegalArgumentException("'" + segments[segments.length - 1] + "' holds "
					+ current.toString().replaceAll("[\\w.]+\\.", "") + ", not a string or a list of strings");
		}
		return new ReferencePath(text.trim(), List.copyOf(steps));
	}

	/**
	 * Returns the number of steps up to and including the last {@code []}: the part a
	 * namespace path beside this one must share.
	 * @return the length of the list prefix
	 */
	int listPrefix() {
		int prefix = 0;
		for (int i = 0; i < this.steps.size(); i++) {
			if (this.steps.get(i).each()) {
				prefix = i + 1;
			}
		}
		return prefix;
	}

	/**
	 * Checks that a namespace path reads beside this path: it shares this path's steps up
	 * to the last {@code []}, and takes no list after them.
	 * @param namespacePath the namespace path
	 * @throws IllegalArgumentException if it does not
	 */
	void checkBeside(ReferencePath namespacePath) {
		int prefix = listPrefix();
		boolean shares = namespacePath.steps.size() > prefix;
		for (int i = 0; shares && i < prefix; i++) {
			Step mine = this.steps.get(i);
			Step theirs = namespacePath.steps.get(i);
			shares = mine.name().equals(theirs.name()) && mine.each() == theirs.each();
		}
		if (!shares || namespacePath.listPrefix() > prefix) {
			throw new IllegalArgumentException("namespace path '" + namespacePath + "' does not read beside '" + this
					+ "': it must share its fields up to the last '[]' and take no other list");
		}
	}

	/**
	 * Returns the nodes the first steps lead to: the elements of the last list, or the
	 * object itself.
	 * @param root the primary
	 * @param count how many steps to follow
	 * @return the nodes, never {@code null}
	 */
	List<Object> nodes(Object root, int count) {
		List<Object> nodes = new ArrayList<>();
		collect(start(root), 0, count, nodes);
		return nodes;
	}

	/**
	 * Returns the strings the steps after the first {@code from} lead to from a node.
	 * @param node a node returned by {@link #nodes(Object, int)}
	 * @param from how many steps were followed to reach the node
	 * @return the strings, without {@code null}s
	 */
	List<String> strings(Object node, int from) {
		List<Object> leaves = new ArrayList<>();
		collect(node, from, this.steps.size(), leaves);
		List<String> strings = new ArrayList<>();
		for (Object leaf : leaves) {
			addStrings(leaf, strings);
		}
		return strings;
	}

	private static void addStrings(Object leaf, List<String> strings) {
		if (leaf instanceof String string) {
			strings.add(string);
		}
		else if (leaf instanceof JsonElement json && json.isJsonPrimitive() && json.getAsJsonPrimitive().isString()) {
			strings.add(json.getAsString());
		}
		else if (leaf instanceof Collection<?> collection) {
			collection.forEach((element) -> addStrings(element, strings));
		}
		else if (leaf instanceof JsonArray array) {
			array.forEach((element) -> addStrings(element, strings));
		}
	}

	private static Object start(Object root) {
		return (root instanceof DynamicKubernetesObject dynamic) ? dynamic.getRaw() : root;
	}

	private void collect(Object node, int index, int end, List<Object> out) {
		if (node == null) {
			return;
		}
		if (index == end) {
			out.add(node);
			return;
		}
		Step step = this.steps.get(index);
		Object value = step.read(node);
		if (value == null) {
			return;
		}
		if (!step.each()) {
			collect(value, index + 1, end, out);
		}
		else if (value instanceof Iterable<?> elements) {
			for (Object element : elements) {
				collect(element, index + 1, end, out);
			}
		}
		else if (value instanceof Object[] elements) {
			for (Object element : elements) {
				collect(element, index + 1, end, out);
			}
		}
	}

	private static Field field(Class<?> type, String name) {
		for (Class<?> candidate = type; candidate != null
				&& candidate != Object.class; candidate = candidate.getSuperclass()) {
			for (Field field : candidate.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers()) || Modifier.isTransient(field.getModifiers())) {
					continue;
				}
				SerializedName serialized = field.getAnnotation(SerializedName.class);
				String jsonName = (serialized != null) ? serialized.value() : field.getName();
				if (jsonName.equals(name)) {
					return field;
				}
			}
		}
		return null;
	}

	private static ResolvableType elementType(ResolvableType type) {
		if (type.isArray()) {
			return type.getComponentType();
		}
		ResolvableType iterable = type.as(Iterable.class);
		return (iterable != ResolvableType.NONE) ? iterable.getGeneric(0) : ResolvableType.NONE;
	}

	@Override
	public String toString() {
		return this.text;
	}

	/**
	 * One field of a path.
	 *
	 * @param name the JSON field name
	 * @param field the Java field, or {@code null} for JSON
	 * @param each whether the field's elements are taken
	 */
	private record Step(String name, Field field, boolean each) {

		Object read(Object node) {
			if (node instanceof JsonObject json) {
				return json.get(this.name);
			}
			if (this.field == null || !this.field.getDeclaringClass().isInstance(node)) {
				return null;
			}
			try {
				return this.field.get(node);
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException("Cannot read field '" + this.name + "'", ex);
			}
		}

	}

}
