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
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;

/**
 * What an informer watches and how: the resource, its scope and selectors, and the cache
 * options. Informers whose specs have the same {@link #sharingKey()} are one informer:
 * one list and watch, one cache, shared by every consumer in the application.
 *
 * @param <T> the Java type of the objects
 * @param name the name consumers know the informer by, such as the property key
 * {@code pods}
 * @param apiVersion the API version, such as {@code v1} or {@code apps/v1}
 * @param kind the kind or plural, such as {@code Pod} or {@code pods}
 * @param type the Java type objects are converted to: a generated model, or
 * {@link io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject}
 * @param namespaces the namespaces to watch, empty for all namespaces
 * @param labelSelector the label selector, or {@code null}
 * @param fieldSelector the field selector, or {@code null}
 * @param resyncPeriod how often handlers are handed every cached object again,
 * {@link Duration#ZERO} for never
 * @param stripManagedFields whether {@code metadata.managedFields} is dropped before
 * objects are cached
 * @param indexers index functions by index name
 * @param pageSize how many objects one page of the initial list holds
 * @param watchTimeout how long the server keeps one watch open at most, before it is
 * reopened from the last resourceVersion
 * @param stallTimeout how long a watch may deliver nothing (not even the bookmark the API
 * server sends every minute) before it is taken for dead and replaced, once the server
 * has sent a bookmark; {@link Duration#ZERO} for never
 * @param pingInterval how often the HTTP/2 connection of a watch is pinged; a connection
 * that does not answer before the next ping is taken for dead, {@link Duration#ZERO} for
 * no pings
 * @param standardTransforms the ready-made transforms applied to each object's JSON
 * before it is decoded; {@link StandardTransform#STRIP_MANAGED_FIELDS} is among them if
 * and only if {@code stripManagedFields} is set
 * @param transforms the transforms applied, in order, to each decoded object before it is
 * cached
 * @param encoding the encoding lists and watches ask for
 * @author Kubeop authors
 */
