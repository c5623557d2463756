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
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

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
 * {@code deletedFinalStateUnknown = true}. A relist keeps the cached instance of every
 * object whose resourceVersion did not change, so that what handlers still hold and the
 * cache share one copy.
 * <p>
 * Each handler gets one ordered delivery on a thread of its own, as client-go's
 * {@code processorListener}: notifications are computed under the cache's lock, in the
 * order the cache changes, and queued to every handler, so that calls for one key never
 * overlap or go back in time, resyncs included, and a slow handler never holds up the
 * watch. A handler added late is first told of every cached object as an add, then of
 * every later change. An index function that throws for an object leaves that object out
 * of that index only.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
public final class ResourceInformer<T extends KubernetesObject> {

	private final InformerSpec<T> spec;

	private final ResourceKind resource;

	private final IndexedStore<T> cache;

	/**
	 * One per handler; added under the store lock, so that a handler added late misses
	 * nothing and sees nothing twice.
	 */
	private final List<ProcessorListener<T>> listeners = new CopyOnWriteArrayList<>();

	private final List<ListWatch<T>> loops;

	private final Gson gson;

	private final Object storeLock = new Object();

	private final AtomicLong addEvents = new AtomicLong();

	private final AtomicLong updateEvents = new AtomicLong();

	private final AtomicLong deleteEvents = new AtomicLong();

	private volatile long lastEventNanos = System.nanoTime();

	private ScheduledFuture<?> resync;

	/** Whether listeners deliver; guarded by the store lock. */
	private boolean delivering;

	ResourceInformer(InformerSpec<T> spec, ResourceKind resource, ApiClient client) {
		this.spec = spec;
		this.resource = resource;
		this.gson = client.getJSON().getGson();
		this.cache = new IndexedStore<>(spec.name());
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
	 * Adds a handler, called on a thread of its own in the order the cache changes. A
	 * handler added after the cache has filled is first told of every cached object, as
	 * an add, then of every later change.
	 * @param handler the handler
	 */
	public void addEventHandler(ResourceEventHandler<T> handler) {
		synchronized (this.storeLock) {
			ProcessorListener<T> listener = new ProcessorListener<>(handler,
					"kubeop-informer-" + this.spec.name() + "-handler-" + (this.listeners.size() + 1));
			// under the lock: no change can slip between this snapshot and the next
			// notification
			for (T object : this.cache.list()) {
				listener.add((target) -> target.onAdd(object));
			}
			this.listeners.add(listener);
			if (this.delivering) {
				listener.start();
			}
		}
	}

	/**
	 * Adds an index; objects already cached are indexed at once. An index of the same
	 * name is kept.
	 * @param indexName the index name
	 * @param function the index function
	 */
	public void addIndexer(String indexName, java.util.function.Function<T, List<String>> function) {
		synchronized (this.storeLock) {
			if (this.cache.getIndexers().containsKey(indexName)) {
				return;
			}
			this.cache.addIndexers(Map.of(indexName, function));
		}
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
				this.cache.size(), lastResourceVersion, worst.state(), since, lastError,
				this.loops.stream().mapToLong(ListWatch::relists).sum(),
				this.loops.stream().mapToLong(ListWatch::watchRestarts).sum(), this.cache.indexFailures(),
				this.cache.objectsLeftOutOfIndexes());
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
		startDelivery();
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
		synchronized (this.storeLock) {
			this.delivering = false;
			this.listeners.forEach(ProcessorListener::stop);
		}
	}

	/**
	 * Starts every handler's delivery thread, and those of handlers added later.
	 */
	void startDelivery() {
		synchronized (this.storeLock) {
			this.delivering = true;
			this.listeners.forEach(ProcessorListener::start);
		}
	}

	/**
	 * Reads an object the API server returned as this informer's cache holds it (its Java
	 * type, managedFields stripped if configured), as for an object a handler wrote.
	 * @param json the object's JSON
	 * @return the object
	 */
	public T convert(JsonObject json) {
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
		synchronized (this.storeLock) {
			Set<String> listed = new HashSet<>();
			for (T object : objects) {
				String key = key(object);
				listed.add(key);
				T old = this.cache.getByKey(key);
				if (old == null) {
					this.cache.put(object);
					counted(this.addEvents);
					distribute((handler) -> handler.onAdd(object));
				}
				else if (!sameObject(old, object)) {
					this.cache.put(object);
					replaced(old, object);
				}
				else if (!resourceVersion(old).equals(resourceVersion(object))) {
					this.cache.put(object);
					counted(this.updateEvents);
					distribute((handler) -> handler.onUpdate(old, object));
				}
				// else unchanged: the cached instance stays, as handlers may hold it too;
				// taking the listed copy would keep two of every object until it changes
			}
			for (T cached : this.cache.list()) {
				String key = key(cached);
				if (owns(namespace, cached) && !listed.contains(key) && !unreadable.contains(key)) {
					this.cache.deleteByKey(key);
					counted(this.deleteEvents);
					distribute((handler) -> handler.onDelete(cached, true));
				}
			}
		}
	}

	void upsert(T object) {
		synchronized (this.storeLock) {
			T old = this.cache.put(object);
			if (old == null) {
				counted(this.addEvents);
				distribute((handler) -> handler.onAdd(object));
			}
			else if (!sameObject(old, object)) {
				replaced(old, object);
			}
			else {
				counted(this.updateEvents);
				distribute((handler) -> handler.onUpdate(old, object));
			}
		}
	}

	/**
	 * Tells handlers that a cached object was replaced by another of the same name (a
	 * delete and a re-create that a relist saw as one change): the old object's delete,
	 * its final state unknown, then the new one's add, never an update across two
	 * objects. Called under the store lock.
	 */
	private void replaced(T old, T object) {
		counted(this.deleteEvents);
		counted(this.addEvents);
		distribute((handler) -> handler.onDelete(old, true));
		distribute((handler) -> handler.onAdd(object));
	}

	private static boolean sameObject(KubernetesObject a, KubernetesObject b) {
		String uid = a.getMetadata().getUid();
		return uid == null || uid.equals(b.getMetadata().getUid());
	}

	void delete(T object) {
		synchronized (this.storeLock) {
			this.cache.deleteByKey(key(object));
			counted(this.deleteEvents);
			distribute((handler) -> handler.onDelete(object, false));
		}
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
		synchronized (this.storeLock) {
			T cached = this.cache.deleteByKey(key);
			if (cached == null) {
				return;
			}
			counted(this.deleteEvents);
			distribute((handler) -> handler.onDelete(cached, true));
		}
	}

	/**
	 * Returns how many objects were skipped because their JSON did not fit the Java type.
	 * @return the number of skipped objects
	 */
	public long skippedObjects() {
		return this.loops.stream().mapToLong(ListWatch::skipped).sum();
	}

	/**
	 * Tells every handler of every cached object again, as an update with equal old and
	 * new states. Under the store lock and through each handler's queue, like any change:
	 * a resync can never deliver an object older than one delivered before it.
	 */
	private void resync() {
		synchronized (this.storeLock) {
			for (T object : this.cache.list()) {
				distribute((handler) -> handler.onUpdate(object, object));
			}
		}
	}

	private boolean owns(String namespace, T object) {
		return namespace == null || namespace.equals(object.getMetadata().getNamespace());
	}

	/**
	 * Queues a notification to every handler; called under the store lock, so that every
	 * handler's queue holds the changes in the order the cache took them.
	 */
	private void distribute(Consumer<ResourceEventHandler<T>> notification) {
		for (ProcessorListener<T> listener : this.listeners) {
			listener.add(notification);
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
