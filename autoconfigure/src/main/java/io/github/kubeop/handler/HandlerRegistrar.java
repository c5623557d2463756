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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.InitialListAwareEventHandler;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.informer.TransformFunction;
import io.github.kubeop.queue.RateLimitingQueue;
import io.github.kubeop.resource.GeneratedModels;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1OwnerReference;

/**
 * Turns {@link HandlerEndpoint handler endpoints} into running {@link Controller
 * controllers}: finds or creates the informer of each endpoint, gives it a queue and
 * workers, and wires owned types to re-trigger their owners. The annotations are a
 * shortcut for calling {@link #register(HandlerEndpoint)}.
 *
 * @author Kubeop authors
 */
public class HandlerRegistrar {

	private final InformerRegistry informers;

	private final List<String> defaultNamespaces;

	private final Duration defaultResyncPeriod;

	private final Queues queues;

	/**
	 * A handler's queue settings, from its name and what it declares.
	 */
	private final BiFunction<String, QueueSettings, QueueSettings> queueSettings;

	private final Function<String, Integer> workerCounts;

	private final HandlerObserver observer;

	private volatile Function<String, Duration> callTimeouts = (name) -> Duration.ZERO;

	private volatile HandlerTracing tracing = HandlerTracing.NONE;

	private volatile Supplier<String> fieldManager = () -> null;

	/**
	 * Applies the configured informer settings to the spec of an informer for handlers.
	 */
	private volatile UnaryOperator<InformerSpec<?>> informerDefaults = UnaryOperator.identity();

	private final List<Controller<?>> controllers = new ArrayList<>();

	private static final Predicate<String> ALL_KEYS = (key) -> true;

	/**
	 * The shard keys this replica handles, for handlers registered later too.
	 */
	private Predicate<String> keys = ALL_KEYS;

	/**
	 * The kinds handlers handle: an object whose controller owner is of one of them is
	 * sharded by its owner's key.
	 */
	private volatile List<ResourceKind> handledKinds = List.of();

	private final List<Consumer<Controller<?>>> listeners = new ArrayList<>();

	/** The keys each informer of referenced objects only keeps. */
	private final Map<ResourceInformer<?>, ReferencedKeys> referencedKeys = new IdentityHashMap<>();

	private final List<ReferenceWatcher<?>> referenceWatchers = new ArrayList<>();

	/**
	 * Marks the spec of an informer created for referenced objects only, so that it is
	 * never shared with an informer of every object of the type.
	 */
	@SuppressWarnings("rawtypes")
	private static final TransformFunction REFERENCED_ONLY = (object) -> object;

	private boolean workersRunning;

	/**
	 * Changes on every start and stop of the workers: a start left behind by a stop
	 * starts no further handler.
	 */
	private long starts;

	/**
	 * Creates a new registrar.
	 * @param informers the informers to listen to, and to create missing ones in
	 * @param defaultNamespaces namespaces of informers created for handlers, empty for
	 * all
	 * @param queues creates the queue of a handler, by handler name
	 * @param workerCounts the worker count of a handler, by handler name
	 * @param observer told of every call
	 */
	public HandlerRegistrar(InformerRegistry informers, List<String> defaultNamespaces, Duration defaultResyncPeriod,
			Function<String, RateLimitingQueue<String>> queues, Function<String, Integer> workerCounts,
			HandlerObserver observer) {
		this(informers, defaultNamespaces, defaultResyncPeriod, (name, lanes) -> queues.apply(name), workerCounts,
				observer, (name, declared) -> declared.orElse(QueueSettings.DEFAULTS));
	}

