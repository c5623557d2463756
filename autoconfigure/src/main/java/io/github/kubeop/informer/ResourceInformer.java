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
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
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
 * meanwhile to
 * {@link ResourceEventHandler#onDelete(io.kubernetes.client.common.KubernetesObject, boolean)}
 * with {@code deletedFinalStateUnknown = true}. A relist keeps the cached instance of
 * every object whose resourceVersion did not change, so that what handlers still hold and
 * the cache share one copy, and takes the listed objects one at a time, so that it never
 * holds the old cache and a whole new list at once.
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

	private final ListStrategy listStrategy;

	/** Shared with the other informers of the same API server. */
	private final ServerReachability reachability;

	/**
	 * The keys of the objects the cache keeps, or {@code null} for every object watched;
	 * see {@link #keepOnly(Predicate)}.
	 */
	private volatile Predicate<String> kept;

	/**
	 * Keys being loaded, each with the resourceVersion of a delete the watch delivered
	 * meanwhile ({@code ""} for none); guarded by the store lock.
	 */
	private final Map<String, String> loading = new HashMap<>();

	/**
	 * The lists streaming into the cache now: an object loaded meanwhile counts as
	 * listed, or the end of the list would drop it; guarded by the store lock.
	 */
	private final Set<Relist> relists = new HashSet<>();

	ResourceInformer(InformerSpec<T> spec, ResourceKind resource, ApiClient client) {
		this(spec, resource, client, ListStrategy.WATCH_LIST);
	}

	ResourceInformer(InformerSpec<T> spec, ResourceKind resource, ApiClient client, ListStrategy listStrategy) {
		this(spec, resource, client, listStrategy, new ServerReachability());
	}

	ResourceInformer(InformerSpec<T> spec, ResourceKind resource, ApiClient client, ListStrategy listStrategy,
			ServerReachability reachability) {
		this.spec = spec;
		this.reachability = reachability;
		this.listStrategy = listStrategy;
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
	 * Returns what the informers of this API server know together about reaching it.
	 * @return the reachability
	 */
	ServerReachability reachability() {
		return this.reachability;
	}

	/**
	 * Returns how this informer was configured to list; see
	 * {@link InformerStatus#listMethod()} for what it does.
	 * @return the configured list strategy
	 */
	public ListStrategy listStrategy() {
		return this.listStrategy;
	}

	/**
	 * Returns the cache, with its indexes: the cache's own instances, without copies, as
	 * client-go's {@code GetIndexer()}. Nothing may change what it returns, nor write
	 * into it: what Kubeop reads itself, and a zero-copy read for code that only reads.
	 * Application code that may change what it reads uses {@link #copyingIndexer()}.
	 * @return the indexer
	 */
	public Indexer<T> indexer() {
		return this.cache;
	}

	/**
	 * Returns a lister over the cache's own instances; see {@link #indexer()}.
	 * @return the lister
	 */
	public Lister<T> lister() {
		return new Lister<>(this.cache);
	}

	/**
	 * Returns the cache as the {@code Indexer} bean reads it: every object returned is a
	 * {@linkplain DeepCopier deep copy} that the caller may change, and writes are
	 * rejected; the cache itself when copying is turned off by
	 * {@value DeepCopier#DISABLE_PROPERTY}.
	 * @return the indexer
	 */
	public Indexer<T> copyingIndexer() {
		return DeepCopier.disabled() ? this.cache : new CopyingIndexer<>(this.cache, this.spec.name());
	}

	/**
	 * Returns a lister over {@link #copyingIndexer()}, as the {@code Lister} bean reads.
	 * @return the lister
	 */
	public Lister<T> copyingLister() {
		return new Lister<>(copyingIndexer());
	}

	/**
	 * Adds a handler, called on a thread of its own in the order the cache changes. A
	 * handler added after the cache has filled is first told of every cached object, as
	 * an add in the initial list (see {@link InitialListAwareEventHandler}), then of
	 * every later change.
	 * @param handler the handler
	 */
	public void addEventHandler(ResourceEventHandler<T> handler) {
		synchronized (this.storeLock) {
			ProcessorListener<T> listener = new ProcessorListener<>(handler,
					"kubeop-informer-" + this.spec.name() + "-handler-" + (this.listeners.size() + 1));
			// under the lock: no change can slip between this snapshot and the next
			// notification
			for (T object : this.cache.list()) {
				listener.add((target) -> InitialListAwareEventHandler.onAdd(target, object, true));
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
	 * Narrows the cache to the objects whose keys pass a test, such as the objects some
	 * primary references: the informer still lists and watches its whole scope, but drops
	 * every other object before the cache, so that memory follows what passes, not the
	 * cluster. Objects cached now that do not pass are evicted. An object whose key
	 * starts to pass is not in the cache until the watch delivers a change of it, or
	 * until it is {@linkplain #load(String) loaded}; one whose key stops passing stays
	 * until it is {@linkplain #evict(String) evicted}.
	 * @param keys the test, which must be quick and may change its answers
	 */
	public void keepOnly(Predicate<String> keys) {
		synchronized (this.storeLock) {
			this.kept = keys;
			for (String key : this.cache.listKeys()) {
				evict(key);
			}
		}
	}

	/**
	 * Returns whether the cache keeps only some of the objects watched; see
	 * {@link #keepOnly(Predicate)}.
	 * @return whether the cache is narrowed
	 */
	public boolean keepsOnlySome() {
		return this.kept != null;
	}

	/**
	 * Loads an object that the cache now keeps but may have dropped before: lists it by
	 * name with a consistent read, and merges it with what the watch delivered meanwhile
	 * by resourceVersion, so that neither an older state nor a deleted object replaces
	 * what the watch knows. Handlers are told as of any change: an add, or an update if
	 * the cache held an older state. A key the cache does not keep, or outside the
	 * informer's namespaces, is not loaded.
	 * @param key the object's key, {@code namespace/name} or {@code name}
	 * @throws ApiException if the API server refuses the list
	 * @throws IOException if the list cannot be read
	 */
	public void load(String key) throws ApiException, IOException {
		int slash = key.indexOf('/');
		String namespace = (slash >= 0) ? key.substring(0, slash) : null;
		String name = key.substring(slash + 1);
		ListWatch<T> loop = this.loops.stream()
			.filter((candidate) -> candidate.namespace() == null || candidate.namespace().equals(namespace))
			.findFirst()
			.orElse(null);
		synchronized (this.storeLock) {
			if (loop == null || !keeps(key)) {
				return;
			}
			this.loading.putIfAbsent(key, "");
		}
		try {
			List<T> found = new ArrayList<>(1);
			loop.listNamed(name, found::add);
			synchronized (this.storeLock) {
				String deletedAt = this.loading.get(key);
				if (found.isEmpty() || !keeps(key)) {
					// absent when read: a watch event after the read brings it, if it
					// comes
					return;
				}
				T loaded = found.get(0);
				if (!deletedAt.isEmpty() && compareResourceVersions(deletedAt, resourceVersion(loaded)) > 0) {
					return;
				}
				T cached = this.cache.getByKey(key);
				this.relists.forEach((relist) -> relist.seen.add(key));
				if (cached == null) {
					this.cache.put(loaded);
					distribute((handler) -> handler.onAdd(loaded));
				}
				else if (compareResourceVersions(resourceVersion(loaded), resourceVersion(cached)) > 0) {
					this.cache.put(loaded);
					if (sameObject(cached, loaded)) {
						distribute((handler) -> handler.onUpdate(cached, loaded));
					}
					else {
						replaced(cached, loaded, false);
					}
				}
			}
		}
		finally {
			synchronized (this.storeLock) {
				this.loading.remove(key);
			}
		}
	}

	/**
	 * Drops an object the cache no longer keeps, telling handlers as of a delete whose
	 * final state is unknown; an object the cache keeps stays.
	 * @param key the object's key
	 */
	public void evict(String key) {
		synchronized (this.storeLock) {
			if (keeps(key)) {
				return;
			}
			T cached = this.cache.deleteByKey(key);
			if (cached != null) {
				distribute((handler) -> handler.onDelete(cached, true));
			}
		}
	}

	private boolean keeps(String key) {
		Predicate<String> keys = this.kept;
		return keys == null || keys.test(key);
	}

	/**
	 * Whether a watched state is older than the cached one, which only a load can have
	 * put ahead of the watch: taking it would go back in time.
	 */
	private boolean behindCache(T object, T cached) {
		return this.kept != null && cached != null && sameObject(cached, object)
				&& compareResourceVersions(resourceVersion(object), resourceVersion(cached)) < 0;
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
				this.cache.objectsLeftOutOfIndexes(), listMethod());
	}

	/**
	 * Returns how the informer lists: {@code watch-list} while every loop streams its
	 * lists through a watch, {@code list} once one was refused or lists in pages by
	 * configuration.
	 */
	private String listMethod() {
		return this.loops.stream().allMatch(ListWatch::usesWatchList) ? "watch-list" : "list";
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
	 * Converts an object's JSON to the Java type, as this informer's cache holds it (also
	 * for an object a handler wrote): the ready-made transforms on the JSON, then
	 * decoding, then the transforms on the decoded object.
	 * @param json the object's JSON, changed in place
	 * @return the object to cache
	 * @throws TransformException if a transform throws
	 */
	public T convert(JsonObject json) {
		for (StandardTransform transform : this.spec.standardTransforms()) {
			transform.apply(json);
		}
		T object;
		if (this.spec.type() == DynamicKubernetesObject.class) {
			object = this.spec.type().cast(new DynamicKubernetesObject(json));
		}
		else if (this.spec.metadataOnly()) {
			// the resource's apiVersion and kind, not meta.k8s.io/v1
			// PartialObjectMetadata,
			// and nothing but metadata, should the server have sent the full object
			object = this.spec.type()
				.cast(new PartialObjectMetadata(this.resource.apiVersion(), this.resource.kind(),
						this.gson.fromJson(json.get("metadata"), V1ObjectMeta.class)));
		}
		else {
			object = this.gson.fromJson(json, this.spec.type());
		}
		return transform(object);
	}

	/**
	 * Applies the user transforms to a decoded object.
	 * @param object the decoded object
	 * @return the object to cache
	 * @throws TransformException if a transform throws
	 */
	T transform(T object) {
		T transformed = object;
		for (TransformFunction<T> transform : this.spec.transforms()) {
			try {
				transformed = transform.apply(transformed);
			}
			catch (RuntimeException ex) {
				throw new TransformException(ex);
			}
			if (transformed == null) {
				throw new TransformException(new NullPointerException("the transform returned null"));
			}
		}
		return transformed;
	}

	/**
	 * Returns the media types a list or watch request accepts, or {@code null} for the
	 * client's default.
	 * @param watch whether the request is a watch
	 * @return the {@code Accept} header
	 */
	String accept(boolean watch) {
		if (!this.spec.metadataOnly()) {
			return null;
		}
		return watch ? PartialObjectMetadata.WATCH_MEDIA_TYPE : PartialObjectMetadata.LIST_MEDIA_TYPE;
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
		Relist relist = startRelist(namespace, false);
		objects.forEach(relist::listed);
		unreadable.forEach(relist::unreadable);
		relist.finish();
	}

	/**
	 * Starts replacing the part of the cache one loop owns with a list that arrives one
	 * object at a time, as client-go's {@code Replace} but without holding the whole
	 * list: each listed object is compared with the cached one as it arrives, only the
	 * keys seen are kept, and {@link Relist#finish()} deletes what was not listed.
	 * <p>
	 * The first list of a loop is held back instead, and taken into the cache only once
	 * complete, so that handlers and listers never see part of it: the cache holds none
	 * of the loop's objects yet, so that is still one copy.
	 * @param namespace the namespace the loop covers, or {@code null} for all
	 * @param first whether this is the loop's first list
	 * @return the relist
	 */
	Relist startRelist(String namespace, boolean first) {
		return new Relist(namespace, first);
	}

	/**
	 * A list streamed into the cache: the old cache plus the keys listed so far are all
	 * it holds, never a second copy of the objects.
	 */
	final class Relist {

		private final String namespace;

		private final Set<String> seen = new HashSet<>();

		/** The objects of a first list, or {@code null} for a list streamed at once. */
		private final List<T> heldBack;

		private Relist(String namespace, boolean first) {
			this.namespace = namespace;
			this.heldBack = first ? new ArrayList<>() : null;
			synchronized (ResourceInformer.this.storeLock) {
				// a list of the same loop that never finished was abandoned
				ResourceInformer.this.relists.removeIf((other) -> java.util.Objects.equals(other.namespace, namespace));
				ResourceInformer.this.relists.add(this);
			}
		}

		/**
		 * Takes one listed object into the cache and tells handlers if it is new or
		 * changed. An unchanged object keeps its cached instance, as handlers may hold it
		 * too: taking the listed copy would keep two of every object until it changes.
		 * @param object the listed object
		 */
		void listed(T object) {
			if (!keeps(key(object))) {
				// never held: a narrowed cache keeps memory for what it keeps, also while
				// listing
				return;
			}
			if (this.heldBack != null) {
				this.heldBack.add(object);
				return;
			}
			take(object);
		}

		private void take(T object) {
			String key = key(object);
			synchronized (ResourceInformer.this.storeLock) {
				if (!keeps(key)) {
					// not seen: should it be cached, the end of the list drops it
					return;
				}
				this.seen.add(key);
				T old = ResourceInformer.this.cache.getByKey(key);
				if (behindCache(object, old)) {
					return;
				}
				if (old == null) {
					ResourceInformer.this.cache.put(object);
					counted(ResourceInformer.this.addEvents);
					// a first list is held back until complete: its adds are the initial
					// list's
					if (this.heldBack != null) {
						distribute((handler) -> InitialListAwareEventHandler.onAdd(handler, object, true));
					}
					else {
						distribute((handler) -> InitialListAwareEventHandler.onRelistAdd(handler, object));
					}
				}
				else if (!sameObject(old, object)) {
					ResourceInformer.this.cache.put(object);
					replaced(old, object, true);
				}
				else if (!resourceVersion(old).equals(resourceVersion(object))) {
					ResourceInformer.this.cache.put(object);
					counted(ResourceInformer.this.updateEvents);
					distribute((handler) -> InitialListAwareEventHandler.onRelistUpdate(handler, old, object));
				}
			}
		}

		/**
		 * Records a listed object that could not be read: its last readable state stays
		 * cached.
		 * @param key the object's key
		 */
		void unreadable(String key) {
			synchronized (ResourceInformer.this.storeLock) {
				this.seen.add(key);
			}
		}

		/**
		 * Forgets the keys seen so far, for a list that starts over (a paged list whose
		 * continue token expired is read again in one piece): an object seen in the
		 * abandoned list may have been deleted since.
		 */
		void restart() {
			synchronized (ResourceInformer.this.storeLock) {
				this.seen.clear();
			}
			if (this.heldBack != null) {
				this.heldBack.clear();
			}
		}

		/**
		 * Ends the list: every cached object of the loop's part that was not listed is
		 * deleted and reported with its last known state as a delete whose final state is
		 * unknown.
		 */
		void finish() {
			synchronized (ResourceInformer.this.storeLock) {
				if (this.heldBack != null) {
					this.heldBack.forEach(this::take);
					this.heldBack.clear();
				}
				for (String key : ResourceInformer.this.cache.listKeys()) {
					T cached = ResourceInformer.this.cache.getByKey(key);
					if (!this.seen.contains(key) && owns(this.namespace, cached)) {
						ResourceInformer.this.cache.deleteByKey(key);
						counted(ResourceInformer.this.deleteEvents);
						distribute((handler) -> handler.onDelete(cached, true));
					}
				}
				this.seen.clear();
				ResourceInformer.this.relists.remove(this);
			}
		}

	}

	void upsert(T object) {
		synchronized (this.storeLock) {
			String key = key(object);
			if (!keeps(key)) {
				evict(key);
				return;
			}
			if (behindCache(object, this.cache.getByKey(key))) {
				return;
			}
			T old = this.cache.put(object);
			if (old == null) {
				counted(this.addEvents);
				distribute((handler) -> handler.onAdd(object));
			}
			else if (!sameObject(old, object)) {
				replaced(old, object, false);
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
	 * @param listed whether a relist found the new object, rather than a watch
	 */
	private void replaced(T old, T object, boolean listed) {
		counted(this.deleteEvents);
		counted(this.addEvents);
		distribute((handler) -> handler.onDelete(old, true));
		if (listed) {
			distribute((handler) -> InitialListAwareEventHandler.onRelistAdd(handler, object));
		}
		else {
			distribute((handler) -> handler.onAdd(object));
		}
	}

	private static boolean sameObject(KubernetesObject a, KubernetesObject b) {
		String uid = a.getMetadata().getUid();
		return uid == null || uid.equals(b.getMetadata().getUid());
	}

	void delete(T object) {
		synchronized (this.storeLock) {
			String key = key(object);
			if (this.kept != null) {
				this.loading.computeIfPresent(key, (loadingKey, deletedAt) -> resourceVersion(object));
				T cached = this.cache.getByKey(key);
				// a narrowed cache tells only of what it held, and a load may have put a
				// newer object of the name ahead of the watch
				if (cached == null || compareResourceVersions(resourceVersion(cached), resourceVersion(object)) > 0) {
					return;
				}
			}
			this.cache.deleteByKey(key);
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

	/**
	 * Whether this informer has seen a change of its resource later than the given
	 * resourceVersion in the given namespace: every change up to that resourceVersion is
	 * then in the cache, since the watch delivers changes in order and a resourceVersion
	 * counts only once its change is applied, a list's only once the whole list is in the
	 * cache (not when its first page arrives).
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param resourceVersion the resourceVersion
	 * @return whether a later change was seen
	 */
	public boolean hasSeenAfter(String namespace, String resourceVersion) {
		return this.loops.stream()
			.filter((loop) -> loop.namespace() == null || loop.namespace().equals(namespace))
			.map(ListWatch::cachedResourceVersion)
			.anyMatch((seen) -> seen != null && compareResourceVersions(seen, resourceVersion) > 0);
	}

	/**
	 * Compares two resourceVersions as numbers, as etcd-backed API servers issue them
	 * (the Java Operator SDK and client-go's watch cache do the same); a resourceVersion
	 * that is not a number compares as equal only to itself and older than any other.
	 * @param left one resourceVersion
	 * @param right another
	 * @return negative, zero or positive as {@code left} is older, the same or newer
	 */
	public static int compareResourceVersions(String left, String right) {
		if (left == null || right == null) {
			return (left == null) ? ((right == null) ? 0 : -1) : 1;
		}
		try {
			return Long.compare(Long.parseLong(left), Long.parseLong(right));
		}
		catch (NumberFormatException ex) {
			return left.equals(right) ? 0 : -1;
		}
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
