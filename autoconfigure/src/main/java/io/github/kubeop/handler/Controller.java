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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import io.github.kubeop.handler.CallPlanner.Call;
import io.github.kubeop.handler.DeliveryLedger.FinalState;
import io.github.kubeop.informer.InitialListAwareEventHandler;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.queue.Priority;
import io.github.kubeop.queue.RateLimitingQueue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Runs one {@link HandlerEndpoint}: informer callbacks only filter and put keys into a
 * rate-limited work queue ({@link EnqueueingEventHandler}); workers take one key at a
 * time, compare the cached object with the state last delivered for that key
 * ({@link DeliveryLedger}, {@link CallPlanner}), and call {@code @OnAdd},
 * {@code @OnUpdate} or {@code @OnDelete}. A key is never handled by two workers at once,
 * changes between two calls coalesce, failures are retried with the queue's back-off, and
 * a {@link TerminalException} is not retried. A key's next call waits until the informers
 * show the writes of its earlier calls ({@link ReadAfterWriteGate}). A handler with a
 * cleanup method adds its finalizer before its other calls, calls the cleanup for objects
 * being deleted that hold the finalizer, and removes the finalizer once the cleanup has
 * returned ({@link Finalizers}, {@link io.github.kubeop.annotation.Cleanup}). Workers run
 * only while the controller is active ({@link Activation}: the leader, or always without
 * leader election), for the keys this replica handles ({@link HandledKeys}: a part of
 * them with sharding).
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
public final class Controller<T extends KubernetesObject> {

	private static final Log logger = LogFactory.getLog(Controller.class);

	private final HandlerEndpoint endpoint;

	private final ResourceInformer<T> informer;

	private final RateLimitingQueue<String> queue;

	private final int workerCount;

	private final HandlerObserver observer;

	private final HandlerTracing tracing;

	/**
	 * The keys queued by a warm-up (the workers started or gained them), the initial list
	 * or a relist, and by no watch event since, kept only while tracing: their calls
	 * continue no writer's trace, the object having been written before, for another
	 * reason than this call, or by a writer no watch event told of.
	 */
	private final Set<String> warmedUp = ConcurrentHashMap.newKeySet();

	/**
	 * The trace context of the first failed attempt of each key that waits for a retry
	 * and whose call continued no writer's trace, kept only while tracing: its retries
	 * continue it, so that the attempts at one change are spans of one trace. At most one
	 * entry per key between a failed call and the key's next settled call (success,
	 * terminal failure, nothing to call), its forget, its delete, or its move to another
	 * replica; a reset drops them all.
	 */
	private final Map<String, String> retryTraceContexts = new ConcurrentHashMap<>();

	private final Predicate<T> filter;

	private final boolean handlesDeletes;

	/**
	 * The finalizer of the handler's cleanup method, or {@code null} without one.
	 */
	private final Finalizers<T> finalizers;

	private final DeliveryLedger<T> ledger = new DeliveryLedger<>();

	private final CallPlanner<T> planner;

	private final ReadAfterWriteGate readAfterWrite;

	private final OwnWrites ownWrites;

	private final HandledKeys keys = new HandledKeys();

	private final Activation activation = new Activation();

	private final ResourceEventHandler<T> events;

	private final WorkerPool workers;

	private final AtomicLong workerFailures = new AtomicLong();

	/**
	 * Whether keys are queued at priorities; without, every key waits at
	 * {@link Priority#NORMAL}, in the order queued.
	 */
	private final boolean priorities;

	private final AtomicBoolean clampLogged = new AtomicBoolean();

	private final CallTimeout callTimeout;

	/**
	 * Deletes what a reconcile no longer applies, or {@code null} for a handler that does
	 * not prune.
	 */
	private final Pruner pruner;

	private volatile boolean running;

	Controller(HandlerEndpoint endpoint, ResourceInformer<T> informer, RateLimitingQueue<String> queue, int workerCount,
			HandlerObserver observer) {
		this(endpoint, informer, queue, workerCount, observer, null);
	}

	Controller(HandlerEndpoint endpoint, ResourceInformer<T> informer, RateLimitingQueue<String> queue, int workerCount,
			HandlerObserver observer, Finalizers<T> finalizers) {
		this(endpoint, informer, queue, workerCount, observer, finalizers, true, CallTimeout.NONE, null,
				HandlerTracing.NONE);
	}

