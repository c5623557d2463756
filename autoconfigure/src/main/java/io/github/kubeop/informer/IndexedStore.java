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
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.Indexer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The informer's cache: objects by key, and an index per index function, like client-go's
 * {@code threadSafeMap}. Unlike the official client's {@code Cache}, an index function
 * that throws for an object leaves that object out of that index only: the object is
 * still stored and in every other index, and the failure is counted and logged once per
 * key and index, so that one bad object can neither skip an event nor stop the informer.
 * The index values computed for each key are kept, so that removing an object never calls
 * an index function again.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class IndexedStore<T extends KubernetesObject> implements Indexer<T> {

	private static final Log logger = LogFactory.getLog(IndexedStore.class);

	private final String informerName;

	private final Map<String, T> items = new HashMap<>();

	private final Map<String, Index<T>> indexes = new LinkedHashMap<>();

	private long indexFailures;

	/**
	 * Creates an empty store with the {@code namespace} index that {@code Lister} uses.
	 * @param informerName the informer's name, for the log
	 */
	IndexedStore(String informerName) {
		this.informerName = informerName;
		this.indexes.put(Caches.NAMESPACE_INDEX, new Index<>(Caches.NAMESPACE_INDEX, Caches::metaNamespaceIndexFunc));
	}

	@Override
	public void add(T object) {
		put(object);
	}

	@Override
	public void update(T object) {
		put(object);
	}

	/**
	 * Stores an object under its key.
	 * @param object the object
	 * @return the object it replaced, or {@code null}
	 */
	synchronized T put(T object) {
		String key = ResourceInformer.key(object);
		T old = this.items.put(key, object);
		for (Index<T> index : this.indexes.values()) {
			index(index, key, object);
		}
		return old;
	}

	@Override
	public void delete(T object) {
		deleteByKey(ResourceInformer.key(object));
	}

	/**
	 * Removes the object stored under a key.
	 * @param key the key
	 * @return the removed object, or {@code null}
	 */
	synchronized T deleteByKey(String key) {
		T removed = this.items.remove(key);
		if (removed != null) {
			for (Index<T> index : this.indexes.values()) {
				index.remove(key);
				index.failing.remove(key);
			}
		}
		return removed;
	}

	@Override
	public synchronized void replace(List<T> objects, String resourceVersion) {
		for (String key : new ArrayList<>(this.items.keySet())) {
			deleteByKey(key);
		}
		objects.forEach(this::put);
	}

	@Override
	public void resync() {
		// nothing to do: the informer resyncs its handlers itself
	}

	@Override
	public synchronized List<String> listKeys() {
		return new ArrayList<>(this.items.keySet());
	}

	/**
	 * Returns how many objects the store holds.
	 * @return the size
	 */
	synchronized int size() {
		return this.items.size();
	}

	@Override
	public T get(T object) {
		return getByKey(ResourceInformer.key(object));
	}

	@Override
	public synchronized T getByKey(String key) {
		return this.items.get(key);
	}

	@Override
	public synchronized List<T> list() {
		return new ArrayList<>(this.items.values());
	}

	@Override
	public synchronized List<T> index(String indexName, T object) {
		Index<T> index = existing(indexName);
		// a query: a function that throws here throws to the caller that asked
		List<String> values = index.function.apply(object);
		Set<String> keys = new HashSet<>();
		if (values != null) {
			for (String value : values) {
				keys.addAll(index.keysByValue.getOrDefault(value, Collections.emptySet()));
			}
		}
		return objects(keys);
	}

	@Override
	public synchronized List<String> indexKeys(String indexName, String indexValue) {
		return new ArrayList<>(existing(indexName).keysByValue.getOrDefault(indexValue, Collections.emptySet()));
	}

	@Override
	public synchronized List<T> byIndex(String indexName, String indexValue) {
		return objects(existing(indexName).keysByValue.getOrDefault(indexValue, Collections.emptySet()));
	}

	@Override
	public synchronized Map<String, Function<T, List<String>>> getIndexers() {
		Map<String, Function<T, List<String>>> functions = new LinkedHashMap<>();
		this.indexes.forEach((name, index) -> functions.put(name, index.function));
		return Collections.unmodifiableMap(functions);
	}

	/**
	 * Adds indexes; unlike the official client's cache, a store that already holds
	 * objects indexes them at once.
	 * @param functions the index functions by index name
	 * @throws IllegalArgumentException if an index of one of the names exists
	 */
	@Override
	public synchronized void addIndexers(Map<String, Function<T, List<String>>> functions) {
		Set<String> conflicts = new HashSet<>(functions.keySet());
		conflicts.retainAll(this.indexes.keySet());
		if (!conflicts.isEmpty()) {
			throw new IllegalArgumentException("Indexer conflict: " + conflicts);
		}
		functions.forEach((name, function) -> {
			Index<T> index = new Index<>(name, function);
			this.indexes.put(name, index);
			this.items.forEach((key, object) -> index(index, key, object));
		});
	}

	/**
	 * Returns how many times an index function threw; each time, the object was left out
	 * of that index only.
	 * @return the number of index function failures
	 */
	synchronized long indexFailures() {
		return this.indexFailures;
	}

	/**
	 * Returns how many objects each index currently leaves out because its function threw
	 * for them.
	 * @return the number of objects left out, by index name, for indexes that leave any
	 * out
	 */
	synchronized Map<String, Integer> objectsLeftOutOfIndexes() {
		Map<String, Integer> leftOut = new LinkedHashMap<>();
		this.indexes.forEach((name, index) -> {
			if (!index.failing.isEmpty()) {
				leftOut.put(name, index.failing.size());
			}
		});
		return leftOut;
	}

	private void index(Index<T> index, String key, T object) {
		List<String> values;
		try {
			values = index.function.apply(object);
		}
		catch (RuntimeException ex) {
			index.remove(key);
			this.indexFailures++;
			if (index.failing.add(key)) {
				// once per key and index: a failing function is called on every change
				logger.warn("Index function '" + index.name + "' of informer '" + this.informerName + "' failed for "
						+ key + "; the object stays cached but is left out of that index: " + ex, ex);
			}
			return;
		}
		index.failing.remove(key);
		List<String> distinct = Index.distinct(values);
		if (distinct.equals(index.valuesByKey.getOrDefault(key, List.of()))) {
			// most changes keep an object's index values (its namespace): nothing to
			// move
			return;
		}
		index.remove(key);
		index.add(key, distinct);
	}

	private List<T> objects(Set<String> keys) {
		List<T> objects = new ArrayList<>(keys.size());
		for (String key : keys) {
			objects.add(this.items.get(key));
		}
		return objects;
	}

	private Index<T> existing(String indexName) {
		Index<T> index = this.indexes.get(indexName);
		if (index == null) {
			throw new IllegalArgumentException("Index " + indexName + " does not exist");
		}
		return index;
	}

	/**
	 * One index: the keys of the objects by index value, and the values last computed for
	 * each key.
	 */
	private static final class Index<T> {

		private final String name;

		private final Function<T, List<String>> function;

		private final Map<String, Set<String>> keysByValue = new HashMap<>();

		private final Map<String, List<String>> valuesByKey = new HashMap<>();

		/** Keys the function threw for, so that each is logged once. */
		private final Set<String> failing = new HashSet<>();

		Index(String name, Function<T, List<String>> function) {
			this.name = name;
			this.function = function;
		}

		/**
		 * Returns an index function's values without nulls and repeats, in their order.
		 */
		static List<String> distinct(List<String> values) {
			if (values == null || values.isEmpty()) {
				return List.of();
			}
			if (values.size() == 1) {
				// the usual single value, without a stream
				String value = values.get(0);
				return (value != null) ? List.of(value) : List.of();
			}
			return values.stream().filter(Objects::nonNull).distinct().toList();
		}

		/**
		 * Adds a key under its distinct values.
		 */
		void add(String key, List<String> distinct) {
			if (distinct.isEmpty()) {
				return;
			}
			this.valuesByKey.put(key, distinct);
			for (String value : distinct) {
				this.keysByValue.computeIfAbsent(value, (v) -> new HashSet<>()).add(key);
			}
		}

		void remove(String key) {
			List<String> values = this.valuesByKey.remove(key);
			if (values == null) {
				return;
			}
			for (String value : values) {
				Set<String> keys = this.keysByValue.get(value);
				if (keys != null) {
					keys.remove(key);
					if (keys.isEmpty()) {
						this.keysByValue.remove(value);
					}
				}
			}
		}

	}

}