	/**
	 * Creates a new registrar whose queues may order keys by lane.
	 * @param informers the informers to listen to, and to create missing ones in
	 * @param defaultNamespaces namespaces of informers created for handlers, empty for
	 * all
	 * @param queues creates the queue of a handler, by handler name and lanes
	 * @param workerCounts the worker count of a handler, by handler name
	 * @param observer told of every call
	 * @param queueSettings a handler's queue settings, by handler name and what the
	 * handler declares; every value set
	 */
	public HandlerRegistrar(InformerRegistry informers, List<String> defaultNamespaces, Duration defaultResyncPeriod,
			Queues queues, Function<String, Integer> workerCounts, HandlerObserver observer,
			BiFunction<String, QueueSettings, QueueSettings> queueSettings) {
		this.informers = informers;
		this.defaultNamespaces = List.copyOf(defaultNamespaces);
		this.defaultResyncPeriod = defaultResyncPeriod;
		this.queues = queues;
		this.workerCounts = workerCounts;
		this.observer = observer;
		this.queueSettings = queueSettings;
	}

	/**
	 * Registers a handler. Its workers start with {@link HandlersLifecycle}, or at once
	 * if it already runs.
	 * @param endpoint the handler
	 * @return the controller running it
	 */
	public synchronized Controller<?> register(HandlerEndpoint endpoint) {
		rejectFullObjectsFromMetadataOnlyInformer(endpoint);
		ResourceInformer<? extends KubernetesObject> informer = informer(endpoint.informerName(),
				endpoint.resourceType(), endpoint.name());
		Controller<?> controller = controller(endpoint, informer);
		List<ResourceKind> kinds = new ArrayList<>(this.handledKinds);
		kinds.add(informer.resource());
		this.handledKinds = List.copyOf(kinds);
		controller.narrowKeys(byShardKey(controller, this.keys));
		endpoint.owned().forEach((type, informerName) -> watchOwned(controller, type, informerName));
		// checked before the handler is added: a reference that does not fit fails the
		// registration
		endpoint.references().forEach((reference) -> watchReferenced(controller, reference));
		this.controllers.add(controller);
		for (Consumer<Controller<?>> listener : this.listeners) {
			listener.accept(controller);
		}
		if (this.workersRunning) {
			controller.startWorkers();
		}
		return controller;
	}

	private <T extends KubernetesObject> Controller<T> controller(HandlerEndpoint endpoint,
			ResourceInformer<T> informer) {
		// checked before the queue exists: a failed check leaves no queue thread behind
		Finalizers<T> finalizers = finalizers(endpoint, informer);
		QueueSettings settings = this.queueSettings.apply(endpoint.name(), endpoint.queue());
		Function<String, String> lanes = settings.lanes((key) -> {
			T cached = informer.indexer().getByKey(key);
			return (cached != null && cached.getMetadata() != null) ? cached.getMetadata().getLabels() : null;
		});
		return new Controller<>(endpoint, informer, this.queues.create(endpoint.name(), lanes),
				this.workerCounts.apply(endpoint.name()), this.observer, finalizers,
				!Boolean.FALSE.equals(settings.priorities()), new CallTimeout(this.callTimeouts.apply(endpoint.name())),
				pruner(endpoint), this.tracing);
	}

	/**
	 * Returns the pruning of a handler whose reconcile method prunes; such a handler must
	 * own something.
	 */
	private Pruner pruner(HandlerEndpoint endpoint) {
		HandlerMethod pruning = endpoint.methods().stream().filter(HandlerMethod::prunes).findFirst().orElse(null);
		if (pruning == null) {
			return null;
		}
		if (endpoint.owned().isEmpty()) {
			throw new IllegalArgumentException("Handler '" + endpoint.name() + "': " + pruning
					+ " prunes, but its class declares no @Owns type: pruning deletes only objects of owned types; "
					+ "declare them with @Owns, or remove prune = true");
		}
		return new Pruner(endpoint.name(), this.informers.client(), this.fieldManager);
	}

	/**
	 * Sets the field manager of the operator's applies: a handler that prunes deletes
	 * only owned objects this manager manages fields of.
	 * @param fieldManager the field manager, read when a handler prunes
	 */
	public void setFieldManager(Supplier<String> fieldManager) {
		this.fieldManager = fieldManager;
	}

	/**
	 * Sets the informer settings that the informers created for handlers (of types no
	 * configured informer holds) take beside their namespaces and resync period, such as
	 * the configured encoding and page size; those of {@link InformerSpec#of} by default.
	 * @param informerDefaults applies the settings to a spec
	 */
	public void setInformerDefaults(UnaryOperator<InformerSpec<?>> informerDefaults) {
		this.informerDefaults = informerDefaults;
	}