	Controller(HandlerEndpoint endpoint, ResourceInformer<T> informer, RateLimitingQueue<String> queue, int workerCount,
			HandlerObserver observer, Finalizers<T> finalizers, boolean priorities, CallTimeout callTimeout,
			Pruner pruner, HandlerTracing tracing) {
		this.tracing = tracing;
		this.priorities = priorities;
		this.endpoint = endpoint;
		this.callTimeout = callTimeout;
		this.pruner = pruner;
		this.finalizers = finalizers;
		this.informer = informer;
		this.queue = queue;
		this.workerCount = workerCount;
		this.observer = observer;
		this.filter = HandlerFilter.of(endpoint, informer.resource());
		this.handlesDeletes = !endpoint.methods(HandlerMethod.Kind.DELETE).isEmpty();
		this.planner = new CallPlanner<>(endpoint, finalizers, this.ledger);
		this.readAfterWrite = new ReadAfterWriteGate(endpoint.name());
		this.ownWrites = new OwnWrites(informer);
		this.workers = new WorkerPool(endpoint.name());
		this.events = new EnqueueingEventHandler<>(endpoint, this.filter, finalizers != null, this.ledger,
				this::enqueue, this::listed, this::relisted);
		// observed before queued: a worker that finds an own write in the cache can tell
		// whether its change has reached this handler, with what came before it
		informer.addEventHandler(new WhileActive(this.ownWrites.observing(this.events,
				(object) -> this.filter.test(object) || this.ledger.isDelivered(ResourceInformer.key(object)))));
	}

	/**
	 * Returns the handler name.
	 * @return the name
	 */
	public String name() {
		return this.endpoint.name();
	}

	/**
	 * Returns the queue, for metrics.
	 * @return the queue
	 */
	public RateLimitingQueue<String> queue() {
		return this.queue;
	}

	/**
	 * Returns the number of workers.
	 * @return the worker count
	 */
	public int workerCount() {
		return this.workerCount;
	}

	/**
	 * Returns the informer the handler listens to.
	 * @return the informer
	 */
	public ResourceInformer<T> informer() {
		return this.informer;
	}

	/**
	 * Enqueues a key, as an owned object's change does.
	 * @param key the key
	 * @param trigger why
	 */
	void enqueue(String key, Trigger trigger) {
		if (this.tracing != HandlerTracing.NONE && (trigger == Trigger.ADDED || trigger == Trigger.CHANGED)) {
			this.warmedUp.remove(key);
		}
		// a resync is work no change asked for; everything else came through a watch
		enqueue(key, trigger, (trigger == Trigger.RESYNC) ? Priority.LOW : Priority.NORMAL);
	}

	private void enqueue(String key, Trigger trigger, int priority) {
		this.activation.whileActive(() -> {
			if (!this.keys.contains(key)) {
				return;
			}
			if (trigger == Trigger.OWNER) {
				// a change that cannot be told from an own write
				this.ownWrites.observeOwned(key, null, null);
			}
			this.ledger.triggered(key, trigger);
			this.queue.add(key, this.priorities ? priority : Priority.NORMAL);
		});
	}

	/**
	 * Queues a cached object because the workers started or gained its key, at low
	 * priority: every real change goes first, as with controller-runtime's priority
	 * queue.
	 */
	private void warmUp(T object) {
		if (this.filter.test(object)) {
			listed(ResourceInformer.key(object));
		}
	}

	/**
	 * Queues the key of an object that is there, not one that changed: a cached object at
	 * warm-up, or one of the informer's initial list (which can reach the handler after
	 * the workers started). Low priority, and its call continues no trace.
	 */
	private void listed(String key) {
		if (this.tracing != HandlerTracing.NONE) {
			this.warmedUp.add(key);
		}
		enqueue(key, Trigger.ADDED, Priority.LOW);
	}

	/**
	 * Queues the key of an object a relist found added or changed: a change no watch told
	 * of, at normal priority as a watch's, but whose writer is unknown: its call
	 * continues no trace.
	 */
	private void relisted(String key, Trigger trigger) {
		if (this.tracing != HandlerTracing.NONE) {
			this.warmedUp.add(key);
		}
		enqueue(key, trigger, Priority.NORMAL);
	}

	/**
	 * Adds an owned type: its objects' changes queue their owners' keys, and a handler
	 * that prunes deletes those its reconcile no longer applies.
	 * @param <O> the owned type
	 * @param owned the owned objects' informer
	 */
	<O extends KubernetesObject> void owns(ResourceInformer<O> owned) {
		if (this.pruner != null) {
			this.pruner.owns(owned);
		}
	}

	/**
	 * Enqueues the owner's key of an owned object that was added or changed: a change
	 * that is only this handler's own write calls it again only if it asks for that.
	 * @param key the owner's key
	 * @param informer the owned object's informer
	 * @param owned the owned object's new state
	 * @param listed whether the owned object's add is in its informer's initial list:
	 * queued at low priority, as the handler's own initial list is
	 */
	void enqueueOwner(String key, ResourceInformer<?> informer, KubernetesObject owned, boolean listed) {
		this.activation.whileActive(() -> {
			if (!this.keys.contains(key)) {
				return;
			}
			this.ownWrites.observeOwned(key, informer, owned);
			this.ledger.triggered(key, Trigger.OWNER);
			this.queue.add(key, (this.priorities && listed) ? Priority.LOW : Priority.NORMAL);
		});
	}

