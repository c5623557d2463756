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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.cache.Cache;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A shared informer: lists and watches one resource in one scope and keeps an indexed
 * cache of it, readable through {@link #lister()} and {@link #indexer()}, and tells
 * registered {@link ResourceEventHandler handlers} what changed. Each namespace of the
 * scope has a list-and-watch loop of its own; all of them feed the one cache.
 * <p>
 * Unlike the official client's informer, the initial list is paged, watches ask for
 * bookmarks and carry a server-side timeout so that a stalled watch is replaced, failures
 * back off with jitter, and a relist after a broken watch reports objects deleted
 * meanwhile to {@link ResourceEventHandler#onDelete(Object, boolean)} with
 * {@code deletedFinalStateUnknown = true}. Handlers are called on the informer's own
 * threads and must return quickly.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
public final class ResourceInformer<T extends KubernetesObject> {

	private static final Log logger = LogFactory.getLog(ResourceInformer.class);

	private final InformerSpec<T> spec;

	private final ResourceKind resource;

	private final Cache<T> cache = new Cache<>();

	private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();

	private final List<ListWatch<T>> loops;

	private final Gson gson;

	private final Object storeLock = new Object();

	private final AtomicLong addEvents = new AtomicLong();

	private final AtomicLong updateEvents = new AtomicLong();

	private final AtomicLong deleteEvents = new AtomicLong();

	private volatile long lastEventNanos = System.nanoTime();

	private ScheduledFuture<?> resync;

	ResourceInformer(InformerSpec<T> spec, ResourceKind resource, ApiClient client) {
		this.spec = spec;
		this.resource = resource;
		this.gson = client.getJSON().getGson();
		this.cache.addIndexers(new HashMap<>(spec.indexers()));
		List<String> namespaces = (resource.namespaced() && !spec.namespaces().isEmpty()) ? spec.namespaces()
				: java.util.Collections.singletonList(null);
		this.loops = namespaces.stream().map((namespace) -> new ListWatch<>(this, client, namespace)).toList();
	}

	/**
	 * Returns the spec this informer was created from.
	 * @return the spec
	 */
	public InformerSpec<T> spec() {
		return this.spec;
	}

	/**
	 * Returns the resource this informer watches.
	 * @return the resource
	 */
	public ResourceKind resource() {
		return this.resource;
	}

	/**
	 * Returns the cache, with its indexes.
	 * @return the indexer
	 */
	public Indexer<T> indexer() {
		return this.cache;
	}

	/**
	 * Returns a lister over the cache.
	 * @return the lister
	 */
	public Lister<T> lister() {
		return new Lister<>(this.cache);
	}

	/**
	 * Adds a handler. A handler added after the cache has filled is first told of every
	 * cached object, as an add.
	 * @param handler the handler
	 */
	public void addEventHandler(ResourceEventHandler<T> handler) {
		synchronized (this.storeLock) {
			this.handlers.add(handler);
			this.cache.list().forEach((object) -> notify(() -> handler.onAdd(object)));
		}
	}

	/**
	 * Adds an index before the informer starts.
	 * @param indexName the index name
	 * @param function the index function
	 */
	public void addIndexer(String indexName, java.util.function.Function<T, List<String>> function) {
		if (this.cache.getIndexers().containsKey(indexName)) {
			return;
		}
		this.cache.addIndexers(Map.of(indexName, function));
	}

	/**
	 * Returns whether the initial list has completed in every namespace.
	 * @return whether the cache has synced
	 */
	public boolean hasSynced() {
		return this.loops.stream().allMatch(ListWatch::hasSynced);
	}

	/**
	 * Returns the current state.
	 * @return the status
	 */
	public InformerStatus status() {
		ListWatch<T> worst = this.loops.stream()
			.max(Comparator.comparing(ListWatch::state, Comparator.comparingInt(ResourceInformer::severity)))
			.orElseThrow();
		Instant since = this.loops.stream()
			.map(ListWatch::reconnectingSince)
			.filter(java.util.Objects::nonNull)
			.min(Comparator.naturalOrder())
			.orElse(null);
		String lastError = this.loops.stream()
			.map(ListWatch::lastError)
			.filter(java.util.Objects::nonNull)
			.findFirst()
			.orElse(null);
		String lastResourceVersion = this.loops.stream()
			.map(ListWatch::lastResourceVersion)
			.filter(java.util.Objects::nonNull)
			.max(Comparator.comparingLong(ResourceInformer::numeric))
			.orElse(null);
		return new InformerStatus(this.spec.name(), this.resource.toString(), this.spec.scope(), hasSynced(),
				this.cache.listKeys().size(), lastResourceVersion, worst.state(), since, lastError,
				this.loops.stream().mapToLong(ListWatch::relists).sum(),
				this.loops.stream().mapToLong(ListWatch::watchRestarts).sum());
	}

	/**
	 * Returns the error that makes this informer's configuration unusable, such as a
	 * malformed selector or missing permission, found before its first sync.
	 * @return the error, or {@code null}
	 */
	public InformerException startupFailure() {
		return this.loops.stream()
			.map(ListWatch::startupFailure)
			.filter(java.util.Objects::nonNull)
			.findFirst()
			.orElse(null);
	}

	synchronized void start(ScheduledExecutorService scheduler) {
		this.loops.forEach(ListWatch::start);
		Duration period = this.spec.resyncPeriod();
		if (!period.isZero() && !period.isNegative() && this.resync == null) {
			this.resync = scheduler.scheduleAtFixedRate(this::resync, period.toMillis(), period.toMillis(),
					TimeUnit.MILLISECONDS);
		}
	}

	synchronized void stop() {
		if (this.resync != null) {
			this.resync.cancel(false);
			this.resync = null;
		}
		this.loops.forEach(ListWatch::stop);
	}

	T convert(JsonObject json) {
		if (this.spec.stripManagedFields() && json.has("metadata")) {
			json.getAsJsonObject("metadata").remove("managedFields");
		}
		if (this.spec.type() == DynamicKubernetesObject.class) {
			return this.spec.type().cast(new DynamicKubernetesObject(json));
		}
		return this.gson.fromJson(json, this.spec.type());
	}

	/**
	 * Replaces the part of the cache one loop owns with a fresh list and tells handlers
	 * what changed: new objects as adds, changed resourceVersions as updates, and objects
	 * missing from the list as deletes whose final state is unknown.
	 * @param namespace the namespace the loop covers, or {@code null} for all
	 * @param objects the listed objects
	 * @param unreadable keys of listed objects that could not be read; their last
	 * readable state stays cached
	 */
	void replace(String namespace, List<T> objects, Set<String> unreadable) {
		List<Runnable> notifications = new ArrayList<>();
		synchronized (this.storeLock) {
			Set<String> listed = new HashSet<>();
			for (T object : objects) {
				String key = key(object);
				listed.add(key);
				T old = this.cache.getByKey(key);
				this.cache.update(object);
				if (old == null) {
					counted(this.addEvents);
					notifications.add(() -> this.handlers.forEach((handler) -> notify(() -> handler.onAdd(object))));
				}
				else if (!resourceVersion(old).equals(resourceVersion(object))) {
					counted(this.updateEvents);
					notifications
						.add(() -> this.handlers.forEach((handler) -> notify(() -> handler.onUpdate(old, object))));
				}
			}
			for (T cached : this.cache.list()) {
				String key = key(cached);
				if (owns(namespace, cached) && !listed.contains(key) && !unreadable.contains(key)) {
					this.cache.delete(cached);
					counted(this.deleteEvents);
					notifications
						.add(() -> this.handlers.forEach((handler) -> notify(() -> handler.onDelete(cached, true))));
				}
			}
		}
		notifications.forEach(Runnable::run);
	}

	void upsert(T object) {
		T old;
		synchronized (this.storeLock) {
			old = this.cache.getByKey(key(object));
			this.cache.update(object);
		}
		counted((old == null) ? this.addEvents : this.updateEvents);
		if (old == null) {
			this.handlers.forEach((handler) -> notify(() -> handler.onAdd(object)));
		}
		else {
			this.handlers.forEach((handler) -> notify(() -> handler.onUpdate(old, object)));
		}
	}

	void delete(T object) {
		synchronized (this.storeLock) {
			this.cache.delete(object);
		}
		counted(this.deleteEvents);
		this.handlers.forEach((handler) -> notify(() -> handler.onDelete(object, false)));
	}

	/**
	 * Returns how many events of a type the informer received from the API server
	 * (relists included, resyncs not).
	 * @param type {@code added}, {@code modified} or {@code deleted}
	 * @return the count
	 */
	public long eventCount(String type) {
		return switch (type) {
			case "added" -> this.addEvents.get();
			case "modified" -> this.updateEvents.get();
			case "deleted" -> this.deleteEvents.get();
			default -> throw new IllegalArgumentException("Unknown event type " + type);
		};
	}

	/**
	 * Returns how long ago the last event arrived (or the informer was created).
	 * @return nanoseconds since the last event
	 */
	public long nanosSinceLastEvent() {
		return System.nanoTime() - this.lastEventNanos;
	}

	private void counted(AtomicLong counter) {
		counter.incrementAndGet();
		this.lastEventNanos = System.nanoTime();
	}

	/**
	 * Deletes an object whose final state could not be read, reporting its last readable
	 * state as the final state unknown.
	 * @param key the key
	 */
	void deleteKey(String key) {
		T cached;
		synchronized (this.storeLock) {
			cached = this.cache.getByKey(key);
			if (cached == null) {
				return;
			}
			this.cache.delete(cached);
		}
		counted(this.deleteEvents);
		this.handlers.forEach((handler) -> notify(() -> handler.onDelete(cached, true)));
	}

	/**
	 * Returns how many objects were skipped because their JSON did not fit the Java type.
	 * @return the number of skipped objects
	 */
	public long skippedObjects() {
		return this.loops.stream().mapToLong(ListWatch::skipped).sum();
	}

	private void resync() {
		List<T> objects;
		synchronized (this.storeLock) {
			objects = this.cache.list();
		}
		for (T object : objects) {
			this.handlers.forEach((handler) -> notify(() -> handler.onUpdate(object, object)));
		}
	}

	private boolean owns(String namespace, T object) {
		return namespace == null || namespace.equals(object.getMetadata().getNamespace());
	}

	private void notify(Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			logger.error("Event handler of informer '" + this.spec.name() + "' failed", ex);
		}
	}

	/**
	 * Returns the cache key of an object, as client-go's {@code MetaNamespaceKeyFunc}:
	 * {@code namespace/name}, or {@code name} for cluster-scoped objects.
	 * @param object the object
	 * @return the key
	 */
	public static String key(KubernetesObject object) {
		String namespace = object.getMetadata().getNamespace();
		return (namespace == null || namespace.isEmpty()) ? object.getMetadata().getName()
				: namespace + "/" + object.getMetadata().getName();
	}

	private static String resourceVersion(KubernetesObject object) {
		String resourceVersion = object.getMetadata().getResourceVersion();
		return (resourceVersion != null) ? resourceVersion : "";
	}

	private static int severity(WatchState state) {
		return switch (state) {
			case WATCHING -> 0;
			case LISTING -> 1;
			case STOPPED -> 2;
			case RECONNECTING -> 3;
		};
	}

	private static long numeric(String resourceVersion) {
		try {
			return Long.parseLong(resourceVersion);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	@Override
	public String toString() {
		return "informer '" + this.spec.name() + "' (" + this.resource + " in " + this.spec.scope() + ")";
	}

}