	/**
	 * Sets how long one call of each handler may run before it is interrupted and retried
	 * with back-off, for handlers registered from now on; none by default.
	 * @param callTimeouts the timeout of a handler by handler name, zero for none
	 */
	public void setCallTimeouts(Function<String, Duration> callTimeouts) {
		this.callTimeouts = callTimeouts;
	}

	/**
	 * Sets the tracing of the handler calls of the controllers created after this.
	 * @param tracing the tracing, {@code null} for none
	 */
	public void setTracing(HandlerTracing tracing) {
		this.tracing = (tracing != null) ? tracing : HandlerTracing.NONE;
	}

	/**
	 * Returns the finalizer writes of a handler with a cleanup method, once the API
	 * server said the operator may make them.
	 */
	private <T extends KubernetesObject> Finalizers<T> finalizers(HandlerEndpoint endpoint,
			ResourceInformer<T> informer) {
		String finalizer = endpoint.finalizer();
		if (finalizer == null) {
			return null;
		}
		Finalizers<T> finalizers = new Finalizers<>(this.informers.client(), informer, finalizer);
		finalizers.checkPermission(endpoint.methods(HandlerMethod.Kind.CLEANUP).get(0));
		return finalizers;
	}

	/**
	 * Starts the workers of every handler, and of handlers registered later.
	 */
	public void startWorkers() {
		startWorkers(() -> true);
	}

	/**
	 * Starts the workers of every handler, and of handlers registered later, for as long
	 * as they are wanted: a stop, or {@code wanted} turning false, ends the start before
	 * the next handler. Each handler's start (which queues every cached object) holds
	 * this registrar's lock, so a stop waits for at most one handler's start, never for
	 * all of them.
	 * @param wanted whether workers are still wanted, as leadership that may be lost
	 * while the handlers start
	 */
	public void startWorkers(BooleanSupplier wanted) {
		long start;
		List<Controller<?>> starting;
		synchronized (this) {
			if (!wanted.getAsBoolean()) {
				return;
			}
			this.workersRunning = true;
			start = ++this.starts;
			starting = List.copyOf(this.controllers);
		}
		for (Controller<?> controller : starting) {
			synchronized (this) {
				// checked under the lock a stop takes: a stop either comes after this
				// handler's start and stops it, or before it, and it does not start
				if (this.starts != start || !this.workersRunning || !wanted.getAsBoolean()) {
					return;
				}
				controller.startWorkers();
			}
		}
	}

	/**
	 * Stops the workers of every handler, letting running calls finish within the
	 * timeout, and drops every key's state: {@link #startWorkers()} handles every cached
	 * object again.
	 * @param timeout how long running calls may take to finish, for all handlers together
	 * @return whether every worker stopped in time
	 */
	public boolean stopWorkers(Duration timeout) {
		return stop(timeout, false);
	}

	/**
	 * Stops the workers of every handler at once, as when leadership is lost: running
	 * calls are interrupted, and waited for within the timeout.
	 * @param timeout how long interrupted calls may take to end, for all handlers
	 * together
	 * @return whether every worker stopped in time
	 */
	public boolean interruptWorkers(Duration timeout) {
		return stop(timeout, true);
	}