	/**
	 * Enqueues a key because a related object (owned or referenced) is in its informer's
	 * initial list: work no change asked for, at low priority, as controller-runtime's
	 * priority queue does for every handler of a controller.
	 * @param key the key
	 * @param trigger why
	 */
	void enqueueListed(String key, Trigger trigger) {
		enqueue(key, trigger, Priority.LOW);
	}

	// ---- the workers' lifecycle

	/**
	 * Starts the workers. Every cached object is handled as an add first, as
	 * controller-runtime's warm-up does: while the workers were stopped nothing was
	 * queued, and nothing is remembered as delivered.
	 */
	synchronized void startWorkers() {
		if (this.running) {
			return;
		}
		this.running = true;
		long epoch = this.activation.nextEpoch();
		activate();
		this.workers.start(this.workerCount, () -> work(epoch));
	}

	/**
	 * Stops the workers, letting running calls finish within the timeout, and drops every
	 * key's state: nothing is queued while the workers are stopped, and
	 * {@link #startWorkers()} handles every cached object again.
	 * @param timeout how long running calls may take to finish
	 * @return whether every worker stopped in time
	 */
	synchronized boolean stopWorkers(Duration timeout) {
		requestStop(false);
		return awaitStopped(timeout);
	}

	/**
	 * Tells the workers to stop and returns at once; {@link #awaitStopped(Duration)}
	 * waits for them.
	 * @param interruptCalls whether running calls are interrupted (leadership lost:
	 * another replica is about to handle the same keys) or may finish (shutdown)
	 */
	synchronized void requestStop(boolean interruptCalls) {
		this.running = false;
		// first the epoch, then the interrupts: a worker that joins the idle set after
		// the interrupts went out sees the new epoch
		this.activation.nextEpoch();
		this.activation.deactivate();
		// every live worker, those a graceful stop gave up on included
		this.workers.interrupt(interruptCalls);
	}

	/**
	 * Waits for the workers told to stop, then drops every key's state.
	 * @param timeout how long to wait
	 * @return whether every worker ended in time
	 */
	boolean awaitStopped(Duration timeout) {
		long epoch = this.activation.epoch();
		// joined without this controller's lock: an interrupting stop may come while a
		// graceful one waits
		boolean stopped = this.workers.awaitEnded(System.nanoTime() + timeout.toNanos());
		if (!stopped) {
			logger.warn("Handler " + name() + " has calls still running after its workers were stopped; "
					+ "their workers end when the calls return");
		}
		synchronized (this) {
			// not after a later start, which handles every cached object anew
			if (!this.running && this.activation.isCurrent(epoch)) {
				reset();
			}
		}
		return stopped;
	}

	/**
	 * Returns how many workers run: the configured count while the workers are started,
	 * fewer if some ended unexpectedly.
	 * @return the number of live workers of the current start
	 */
	public int liveWorkers() {
		return this.workers.live();
	}

	/**
	 * Returns whether the workers are started (on a leader, or without leader election).
	 * @return whether the workers should run
	 */
	public boolean workersStarted() {
		return this.running;
	}

	/**
	 * Returns how often something other than the handler call itself failed while a
	 * worker handled a key (a filter, an {@link Error} from a handler): the key was
	 * retried with back-off and the worker went on.
	 * @return the number of such failures
	 */
	public long workerFailures() {
		return this.workerFailures.get();
	}

	// ---- the worker loop

	private void work(long epoch) {
		while (processNextWorkItem(epoch)) {
			// until the workers are stopped
		}
	}

	/**
	 * Takes one key from the queue and handles it, as controller-runtime's
	 * {@code processNextWorkItem} does.
	 * @return whether the worker goes on
	 */
	private boolean processNextWorkItem(long epoch) {
		String key;
		try {
			// the epoch is checked once idle: a stop either interrupts the idle worker or
			// is seen here
			key = this.workers.takeWhileIdle(() -> this.activation.isCurrent(epoch) ? this.queue.get() : null);
		}
		catch (InterruptedException ex) {
			// a stop, seen on the next turn, or an interrupt meant for the idle worker
			return true;
		}
		if (key == null) {
			return false;
		}
		if (!this.activation.isCurrent(epoch)) {
			// taken after a stop: give it back untouched
			this.queue.add(key, this.queue.priorityOf(key));
			this.queue.done(key);
			return false;
		}
		handle(key, epoch);
		return true;
	}

