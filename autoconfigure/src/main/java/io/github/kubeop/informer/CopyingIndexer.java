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
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Indexer;

/**
 * An informer's cache as application code reads it, as controller-runtime's cache reader
 * does: every object it returns is a {@linkplain DeepCopier deep copy}, the caller's to
 * change, and the cache can only be written by its informer. What the
 * {@code Lister}/{@code Indexer} beans read through.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class CopyingIndexer<T extends KubernetesObject> implements Indexer<T> {

	private final Indexer<T> cache;

	private final String informerName;

	CopyingIndexer(Indexer<T> cache, String informerName) {
		this.cache = cache;
		this.informerName = informerName;
	}

	@Override
	public T getByKey(String key) {
		return DeepCopier.copy(this.cache.getByKey(key));
	}

	@Override
	public Object get(T object) {
		return DeepCopier.copy(this.cache.get(object));
	}

	@Override
	public List<T> list() {
		return copies(this.cache.list());
	}

	@Override
	public List<String> listKeys() {
		return this.cache.listKeys();
	}

	@Override
	public List<T> index(String indexName, T object) {
		return copies(this.cache.index(indexName, object));
	}

	@Override
	public List<String> indexKeys(String indexName, String indexValue) {
		return this.cache.indexKeys(indexName, indexValue);
	}

	@Override
	public List<T> byIndex(String indexName, String indexValue) {
		return copies(this.cache.byIndex(indexName, indexValue));
	}

	@Override
	public Map<String, Function<T, List<String>>> getIndexers() {
		return this.cache.getIndexers();
	}

	@Override
	public void addIndexers(Map<String, Function<T, List<String>>> indexers) {
		this.cache.addIndexers(indexers);
	}

	@Override
	public void add(T object) {
		throw readOnly();
	}

	@Override
	public void update(T object) {
		throw readOnly();
	}

	@Override
	public void delete(T object) {
		throw readOnly();
	}

	@Override
	public void replace(List<T> objects, String resourceVersion) {
		throw readOnly();
	}

	@Override
	public void resync() {
		// nothing to do: the informer resyncs its handlers itself
	}

	private List<T> copies(List<T> objects) {
		List<T> copies = new ArrayList<>(objects.size());
		for (T object : objects) {
			copies.add(DeepCopier.copy(object));
		}
		return copies;
	}

	private UnsupportedOperationException readOnly() {
		return new UnsupportedOperationException("The cache of informer '" + this.informerName
				+ "' is written only by its informer, from what the API server sends; write to the API server instead");
	}

}