public record InformerSpec<T extends KubernetesObject>(String name, String apiVersion, String kind, Class<T> type,
		List<String> namespaces, String labelSelector, String fieldSelector, Duration resyncPeriod,
		boolean stripManagedFields, Map<String, Function<T, List<String>>> indexers, int pageSize,
		Duration watchTimeout, Duration stallTimeout, Duration pingInterval, Set<StandardTransform> standardTransforms,
		List<TransformFunction<T>> transforms, Encoding encoding) {

	/**
	 * The default page size of initial lists.
	 */
	public static final int DEFAULT_PAGE_SIZE = 500;

	/**
	 * The default server-side watch timeout.
	 */
	public static final Duration DEFAULT_WATCH_TIMEOUT = Duration.ofMinutes(5);

	/**
	 * The default stall timeout: the API server sends a bookmark every minute to watches
	 * that ask for bookmarks and have a deadline, so a healthy watch is never this quiet.
	 */
	public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(150);

	/**
	 * The default ping interval of watch connections, client-go's HTTP/2 read-idle
	 * timeout: a dead connection is found within one to two intervals.
	 */
	public static final Duration DEFAULT_PING_INTERVAL = Duration.ofSeconds(30);

	/**
	 * Creates a spec whose watch connections are pinged every
	 * {@link #DEFAULT_PING_INTERVAL}.
	 * @param name the informer name
	 * @param apiVersion the API version
	 * @param kind the kind or plural
	 * @param type the Java type
	 * @param namespaces the namespaces, empty for all
	 * @param labelSelector the label selector, or {@code null}
	 * @param fieldSelector the field selector, or {@code null}
	 * @param resyncPeriod the resync period
	 * @param stripManagedFields whether managed fields are dropped
	 * @param indexers the index functions by index name
	 * @param pageSize the page size of lists
	 * @param watchTimeout the server-side watch timeout
	 * @param stallTimeout how long a silent watch is trusted
	 */
	public InformerSpec(String name, String apiVersion, String kind, Class<T> type, List<String> namespaces,
			String labelSelector, String fieldSelector, Duration resyncPeriod, boolean stripManagedFields,
			Map<String, Function<T, List<String>>> indexers, int pageSize, Duration watchTimeout,
			Duration stallTimeout) {
		this(name, apiVersion, kind, type, namespaces, labelSelector, fieldSelector, resyncPeriod, stripManagedFields,
				indexers, pageSize, watchTimeout, stallTimeout, DEFAULT_PING_INTERVAL);
	}

	/**
	 * Creates a spec without transforms other than managed-fields stripping.
	 * @param name the informer name
	 * @param apiVersion the API version
	 * @param kind the kind or plural
	 * @param type the Java type
	 * @param namespaces the namespaces, empty for all
	 * @param labelSelector the label selector, or {@code null}
	 * @param fieldSelector the field selector, or {@code null}
	 * @param resyncPeriod the resync period
	 * @param stripManagedFields whether managed fields are dropped
	 * @param indexers the index functions by index name
	 * @param pageSize the page size of lists
	 * @param watchTimeout the server-side watch timeout
	 * @param stallTimeout how long a silent watch is trusted
	 * @param pingInterval the ping interval of watch connections
	 */
	public InformerSpec(String name, String apiVersion, String kind, Class<T> type, List<String> namespaces,
			String labelSelector, String fieldSelector, Duration resyncPeriod, boolean stripManagedFields,
			Map<String, Function<T, List<String>>> indexers, int pageSize, Duration watchTimeout, Duration stallTimeout,
			Duration pingInterval) {
		this(name, apiVersion, kind, type, namespaces, labelSelector, fieldSelector, resyncPeriod, stripManagedFields,
				indexers, pageSize, watchTimeout, stallTimeout, pingInterval, Set.of(), List.of());
	}

	/**
	 * Creates a spec that asks for the {@linkplain Encoding#DEFAULT default encoding}.
	 * @param name the informer name
	 * @param apiVersion the API version
	 * @param kind the kind or plural
	 * @param type the Java type
	 * @param namespaces the namespaces, empty for all
	 * @param labelSelector the label selector, or {@code null}
	 * @param fieldSelector the field selector, or {@code null}
	 * @param resyncPeriod the resync period
	 * @param stripManagedFields whether managed fields are dropped
	 * @param indexers the index functions by index name
	 * @param pageSize the page size of lists
	 * @param watchTimeout the server-side watch timeout
	 * @param stallTimeout how long a silent watch is trusted
	 * @param pingInterval the ping interval of watch connections
	 * @param standardTransforms the ready-made transforms
	 * @param transforms the transforms applied to each decoded object
	 */
	public InformerSpec(String name, String apiVersion, String kind, Class<T> type, List<String> namespaces,
			String labelSelector, String fieldSelector, Duration resyncPeriod, boolean stripManagedFields,
			Map<String, Function<T, List<String>>> indexers, int pageSize, Duration watchTimeout, Duration stallTimeout,
			Duration pingInterval, Set<StandardTransform> standardTransforms, List<TransformFunction<T>> transforms) {
		this(name, apiVersion, kind, type, namespaces, labelSelector, fieldSelector, resyncPeriod, stripManagedFields,
				indexers, pageSize, watchTimeout, stallTimeout, pingInterval, standardTransforms, transforms,
				Encoding.DEFAULT);
	}

	public InformerSpec {
		encoding = (encoding != null) ? encoding : Encoding.DEFAULT;
		namespaces = namespaces.stream().distinct().sorted().toList();
		// one mechanism for all ready-made transforms; the flag stays as its view
		Set<StandardTransform> standard = EnumSet.noneOf(StandardTransform.class);
		standard.addAll(standardTransforms);
		if (stripManagedFields) {
			standard.add(StandardTransform.STRIP_MANAGED_FIELDS);
		}
		stripManagedFields = standard.contains(StandardTransform.STRIP_MANAGED_FIELDS);
		standardTransforms = Collections.unmodifiableSet(standard);
		transforms = List.copyOf(transforms);
		indexers = Map.copyOf(indexers);
		labelSelector = blankToNull(labelSelector);
		fieldSelector = blankToNull(fieldSelector);
	}

	/**
	 * Returns a spec with defaults: all namespaces, no selectors, no resync, managed
	 * fields stripped, repeated strings deduplicated, no indexers.
	 * @param <T> the Java type of the objects
	 * @param name the informer name
	 * @param apiVersion the API version
	 * @param kind the kind or plural
	 * @param type the Java type
	 * @return the spec
	 */
	public static <T extends KubernetesObject> InformerSpec<T> of(String name, String apiVersion, String kind,
			Class<T> type) {
		return new InformerSpec<>(name, apiVersion, kind, type, List.of(), null, null, Duration.ZERO, true, Map.of(),
				DEFAULT_PAGE_SIZE, DEFAULT_WATCH_TIMEOUT, DEFAULT_STALL_TIMEOUT, DEFAULT_PING_INTERVAL,
				Set.of(StandardTransform.DEDUPLICATE_STRINGS), List.of(), Encoding.DEFAULT);
	}

	/**
	 * Returns this spec limited to the given namespaces.
	 * @param namespaces the namespaces, none for all
	 * @return the new spec
	 */
	public InformerSpec<T> withNamespaces(String... namespaces) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, List.of(namespaces),
				this.labelSelector, this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers,
				this.pageSize, this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms,
				this.transforms, this.encoding);
	}

	/**
	 * Returns this spec with a label selector.
	 * @param labelSelector the label selector
	 * @return the new spec
	 */
	public InformerSpec<T> withLabelSelector(String labelSelector) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms, this.transforms,
				this.encoding);
	}

	/**
	 * Returns this spec with a resync period.
	 * @param resyncPeriod the period, {@link Duration#ZERO} for none
	 * @return the new spec
	 */
	public InformerSpec<T> withResyncPeriod(Duration resyncPeriod) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms, this.transforms,
				this.encoding);
	}

	/**
	 * Returns this spec with another page size for the initial list.
	 * @param pageSize the page size
	 * @return the new spec
	 */
	public InformerSpec<T> withPageSize(int pageSize) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms, this.transforms,
				this.encoding);
	}

	/**
	 * Returns this spec with other watch timeouts.
	 * @param watchTimeout the server-side watch timeout
	 * @param stallTimeout how long a silent watch is trusted
	 * @return the new spec
	 */
	public InformerSpec<T> withWatchTimeouts(Duration watchTimeout, Duration stallTimeout) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				watchTimeout, stallTimeout, this.pingInterval, this.standardTransforms, this.transforms, this.encoding);
	}

	/**
	 * Returns this spec with another ping interval for watch connections.
	 * @param pingInterval the interval, {@link Duration#ZERO} for no pings
	 * @return the new spec
	 */
	public InformerSpec<T> withPingInterval(Duration pingInterval) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, pingInterval, this.standardTransforms, this.transforms,
				this.encoding);
	}

	/**
	 * Returns this spec with an index.
	 * @param indexName the index name
	 * @param function the index function
	 * @return the new spec
	 */
	public InformerSpec<T> withIndexer(String indexName, Function<T, List<String>> function) {
		Map<String, Function<T, List<String>>> indexers = new java.util.HashMap<>(this.indexers);
		indexers.put(indexName, function);
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms, this.transforms,
				this.encoding);
	}

	/**
	 * Returns this spec with ready-made transforms added.
	 * @param transforms the ready-made transforms
	 * @return the new spec
	 */
	public InformerSpec<T> withStandardTransforms(StandardTransform... transforms) {
		Set<StandardTransform> standard = EnumSet.noneOf(StandardTransform.class);
		standard.addAll(this.standardTransforms);
		standard.addAll(List.of(transforms));
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, standard, this.transforms, this.encoding);
	}

	/**
	 * Returns this spec with a transform applied after those it has.
	 * @param transform the transform
	 * @return the new spec
	 */
	public InformerSpec<T> withTransform(TransformFunction<T> transform) {
		List<TransformFunction<T>> transforms = new ArrayList<>(this.transforms);
		transforms.add(transform);
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms, transforms,
				this.encoding);
	}

	/**
	 * Returns this spec asking for the given encoding.
	 * @param encoding the encoding
	 * @return the new spec
	 */
	public InformerSpec<T> withEncoding(Encoding encoding) {
		return new InformerSpec<>(this.name, this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.resyncPeriod, this.stripManagedFields, this.indexers, this.pageSize,
				this.watchTimeout, this.stallTimeout, this.pingInterval, this.standardTransforms, this.transforms,
				encoding);
	}

	/**
	 * Returns whether the informer lists and watches only the metadata of objects, as
	 * {@link PartialObjectMetadata}.
	 * @return whether the informer is metadata-only
	 */
	public boolean metadataOnly() {
		return this.type == PartialObjectMetadata.class;
	}

	/**
	 * Returns what makes two specs one informer: resource, Java type (metadata-only or
	 * not), scope, selectors and transforms.
	 * @return the sharing key
	 */
	public SharingKey sharingKey() {
		return new SharingKey(this.apiVersion, this.kind, this.type, this.namespaces, this.labelSelector,
				this.fieldSelector, this.stripManagedFields, this.standardTransforms, this.transforms);
	}

	/**
	 * Returns a readable scope, such as {@code all namespaces} or
	 * {@code namespaces [a, b]}.
	 * @return the scope
	 */
	public String scope() {
		String scope = this.namespaces.isEmpty() ? "all namespaces" : (this.namespaces.size() == 1)
				? "namespace " + this.namespaces.get(0) : "namespaces " + this.namespaces;
		if (this.labelSelector != null) {
			scope += ", labels " + this.labelSelector;
		}
		if (this.fieldSelector != null) {
			scope += ", fields " + this.fieldSelector;
		}
		return scope;
	}

	private static String blankToNull(String value) {
		return (value == null || value.isBlank()) ? null : value.trim();
	}

	/**
	 * The identity of a shared informer.
	 *
	 * @param apiVersion the API version
	 * @param kind the kind or plural
	 * @param type the Java type
	 * @param namespaces the sorted namespaces
	 * @param labelSelector the label selector
	 * @param fieldSelector the field selector
	 * @param stripManagedFields whether managed fields are stripped
	 * @param standardTransforms the ready-made transforms
	 * @param transforms the transforms, compared by identity
	 */
	public record SharingKey(String apiVersion, String kind, Class<?> type, List<String> namespaces,
			String labelSelector, String fieldSelector, boolean stripManagedFields,
			Set<StandardTransform> standardTransforms, List<? extends TransformFunction<?>> transforms) {

	}

	/**
	 * The encoding an informer's lists and watches ask the API server for.
	 */
	public enum Encoding {

		/**
		 * Protobuf ({@code application/vnd.kubernetes.protobuf}) for the built-in kinds,
		 * as client-go asks for, with JSON as the fallback: custom resources,
		 * metadata-only informers, and servers that answer JSON, are read as JSON. The
		 * default.
		 */
		PROTOBUF,

		/**
		 * JSON only.
		 */
		JSON;

		/**
		 * The encoding informers ask for unless configured otherwise: protobuf, which
		 * costs less CPU per event than JSON on decode-heavy kinds such as Pods.
		 */
		public static final Encoding DEFAULT = PROTOBUF;

	}

}