	private void handle(String key, long epoch) {
		this.keys.callStarting(key);
		try {
			if (!this.keys.contains(key)) {
				// queued before the key moved to another replica: no longer this one's
				forget(key);
				this.queue.forget(key);
				return;
			}
			this.observer.workerStarted(name());
			try {
				reconcile(key, epoch);
			}
			finally {
				this.observer.workerFinished(name());
				if (!this.keys.contains(key)) {
					// the key moved away while its call ran: nothing of it stays here
					forget(key);
				}
			}
		}
		catch (Throwable ex) {
			// nothing may end a worker: with one worker the handler would stop for good
			this.workerFailures.incrementAndGet();
			logger.error("Handler " + name() + " failed for " + key + " outside its handler call; retrying", ex);
			this.queue.addRateLimited(key, this.queue.priorityOf(key));
		}
		finally {
			this.keys.callEnded(key);
			this.queue.done(key);
		}
	}

	/**
	 * Delivers what changed for a key since its last call, once the informers show the
	 * key's own writes.
	 */
	private void reconcile(String key, long epoch) {
		Set<Trigger> triggers = this.ledger.takeTriggers(key);
		this.ownWrites.turnStarting(key);
		// read once: a delete arriving while the handler runs replaces it, and survives
		FinalState<T> finalState = this.ledger.finalState(key);
		// the gate before the cache: a write the gate finds shown is in every state read
		// after it, whereas a state read first may predate a write shown meanwhile
		boolean writesSeen = this.readAfterWrite.writesSeen(key);
		T cached = this.informer.indexer().getByKey(key);
		T current = (cached != null && this.filter.test(cached)) ? cached : null;
		T last = this.ledger.delivered(key);
		if (last != null && finalState == null && this.handlesDeletes
				&& (cached == null || !Objects.equals(uid(cached), uid(last)))) {
			// the informer took the object out of its cache, and the delete it tells of
			// that, with the final state, is still on its way to this handler: it queues
			// the key again
			this.ledger.restoreTriggers(key, triggers);
			return;
		}
		if (last != null && current != null && !Objects.equals(uid(last), uid(current))) {
			// deleted and created again under one name while the key waited: the old
			// object's delete and the new one's add, never an update across two objects
			if (!call(key, this.planner.deleteCall(last, finalState, cached), null, finalState, triggers, epoch)) {
				return;
			}
			last = null;
			finalState = null;
		}
		if (current != null && !writesSeen) {
			// the informers are behind this key's own writes: called now, the handler
			// would read older states of what it wrote. The informer's change of the
			// written object queues the key again; the delay is the fallback.
			this.ledger.restoreTriggers(key, triggers);
			this.queue.addAfter(key, ReadAfterWriteGate.RECHECK, this.queue.priorityOf(key));
			HandlerCallLog.requeued(name(), key, ReadAfterWriteGate.RECHECK,
					"the informers do not show the key's own writes yet", null, null);
			return;
		}
		OwnWrites.Verdict own = (last != null && current != null)
				? this.ownWrites.classify(key, last, current, triggers.contains(Trigger.OWNER))
				: OwnWrites.Verdict.NONE;
		if (own.waitForEvent()) {
			// the cache shows an own write whose event has not reached this handler yet,
			// nor what came before it: that event queues the key again; the delay is the
			// fallback
			this.ledger.restoreTriggers(key, triggers);
			this.queue.addAfter(key, ReadAfterWriteGate.RECHECK, this.queue.priorityOf(key));
			return;
		}
		Call<T> call = this.planner.decide(key, cached, current, last, finalState, triggers, own);
		if (call == null) {
			remember(key, current, finalState);
			this.queue.forget(key);
			return;
		}
		call(key, call, current, finalState, triggers, epoch);
	}