	private boolean stop(Duration timeout, boolean interruptCalls) {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<Controller<?>> stopping;
		synchronized (this) {
			this.workersRunning = false;
			this.starts++;
			stopping = List.copyOf(this.controllers);
			// every handler is told first, then waited for: together they get the
			// timeout
			stopping.forEach((controller) -> controller.requestStop(interruptCalls));
		}
		// waited for outside the lock: a shard's narrow, drain check and interrupt, and a
		// lost leadership's interrupt, must not wait for calls that finish gracefully
		boolean stopped = true;
		for (Controller<?> controller : stopping) {
			stopped &= controller.awaitStopped(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
		}
		return stopped;
	}

	/**
	 * Stops for good: queues take no more keys, and running calls get the timeout to
	 * finish.
	 * @param timeout how long running calls may take to finish, for all handlers together
	 * @return whether every worker stopped in time
	 */
	public boolean shutdown(Duration timeout) {
		close();
		return stopWorkers(timeout);
	}

	/**
	 * Shuts down every handler's queue. Called when the context closes, also when it
	 * failed to start before the handlers' lifecycle ran, so that no queue thread
	 * outlives it; after {@link #shutdown(Duration)} it changes nothing.
	 */
	public synchronized void close() {
		this.controllers.forEach((controller) -> controller.queue().shutDown());
	}

	/**
	 * Narrows the keys every handler handles; see {@link Controller#narrowKeys}.
	 * @param keys the shard keys this replica keeps (see {@link #shardKey})
	 */
	public synchronized void narrowKeys(Predicate<String> keys) {
		this.keys = keys;
		this.controllers.forEach((controller) -> controller.narrowKeys(byShardKey(controller, keys)));
	}

	/**
	 * Widens the keys every handler handles; see {@link Controller#widenKeys}.
	 * @param keys the shard keys this replica handles from now on
	 * @return how many cached objects' keys the handlers gained
	 */
	public synchronized int widenKeys(Predicate<String> keys) {
		this.keys = keys;
		return this.controllers.stream()
			.mapToInt((controller) -> controller.widenKeys(byShardKey(controller, keys)))
			.sum();
	}

	/**
	 * Returns whether no handler call runs for a key outside the given ones.
	 * @param keys the shard keys that may go on
	 * @return whether every such call has ended
	 */
	public synchronized boolean drained(Predicate<String> keys) {
		return this.controllers.stream()
			.allMatch((controller) -> controller.callsOutside(byShardKey(controller, keys)).isEmpty());
	}

	/**
	 * Returns the key that decides which replica of a shard group handles an object, and
	 * caches it in the labels mode: the key of its controller owner when the owner is of
	 * a kind a handler handles (matched by group and kind, as owners are re-triggered),
	 * else its own. Owned objects thus go where their owner goes, and are handled there.
	 * @param object the object
	 * @return the shard key, such as {@code namespace/name}
	 */
	public String shardKey(KubernetesObject object) {
		V1OwnerReference owner = controllerOf(object);
		if (owner != null) {
			String group = group(owner.getApiVersion());
			for (ResourceKind kind : this.handledKinds) {
				if (kind.kind().equals(owner.getKind()) && kind.group().equals(group)) {
					String namespace = object.getMetadata().getNamespace();
					if (!kind.namespaced()) {
						return owner.getName();
					}
					if (namespace != null) {
						return namespace + "/" + owner.getName();
					}
				}
			}
		}
		return ResourceInformer.key(object);
	}

	/**
	 * Returns a handler's gate for the given shard keys: a key passes when the shard key
	 * of its object does. A key no longer cached is judged by the state the handler last
	 * knew of it (a delete still reaches the replica that handled the object).
	 */
	private Predicate<String> byShardKey(Controller<?> controller, Predicate<String> keys) {
		if (keys == ALL_KEYS) {
			return keys;
		}
		return (key) -> keys.test(shardKeyOf(controller, key));
	}

	private String shardKeyOf(Controller<?> controller, String key) {
		KubernetesObject object = controller.informer().indexer().getByKey(key);
		if (object == null) {
			object = controller.lastKnown(key);
		}
		return (object != null) ? shardKey(object) : key;
	}

	/**
	 * Waits until no handler call runs for a key outside the given ones, interrupting
	 * them first if asked.
	 * @param keys the shard keys that may go on
	 * @param timeout how long to wait in all
	 * @param interrupt whether running calls outside are interrupted
	 * @return whether every such call ended in time
	 */
	public boolean awaitCallsOutside(Predicate<String> keys, Duration timeout, boolean interrupt) {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean ended = true;
		for (Controller<?> controller : controllers()) {
			Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			ended &= controller.awaitCallsOutside(byShardKey(controller, keys), left, interrupt);
		}
		return ended;
	}

	/**
	 * Calls a listener with every controller: those registered now, at once, and those
	 * registered later, before their workers start.
	 * @param listener told of each controller, under this registrar's lock: it must be
	 * quick and must not register handlers
	 */
	public synchronized void forEachController(Consumer<Controller<?>> listener) {
		this.controllers.forEach(listener);
		this.listeners.add(listener);
	}

	/**
	 * Returns every registered controller.
	 * @return the controllers
	 */
	public synchronized Collection<Controller<?>> controllers() {
		return List.copyOf(this.controllers);
	}

	/**
	 * Fails for a handler that takes the full type from a metadata-only informer, naming
	 * the method: its objects carry no spec, status or data.
	 */
	private void rejectFullObjectsFromMetadataOnlyInformer(HandlerEndpoint endpoint) {
		ResourceInformer<?> named = (endpoint.informerName() != null) ? this.informers.informer(endpoint.informerName())
				: null;
		if (named == null || !named.spec().metadataOnly()) {
			return;
		}
		for (HandlerMethod method : endpoint.methods()) {
			if (!method.resourceType().isAssignableFrom(PartialObjectMetadata.class)) {
				throw new IllegalStateException("Handler method " + method + " takes "
						+ method.resourceType().getSimpleName() + ", but informer '" + endpoint.informerName()
						+ "' is metadata-only (kubeop.informers.resources." + endpoint.informerName()
						+ ".metadata-only) and holds " + PartialObjectMetadata.class.getName()
						+ "; take that type, or name an informer of full objects");
			}
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private ResourceInformer<? extends KubernetesObject> informer(String informerName,
			Class<? extends KubernetesObject> type, String handler) {
		if (informerName != null && !informerName.isEmpty()) {
			ResourceInformer<?> named = this.informers.informer(informerName);
			if (named == null) {
				throw new IllegalStateException("Handler '" + handler + "' names informer '" + informerName
						+ "', which is not configured; add it under kubeop.informers.resources." + informerName);
			}
			if (!type.isAssignableFrom(named.spec().type())) {
				throw new IllegalStateException("Handler '" + handler + "' takes " + type.getSimpleName()
						+ " but informer '" + informerName + "' holds " + named.spec().type().getSimpleName());
			}
			return named;
		}
		List<ResourceInformer<?>> candidates = this.informers.informers()
			.stream()
			.filter((informer) -> informer.spec().type() == type)
			.toList();
		if (candidates.size() == 1) {
			return candidates.get(0);
		}
		if (candidates.size() > 1) {
			throw new IllegalStateException("Handler '" + handler + "' takes " + type.getSimpleName() + ", which "
					+ candidates.size() + " informers hold ("
					+ String.join(", ", candidates.stream().map((c) -> c.spec().name()).toList())
					+ "); name one in the annotation's 'informer' attribute");
		}
		if (type == PartialObjectMetadata.class) {
			throw new IllegalStateException("Handler '" + handler + "' takes " + type.getSimpleName()
					+ ", which only a metadata-only informer holds; declare one with kubeop.informers.resources.<name>"
					+ ".metadata-only=true and name it in the annotation's 'informer' attribute");
		}
		return this.informers.informer(defaultSpec(type, handler));
	}

	/**
	 * Returns the spec of the informer created for a type no configured informer holds.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private InformerSpec<? extends KubernetesObject> defaultSpec(Class<? extends KubernetesObject> type,
			String handler) {
		if (ResourceType.isCustomResource(type)) {
			// a typed custom resource names its group, version and kind itself
			ResourceType resource = ResourceType.of(type);
			return withDefaults(
					InformerSpec.of(decapitalize(type.getSimpleName()), resource.apiVersion(), resource.kind(), type));
		}
		GroupVersionKind gvk = GeneratedModels.groupVersionKindOf(type)
			.orElseThrow(() -> new IllegalStateException("Handler '" + handler + "' takes " + type.getName()
					+ ", which is neither a generated model nor annotated with @KubernetesResource; configure an informer for it under "
					+ "kubeop.informers.resources and name it in the annotation's 'informer' attribute"));
		// generated model names carry no group (V1Deployment): ask the server which group
		// serves the kind
		String apiVersion = gvk.getGroup().isEmpty()
				? this.informers.discovery().apiVersionOf(gvk.getVersion(), gvk.getKind())
				: gvk.getGroup() + "/" + gvk.getVersion();
		return withDefaults(InformerSpec.of(decapitalize(type.getSimpleName()), apiVersion, gvk.getKind(), type));
	}

	private InformerSpec<? extends KubernetesObject> withDefaults(InformerSpec<? extends KubernetesObject> spec) {
		// without them, kubeop.informers.encoding (and the page size and timeouts) did
		// not reach these informers
		return this.informerDefaults.apply(spec)
			.withNamespaces(this.defaultNamespaces.toArray(String[]::new))
			.withResyncPeriod(this.defaultResyncPeriod);
	}

	/**
	 * Calls primaries when objects they reference change; see {@link ReferenceWatcher}.
	 * An informer that keeps referenced objects only is created apart from the informer
	 * of the type, unless one is named, which then keeps referenced objects only for
	 * every reader.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private <S extends KubernetesObject> void watchReferenced(Controller<?> primary, Reference reference) {
		ResourceInformer<S> referenced;
		if (reference.referencedOnly() && reference.informer().isEmpty()) {
			InformerSpec<S> spec = (InformerSpec<S>) defaultSpec(reference.type(), primary.name());
			List<TransformFunction<S>> transforms = new ArrayList<>(spec.transforms());
			transforms.add(REFERENCED_ONLY);
			referenced = this.informers.informer(new InformerSpec<>(spec.name() + "-referenced", spec.apiVersion(),
					spec.kind(), spec.type(), spec.namespaces(), spec.labelSelector(), spec.fieldSelector(),
					spec.resyncPeriod(), spec.stripManagedFields(), spec.indexers(), spec.pageSize(),
					spec.watchTimeout(), spec.stallTimeout(), spec.pingInterval(), spec.standardTransforms(),
					transforms, spec.encoding()));
		}
		else {
			referenced = (ResourceInformer<S>) informer(reference.informer(), reference.type(), primary.name());
		}
		ReferenceWatcher<S> watcher = new ReferenceWatcher<>(primary, reference, referenced);
		ReferencedKeys keys = null;
		if (reference.referencedOnly()) {
			keys = this.referencedKeys.get(referenced);
			if (keys == null) {
				keys = new ReferencedKeys();
				this.referencedKeys.put(referenced, keys);
				referenced.keepOnly(keys);
			}
		}
		watcher.start(keys);
		this.referenceWatchers.add(watcher);
	}

	/**
	 * Returns whether a handler maps referenced objects to its primaries by a
	 * {@link ReferenceMapper}, whose failures {@link #referenceMappingFailures(String)}
	 * counts.
	 * @param handler the handler name
	 * @return whether the handler has a reference mapper
	 */
	public synchronized boolean mapsReferencesByFunction(String handler) {
		return this.referenceWatchers.stream()
			.anyMatch((watcher) -> watcher.handler().equals(handler) && watcher.mapsByFunction());
	}

	/**
	 * Returns how often the reference mappers of a handler threw.
	 * @param handler the handler name
	 * @return the number of failed mappings
	 */
	public synchronized long referenceMappingFailures(String handler) {
		return this.referenceWatchers.stream()
			.filter((watcher) -> watcher.handler().equals(handler))
			.mapToLong(ReferenceWatcher::mappingFailures)
			.sum();
	}

	/**
	 * Re-triggers owners when owned objects change, as controller-runtime's
	 * {@code EnqueueRequestForOwner} with {@code OnlyControllerOwner} does: the
	 * controller reference is matched by group and kind, not version (an owner served as
	 * v1 still owns objects whose reference says v1alpha1), and an update tells the
	 * owners of both the old and the new state, so an owner whose reference moved away or
	 * was removed hears of it too.
	 */
	@SuppressWarnings("unchecked")
	private <O extends KubernetesObject> void watchOwned(Controller<?> owner, Class<O> type, String informerName) {
		ResourceInformer<O> owned = (ResourceInformer<O>) informer(informerName, type, owner.name());
		owner.owns(owned);
		ResourceKind ownerKind = owner.informer().resource();
		owned.addEventHandler(new InitialListAwareEventHandler<>() {

			@Override
			public void onAdd(O object, boolean inInitialList) {
				enqueueOwners(owner, ownerKind, object, null, owned, inInitialList);
			}

			@Override
			public void onUpdate(O oldObject, O newObject) {
				if (!Objects.equals(oldObject.getMetadata().getResourceVersion(),
						newObject.getMetadata().getResourceVersion())
						&& !TraceContextAnnotation.isOnlyChange(oldObject, newObject)) {
					enqueueOwners(owner, ownerKind, oldObject, newObject, owned, false);
				}
			}

			@Override
			public void onDelete(O object, boolean deletedFinalStateUnknown) {
				enqueueOwners(owner, ownerKind, object, null, null, false);
			}

		});
	}

	/**
	 * Queues the owners of an owned object's states; with the informer of an added or
	 * changed object (not of a deleted one), so that its owner can tell its own writes.
	 */
	private static void enqueueOwners(Controller<?> owner, ResourceKind ownerKind, KubernetesObject object,
			KubernetesObject newObject, ResourceInformer<?> informer, boolean listed) {
		Set<String> keys = new LinkedHashSet<>();
		addOwnerKey(keys, ownerKind, object);
		if (newObject != null) {
			addOwnerKey(keys, ownerKind, newObject);
		}
		KubernetesObject changed = (newObject != null) ? newObject : object;
		keys.forEach((key) -> {
			if (informer != null) {
				owner.enqueueOwner(key, informer, changed, listed);
			}
			else {
				owner.enqueue(key, Trigger.OWNER);
			}
		});
	}

	private static void addOwnerKey(Set<String> keys, ResourceKind ownerKind, KubernetesObject object) {
		V1OwnerReference controller = controllerOf(object);
		if (controller == null || !ownerKind.kind().equals(controller.getKind())
				|| !ownerKind.group().equals(group(controller.getApiVersion()))) {
			return;
		}
		String namespace = object.getMetadata().getNamespace();
		if (!ownerKind.namespaced()) {
			keys.add(controller.getName());
		}
		else if (namespace != null) {
			// a namespaced owner lives in its owned object's namespace; a cluster-scoped
			// object cannot have one
			keys.add(namespace + "/" + controller.getName());
		}
	}

	/**
	 * Returns the controller reference of an object: the first owner reference with
	 * {@code controller: true} (the API server allows only one), as apimachinery's
	 * {@code metav1.GetControllerOf} does.
	 */
	private static V1OwnerReference controllerOf(KubernetesObject object) {
		List<V1OwnerReference> references = object.getMetadata().getOwnerReferences();
		if (references != null) {
			for (V1OwnerReference reference : references) {
				if (Boolean.TRUE.equals(reference.getController())) {
					return reference;
				}
			}
		}
		return null;
	}

	/**
	 * Returns the group of an {@code apiVersion}: empty for the core group ({@code v1}),
	 * the part before the slash otherwise ({@code apps/v1}).
	 */
	private static String group(String apiVersion) {
		if (apiVersion == null) {
			return null;
		}
		int slash = apiVersion.indexOf('/');
		return (slash >= 0) ? apiVersion.substring(0, slash) : "";
	}

	private static String decapitalize(String name) {
		return Character.toLowerCase(name.charAt(0)) + name.substring(1);
	}

	/**
	 * Creates the queue of a handler.
	 */
	@FunctionalInterface
	public interface Queues {

		/**
		 * Creates a handler's queue.
		 * @param handler the handler name
		 * @param lanes the lane of a key, with fairness on, else {@code null}
		 * @return the queue
		 */
		RateLimitingQueue<String> create(String handler, Function<String, String> lanes);

	}

}