	/**
	 * Makes one call and settles the key by its outcome, as controller-runtime's
	 * {@code reconcileHandler} does.
	 * @param key the key
	 * @param call the call
	 * @param current the state to remember as delivered, {@code null} for a delete
	 * @param finalState the final state this run read, consumed unless the call fails
	 * @param triggers the triggers this run took, restored if the call fails
	 * @return {@code false} if the call failed and the key was put back for a retry
	 */
	private boolean call(String key, Call<T> planned, T current, FinalState<T> finalState, Set<Trigger> triggers,
			long epoch) {
		if (planned.methods().isEmpty() && !planned.removalOnly()) {
			// no method for this change: only the bookkeeping, and no reconcile to count
			remember(key, current, finalState);
			this.queue.forget(key);
			return true;
		}
		Call<T> call = planned.withCopies();
		HandlerContext context = new HandlerContext(key, call.trigger(), this.queue.numRequeues(key) + 1, name(),
				call.finalStateUnknown());
		long start = System.nanoTime();
		Duration requeueAfter;
		// opened before the call, so that its writes and log lines are inside it
		HandlerTracing.Traced traced = HandlerTracing.Traced.NONE;
		boolean continuesWriter = false;
		if (this.tracing != HandlerTracing.NONE) {
			String carried = carriedTraceContext(key, call);
			continuesWriter = carried != null;
			traced = this.tracing.start(name(), key, this.informer.resource(), call.trigger(), context.attempt(),
					continuesWriter ? carried : this.retryTraceContexts.get(key));
		}
		// a retry of a call that continued no writer's trace continues the first
		// attempt's
		HandlerTracing.Traced retryTrace = continuesWriter ? HandlerTracing.Traced.NONE : traced;
		HandlerCall handlerCall = HandlerCall.begin(name(), key, call.newObject(), this.informer.resource(),
				call.kind());
		// the state delivered: the object as a finalizer write returned it, if there was
		// one
		AtomicReference<T> delivered = new AtomicReference<>(current);
		CallTimeout.Deadline deadline = this.callTimeout.start();
		try {
			try {
				try {
					requeueAfter = invoke(call, context, delivered, key, epoch);
					if (this.pruner != null && current != null
							&& call.methods().stream().anyMatch(HandlerMethod::prunes)) {
						// only after the methods returned normally: what they applied is
						// the whole desired state
						this.pruner.prune(current, handlerCall);
					}
				}
				catch (Exception ex) {
					// whatever the interrupt made of the call, a timeout is what ended it
					if (deadline.end()) {
						throw new CallTimeout.ExceededException(deadline.timeout(), ex);
					}
					throw ex;
				}
				if (deadline.end()) {
					// the call ignored the interrupt and returned late: still a failure
					throw new CallTimeout.ExceededException(deadline.timeout(), null);
				}
			}
			finally {
				deadline.end();
				handlerCall.end();
				// before the bookkeeping, whatever the outcome, so that a delete's forget
				// comes after and wins; and in the epoch, so that a call outliving a stop
				// leaves nothing behind the reset
				this.activation.inEpoch(epoch, () -> this.readAfterWrite.wrote(key, handlerCall));
			}
		}
		catch (Finalizers.ConflictException ex) {
			// the object changed since the cache showed it: handled again once the cache
			// has caught up, rate-limited but not counted as a failure
			called(key, call, context, HandlerObserver.Outcome.REQUEUE, start, traced, ex);
			retry(key, triggers, epoch, retryTrace, "finalizer write conflict", ex.getMessage(), null);
			this.observer.handled(name(), HandlerObserver.Outcome.REQUEUE, System.nanoTime() - start);
			return false;
		}
		catch (TerminalException | HandlerMethod.ProgrammingError | ClassCastException ex) {
			logger.error("Handler " + name() + " failed for " + key + " (" + call.trigger()
					+ ") and will not retry until the object changes", ex);
			called(key, call, context, HandlerObserver.Outcome.TERMINAL_ERROR, start, traced, ex);
			this.activation.inEpoch(epoch, () -> {
				this.ledger.requeueAnswered(key);
				remember(key, delivered.get(), finalState);
				if (delivered.get() != null) {
					this.ownWrites.completed(key, handlerCall);
				}
				this.queue.forget(key);
			});
			this.observer.handled(name(), HandlerObserver.Outcome.TERMINAL_ERROR, System.nanoTime() - start);
			return true;
		}
		catch (Exception ex) {
			WriteConflict conflict = WriteConflict.of(ex);
			if (conflict != null && conflict.isRoutine()) {
				// a write lost an optimistic-concurrency race, or met an object replaced
				// since it was read: routine, not a failure
				called(key, call, context, HandlerObserver.Outcome.REQUEUE, start, traced, ex);
				retry(key, triggers, epoch, retryTrace, "write conflict: " + conflict.describe(), null, null);
				this.observer.handled(name(), HandlerObserver.Outcome.REQUEUE, System.nanoTime() - start);
				return false;
			}
			// any other 409 (an apply that meets another field manager's fields, an
			// object that already exists) is not resolved by calling again: a failure
			if (context.attempt() == 1) {
				logger.warn("Handler " + name() + " failed for " + key + " (" + call.trigger() + "), retrying: "
						+ ((conflict != null) ? conflict.describe() + ": " : "") + ex, ex);
			}
			called(key, call, context, HandlerObserver.Outcome.ERROR, start, traced, ex);
			// the first failure's stack trace is in the warning; later ones only here
			retry(key, triggers, epoch, retryTrace, "failed", ex, (context.attempt() > 1) ? ex : null);
			this.observer.handled(name(), HandlerObserver.Outcome.ERROR, System.nanoTime() - start);
			return false;
		}
		catch (Throwable ex) {
			traced.end(HandlerObserver.Outcome.ERROR, ex);
			// an Error from a handler registered in code: the worker retries the key,
			// which must still know why it was queued
			this.activation.inEpoch(epoch, () -> {
				this.ownWrites.completed(key, null);
				this.ledger.restoreTriggers(key, triggers);
				keepForRetry(key, retryTrace);
			});
			throw ex;
		}
		HandlerObserver.Outcome outcome = (requeueAfter == null || requeueAfter.isNegative() || current == null)
				? HandlerObserver.Outcome.SUCCESS
				: requeueAfter.isZero() ? HandlerObserver.Outcome.REQUEUE : HandlerObserver.Outcome.REQUEUE_AFTER;
		called(key, call, context, outcome, start, traced, null);
		this.activation.inEpoch(epoch, () -> {
			// the call answered any earlier request to be called again; its own result
			// may ask anew. A failed call keeps the request for its retry.
			this.ledger.requeueAnswered(key);
			if (call.kind() == HandlerMethod.Kind.CLEANUP && delivered.get() != current) {
				this.ledger.finalizerRemoved(key, uid(current));
			}
			remember(key, delivered.get(), finalState);
			if (delivered.get() != null) {
				this.ownWrites.completed(key, handlerCall);
			}
			switch (outcome) {
				case REQUEUE -> {
					// as controller-runtime's Requeue: rate-limited, not forgotten first,
					// so that a handler asking again and again backs off instead of
					// spinning
					this.ledger.requeue(key, call.kind());
					this.queue.addRateLimited(key, requeuePriority(key, handlerCall));
					HandlerCallLog.requeued(name(), key, null, "the handler asked to be called again", null, null);
				}
				case REQUEUE_AFTER -> {
					this.queue.forget(key);
					this.ledger.requeue(key, call.kind());
					this.queue.addAfter(key, requeueAfter, requeuePriority(key, handlerCall));
					HandlerCallLog.requeued(name(), key, requeueAfter, "the handler asked to be called again", null,
							null);
				}
				default -> this.queue.forget(key);
			}
		});
		this.observer.handled(name(), outcome, System.nanoTime() - start);
		return true;
	}

	/**
	 * Puts a key back after a failed call, with the queue's back-off and the triggers it
	 * took.
	 */
	private void retry(String key, Set<Trigger> triggers, long epoch, HandlerTracing.Traced traced, String reason,
			Object detail, Throwable stackTrace) {
		this.activation.inEpoch(epoch, () -> {
			// what a failed call wrote is a change for its retry to handle
			this.ownWrites.completed(key, null);
			this.ledger.restoreTriggers(key, triggers);
			keepForRetry(key, traced);
			this.queue.addRateLimited(key, this.queue.priorityOf(key));
			HandlerCallLog.requeued(name(), key, null, reason, detail, stackTrace);
		});
	}

	/**
	 * Keeps the trace context of a key's first failed attempt for its retries: later
	 * failed attempts keep the first's, so that every attempt is a child of the first.
	 */
	private void keepForRetry(String key, HandlerTracing.Traced traced) {
		if (traced != HandlerTracing.Traced.NONE && !this.retryTraceContexts.containsKey(key)) {
			String traceContext = traced.traceContext();
			if (traceContext != null) {
				this.retryTraceContexts.put(key, traceContext);
			}
		}
	}

	/**
	 * The priority a key asked to be called again at: the one its method's result names,
	 * clamped to the allowed range, else the one the key was taken at.
	 */
	private int requeuePriority(String key, HandlerCall call) {
		Integer asked = call.requeuePriority();
		if (asked == null) {
			return this.queue.priorityOf(key);
		}
		if (!this.priorities) {
			return Priority.NORMAL;
		}
		if (!Priority.isAllowed(asked) && this.clampLogged.compareAndSet(false, true)) {
			logger.warn("Handler " + name() + " asked to be called again at priority " + asked + ", outside "
					+ Priority.LOW + " to " + Priority.HIGH + "; using " + Priority.clamp(asked)
					+ " (logged once per handler)");
		}
		return Priority.clamp(asked);
	}

	/**
	 * The trace context a call continues: the one the change it handles brought onto the
	 * object. Only an add or a change that came through a watch has a writer (one a list
	 * found may have had several since the last watch event); and only a value the change
	 * brought (a new object's, or one that differs from the state delivered before) is
	 * the writer's: an annotation left from an earlier write, on an object someone else
	 * changed since, tells nothing of this change.
	 */
	private String carriedTraceContext(String key, Call<T> call) {
		if (call.trigger() != Trigger.ADDED && call.trigger() != Trigger.CHANGED || this.warmedUp.contains(key)) {
			return null;
		}
		String carried = TraceContextAnnotation.valueOf(call.newObject());
		if (carried == null
				|| (call.oldObject() != null && carried.equals(TraceContextAnnotation.valueOf(call.oldObject())))) {
			return null;
		}
		return carried;
	}

	private void called(String key, Call<T> call, HandlerContext context, HandlerObserver.Outcome outcome, long start,
			HandlerTracing.Traced traced, Throwable error) {
		// the log line still inside the trace, so that it carries the call's trace id
		HandlerCallLog.called(name(), key, call.trigger(), context.attempt(), outcome, start);
		traced.end(outcome, error);
	}

	/**
	 * Calls the methods, with the finalizer writes of a handler that has a cleanup
	 * method: before any other call the finalizer is added if missing, and the methods
	 * get the object as the API server returned it; after a cleanup call that asked for
	 * nothing more, the finalizer is removed.
	 * @param delivered holds the object to call with, and takes the object a finalizer
	 * write returned
	 * @param key the key
	 * @param epoch the epoch the call started in
	 */
	private Duration invoke(Call<T> call, HandlerContext context, AtomicReference<T> delivered, String key, long epoch)
			throws Exception {
		T object = delivered.get();
		if (this.finalizers == null || object == null || call.kind() == HandlerMethod.Kind.DELETE) {
			return call.invoke(context);
		}
		if (call.kind() == HandlerMethod.Kind.CLEANUP) {
			// nothing to call if the cleanup ran already and only its removal failed
			Duration requeueAfter = call.invoke(context);
			if (requeueAfter == null || requeueAfter.isNegative()) {
				// marked before the removal: a removal that fails (a 5xx, a timeout, a
				// 403, conflicts without end) is retried alone, without the cleanup
				this.activation.inEpoch(epoch, () -> this.ledger.cleanedUp(key, uid(object)));
				// only after the cleanup returned: until then the object stays
				delivered.set(wrote(this.finalizers.remove(object)));
			}
			return requeueAfter;
		}
		if (!this.finalizers.isHeldBy(object)) {
			T added = wrote(this.finalizers.add(object));
			delivered.set(added);
			return call.withObject(added).invoke(context);
		}
		return call.invoke(context);
	}

	/**
	 * Records a write of the handled object for read-after-write, as the
	 * {@code KubernetesTemplate} does for the handler's own writes.
	 */
	private T wrote(T written) {
		HandlerCall call = HandlerCall.current();
		if (call != null && written != null) {
			call.wrote(this.informer, written);
		}
		return written;
	}

	// ---- activation: the leader's workers, or always without leader election

	private void activate() {
		this.activation.activate(this::reset);
		for (T object : this.informer.indexer().list()) {
			try {
				warmUp(object);
			}
			catch (RuntimeException ex) {
				// as the informer does with its own events: one object must not stop the
				// rest
				logger.error("Handler " + name() + " could not queue " + ResourceInformer.key(object), ex);
			}
		}
	}

	/**
	 * Drops the state of every key, while no event is let through: a later start handles
	 * every cached key again.
	 */
	private void reset() {
		this.retryTraceContexts.clear();
		this.ledger.clear();
		this.readAfterWrite.clear();
		this.ownWrites.clear();
		if (this.workers.noneAlive()) {
			// no worker can take a key, so this cannot block
			while (this.queue.length() > 0) {
				String key = takeQueued();
				if (key == null) {
					break;
				}
				this.queue.forget(key);
				this.queue.done(key);
			}
		}
	}

	private String takeQueued() {
		try {
			return this.queue.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	// ---- sharding: the keys this replica handles

	/**
	 * Narrows the keys this replica handles, as sharding does when keys move to other
	 * replicas: keys outside are no longer queued and their state is dropped (they get no
	 * {@code @OnDelete} here: the objects still exist, another replica handles them).
	 * Calls already running for such keys go on; {@link #callsOutside(Predicate)} tells
	 * when they have ended.
	 * @param keys the keys this replica keeps
	 */
	public void narrowKeys(Predicate<String> keys) {
		this.keys.set(keys);
		this.retryTraceContexts.keySet().removeIf(keys.negate());
		this.ledger.retainOnly(keys);
		this.readAfterWrite.retainOnly(keys);
		this.ownWrites.retainOnly(keys);
	}

	/**
	 * Widens the keys this replica handles, as sharding does when keys move to it: every
	 * cached object whose key it gains is handled as an add, as a new leader's warm-up
	 * does.
	 * @param keys the keys this replica handles from now on
	 * @return how many cached objects' keys were gained
	 */
	public int widenKeys(Predicate<String> keys) {
		Predicate<String> before = this.keys.set(keys);
		int gained = 0;
		for (T object : this.informer.indexer().list()) {
			String key = ResourceInformer.key(object);
			if (!before.test(key) && keys.test(key)) {
				gained++;
				try {
					warmUp(object);
				}
				catch (RuntimeException ex) {
					logger.error("Handler " + name() + " could not queue " + key, ex);
				}
			}
		}
		return gained;
	}

	/**
	 * Returns the keys outside the given ones that have a call running.
	 * @param keys the keys
	 * @return the keys of running calls that the predicate rejects
	 */
	public List<String> callsOutside(Predicate<String> keys) {
		return this.keys.callsOutside(keys);
	}

	/**
	 * Waits until no call runs for a key outside the given ones, interrupting such calls
	 * first if asked (the replica lost its membership: others are about to take the
	 * keys).
	 * @param keys the keys that may go on
	 * @param timeout how long to wait
	 * @param interrupt whether running calls outside are interrupted
	 * @return whether no such call runs any more
	 */
	public boolean awaitCallsOutside(Predicate<String> keys, Duration timeout, boolean interrupt) {
		return this.keys.awaitCallsOutside(keys, timeout, interrupt);
	}

	/**
	 * Returns whether this replica handles a key now.
	 * @param key the key
	 * @return whether the key is this replica's
	 */
	public boolean handlesKey(String key) {
		return this.keys.contains(key);
	}

	/**
	 * Returns the last state this handler knows of a key, for when it is no longer
	 * cached: its final state, else the state last delivered.
	 * @param key the key
	 * @return the state, or {@code null} if none is known
	 */
	T lastKnown(String key) {
		DeliveryLedger.FinalState<T> finalState = this.ledger.finalState(key);
		return (finalState != null) ? finalState.object() : this.ledger.delivered(key);
	}

	/**
	 * Returns how many per-key entries this controller holds: queued keys, and keys with
	 * a delivered state, a final state, triggers, a requeue, writes not yet seen or the
	 * trace context of a failed attempt awaiting its retry. On a standby it stays at zero
	 * however much the cluster churns.
	 * @return the number of entries
	 */
	public int retainedKeys() {
		return this.queue.length() + this.ledger.size() + this.readAfterWrite.size() + this.ownWrites.size()
				+ this.retryTraceContexts.size();
	}

	/**
	 * Records what a call delivered. Once a key's delete has been delivered, its writes
	 * are no longer waited for: no next call of that object is to come, and nothing that
	 * grows with churn may outlive its key.
	 */
	private void remember(String key, T current, FinalState<T> consumed) {
		this.ledger.remember(key, current, consumed);
		if (this.tracing != HandlerTracing.NONE) {
			// settled: the next call is no retry
			this.retryTraceContexts.remove(key);
		}
		if (current == null) {
			this.warmedUp.remove(key);
			this.readAfterWrite.forget(key);
			this.ownWrites.forget(key);
		}
		else {
			this.ownWrites.consumed(key);
		}
	}

	private void forget(String key) {
		this.warmedUp.remove(key);
		this.retryTraceContexts.remove(key);
		this.ledger.forget(key);
		this.readAfterWrite.forget(key);
		this.ownWrites.forget(key);
	}

	private static String uid(KubernetesObject object) {
		return object.getMetadata().getUid();
	}

	/**
	 * Lets informer events through only while the workers are started, and only for the
	 * keys this replica handles: a standby, and a key of another shard, leave no trace
	 * here.
	 */
	private final class WhileActive implements InitialListAwareEventHandler<T> {

		private final ResourceEventHandler<T> delegate;

		WhileActive(ResourceEventHandler<T> delegate) {
			this.delegate = delegate;
		}

		@Override
		public void onAdd(T object, boolean inInitialList) {
			whileActive(object, () -> InitialListAwareEventHandler.onAdd(this.delegate, object, inInitialList));
		}

		@Override
		public void onUpdate(T oldObject, T newObject) {
			whileActive(newObject, () -> this.delegate.onUpdate(oldObject, newObject));
		}

		@Override
		public void onRelistAdd(T object) {
			whileActive(object, () -> InitialListAwareEventHandler.onRelistAdd(this.delegate, object));
		}

		@Override
		public void onRelistUpdate(T oldObject, T newObject) {
			whileActive(newObject,
					() -> InitialListAwareEventHandler.onRelistUpdate(this.delegate, oldObject, newObject));
		}

		@Override
		public void onDelete(T object, boolean deletedFinalStateUnknown) {
			whileActive(object, () -> this.delegate.onDelete(object, deletedFinalStateUnknown));
		}

		private void whileActive(T object, Runnable action) {
			if (Controller.this.keys.contains(ResourceInformer.key(object))) {
				Controller.this.activation.whileActive(action);
			}
		}

	}

}
