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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

import io.github.kubeop.informer.DeepCopier;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.queue.RateLimitingQueue;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.ApiException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Runs one {@link HandlerEndpoint}: informer callbacks only filter and put keys into a
 * rate-limited work queue; workers take one key at a time, compare the cached object with
 * the state last delivered for that key, and call {@code @OnAdd}, {@code @OnUpdate} or
 * {@code @OnDelete}. A key is never handled by two workers at once, changes between two
 * calls coalesce, failures are retried with the queue's back-off, and a
 * {@link TerminalException} is not retried. A handler with a cleanup method adds its
 * finalizer before its other calls, calls the cleanup for objects being deleted that hold
 * the finalizer, and removes the finalizer once the cleanup has returned (see
 * {@link io.github.kubeop.annotation.Cleanup}).
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
public final class Controller<T extends KubernetesObject> {

	private static final Log logger = LogFactory.getLog(Controller.class);

	/**
	 * How long the next call for a key waits at most for the informers to show the writes
	 * of its earlier calls; a write whose object left the informer's view, and was not
	 * followed by another change, is only given up on after this.
	 */
	static final Duration UNSEEN_WRITES_BOUND = Duration.ofSeconds(10);

	private static final Duration UNSEEN_WRITES_RECHECK = Duration.ofMillis(100);

	private final HandlerEndpoint endpoint;

	private final ResourceInformer<T> informer;

	private final RateLimitingQueue<String> queue;

	private final int workerCount;

	private final HandlerObserver observer;

	private final Predicate<T> filter;

	private final boolean handlesDeletes;

	private final Map<String, T> delivered = new ConcurrentHashMap<>();

	private final Map<String, FinalState<T>> finalStates = new ConcurrentHashMap<>();

	private final Map<String, Set<Trigger>> triggers = new ConcurrentHashMap<>();

	private final Map<String, HandlerMethod.Kind> requeues = new ConcurrentHashMap<>();

	/**
	 * Writes of the last calls per key that an informer has not shown yet: the next call
	 * for the key waits for them, so that it never reads an older state of what it wrote.
	 */
	private final Map<String, UnseenWrites> unseenWrites = new ConcurrentHashMap<>();

	/**
	 * The finalizer of the handler's cleanup method, or {@code null} without one.
	 */
	private final Finalizers<T> finalizers;

	/**
	 * The UID of the object whose finalizer this handler removed, by key: the API server
	 * adds no finalizer to an object being deleted, so a cached state of that object that
	 * still shows it is older than the removal, not a reason to clean up again.
	 */
	private final Map<String, String> cleanedUp = new ConcurrentHashMap<>();

	private final ResourceEventHandler<T> events;

	private final Set<Thread> idle = ConcurrentHashMap.newKeySet();

	private final Set<Thread> alive = ConcurrentHashMap.newKeySet();

	private final AtomicLong workerFailures = new AtomicLong();

	private final ReadWriteLock activation = new ReentrantReadWriteLock();

	private volatile List<Thread> workers = List.of();

	/**
	 * The keys this replica may handle: all of them, unless sharding gives it a part.
	 */
	private volatile Predicate<String> keys = (key) -> true;

	/**
	 * The keys with a call running, and the worker running it: a shard gives a key away
	 * only once its call has ended.
	 */
	private final Map<String, Thread> calling = new ConcurrentHashMap<>();

	private final Object callEnded = new Object();

	private volatile boolean running;

	private volatile boolean active;

	/**
	 * Changes on every start and stop: a worker runs only while the epoch it was started
	 * in lasts, so a worker left behind by a stop never takes another key.
	 */
	private volatile long epoch;

	Controller(HandlerEndpoint endpoint, ResourceInformer<T> informer, RateLimitingQueue<String> queue, int workerCount,
			HandlerObserver observer) {
		this(endpoint, informer, queue, workerCount, observer, null);
	}

	Controller(HandlerEndpoint endpoint, ResourceInformer<T> informer, RateLimitingQueue<String> queue, int workerCount,
			HandlerObserver observer, Finalizers<T> finalizers) {
		this.endpoint = endpoint;
		this.finalizers = finalizers;
		this.informer = informer;
		this.queue = queue;
		this.workerCount = workerCount;
		this.observer = observer;
		this.filter = filter(endpoint, informer);
		this.handlesDeletes = !endpoint.methods(HandlerMethod.Kind.DELETE).isEmpty();
		this.events = new EventAdapter();
		informer.addEventHandler(new WhileActive(this.events));
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
		whileActive(() -> {
			if (!this.keys.test(key)) {
				return;
			}
			this.triggers.computeIfAbsent(key, (k) -> ConcurrentHashMap.newKeySet()).add(trigger);
			this.queue.add(key);
		});
	}

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
		long epoch = ++this.epoch;
		activate();
		List<Thread> started = new ArrayList<>();
		for (int i = 0; i < this.workerCount; i++) {
			Thread worker = new Thread(() -> work(epoch), "kubeop-handler-" + name() + "-" + (i + 1));
			worker.setDaemon(true);
			started.add(worker);
		}
		this.workers = List.copyOf(started);
		this.alive.addAll(started);
		started.forEach(Thread::start);
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
		this.epoch++;
		deactivate();
		// every live worker, those a graceful stop gave up on included
		for (Thread worker : List.copyOf(this.alive)) {
			if (interruptCalls || this.idle.contains(worker)) {
				worker.interrupt();
			}
		}
		this.workers = List.of();
	}

	/**
	 * Waits for the workers told to stop, then drops every key's state.
	 * @param timeout how long to wait
	 * @return whether every worker ended in time
	 */
	synchronized boolean awaitStopped(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean stopped = true;
		for (Thread worker : List.copyOf(this.alive)) {
			stopped &= join(worker, deadline);
		}
		if (!stopped) {
			logger.warn("Handler " + name() + " has calls still running after its workers were stopped; "
					+ "their workers end when the calls return");
		}
		reset();
		return stopped;
	}

	/**
	 * Returns how many workers run: the configured count while the workers are started,
	 * fewer if some ended unexpectedly.
	 * @return the number of live workers of the current start
	 */
	public int liveWorkers() {
		return (int) this.workers.stream().filter(Thread::isAlive).count();
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

	private void work(long epoch) {
		Thread self = Thread.currentThread();
		try {
			while (true) {
				String key;
				this.idle.add(self);
				try {
					// checked after joining the idle set: a stop either interrupts this
					// worker or is seen here
					if (this.epoch != epoch) {
						return;
					}
					key = this.queue.get();
				}
				catch (InterruptedException ex) {
					continue;
				}
				finally {
					this.idle.remove(self);
				}
				// an interrupt meant for the idle worker must not reach the handler
				Thread.interrupted();
				if (key == null) {
					return;
				}
				if (this.epoch != epoch) {
					// taken after a stop: give it back untouched
					this.queue.add(key);
					this.queue.done(key);
					return;
				}
				handle(key, epoch);
			}
		}
		finally {
			this.alive.remove(self);
		}
	}

	private void handle(String key, long epoch) {
		// registered before the gate is read: a shard that narrows the gate and then
		// finds no call for a key cannot miss one about to start
		this.calling.put(key, Thread.currentThread());
		try {
			if (!this.keys.test(key)) {
				// queued before the key moved to another replica: no longer this one's
				drop(key);
				this.queue.forget(key);
				return;
			}
			this.observer.workerStarted(name());
			try {
				process(key, epoch);
			}
			finally {
				this.observer.workerFinished(name());
				if (!this.keys.test(key)) {
					// the key moved away while its call ran: nothing of it stays here
					drop(key);
				}
			}
		}
		catch (Throwable ex) {
			// nothing may end a worker: with one worker the handler would stop for good
			this.workerFailures.incrementAndGet();
			logger.error("Handler " + name() + " failed for " + key + " outside its handler call; retrying", ex);
			this.queue.addRateLimited(key);
		}
		finally {
			this.calling.remove(key);
			synchronized (this.callEnded) {
				this.callEnded.notifyAll();
			}
			this.queue.done(key);
		}
	}

	private void process(String key, long epoch) {
		Set<Trigger> triggers = takeTriggers(key);
		// read once: a delete arriving while the handler runs replaces it, and survives
		FinalState<T> finalState = this.finalStates.get(key);
		T cached = this.informer.indexer().getByKey(key);
		T current = (cached != null && this.filter.test(cached)) ? cached : null;
		T last = this.delivered.get(key);
		if (last != null && finalState == null && this.handlesDeletes
				&& (cached == null || !Objects.equals(uid(cached), uid(last)))) {
			// the informer took the object out of its cache, and the delete it tells of
			// that, with the final state, is still on its way to this handler: it queues
			// the key again
			restoreTriggers(key, triggers);
			return;
		}
		if (last != null && current != null && !Objects.equals(uid(last), uid(current))) {
			// deleted and created again under one name while the key waited: the old
			// object's delete and the new one's add, never an update across two objects
			if (!run(key, deleteCall(last, finalState, cached), null, finalState, triggers, epoch)) {
				return;
			}
			last = null;
			finalState = null;
		}
		if (current != null && !writesSeen(key)) {
			// the informers are behind this key's own writes: called now, the handler
			// would read older states of what it wrote. The informer's change of the
			// written object queues the key again; the delay is the fallback.
			restoreTriggers(key, triggers);
			this.queue.addAfter(key, UNSEEN_WRITES_RECHECK);
			return;
		}
		Call<T> call = decide(key, cached, current, last, finalState, triggers);
		if (call == null) {
			remember(key, current, finalState);
			this.queue.forget(key);
			return;
		}
		run(key, call, current, finalState, triggers, epoch);
	}

	/**
	 * Makes one call and settles the key by its outcome.
	 * @param key the key
	 * @param call the call
	 * @param current the state to remember as delivered, {@code null} for a delete
	 * @param finalState the final state this run read, consumed unless the call fails
	 * @param triggers the triggers this run took, restored if the call fails
	 * @return {@code false} if the call failed and the key was put back for a retry
	 */
	private boolean run(String key, Call<T> planned, T current, FinalState<T> finalState, Set<Trigger> triggers,
			long epoch) {
		if (planned.methods.isEmpty()) {
			// no method for this change: only the bookkeeping, and no reconcile to count
			remember(key, current, finalState);
			this.queue.forget(key);
			return true;
		}
		Call<T> call = planned.withCopies();
		HandlerContext context = new HandlerContext(key, call.trigger, this.queue.numRequeues(key) + 1, name(),
				call.finalStateUnknown);
		long start = System.nanoTime();
		Duration requeueAfter;
		HandlerCall handlerCall = HandlerCall.begin(name(), key, call.newObject, this.informer.resource());
		// the state delivered: the object as a finalizer write returned it, if there was
		// one
		AtomicReference<T> delivered = new AtomicReference<>(current);
		try {
			requeueAfter = invoke(call, context, delivered);
		}
		catch (Finalizers.ConflictException ex) {
			// the object changed since the cache showed it: handled again once the cache
			// has caught up, rate-limited but not counted as a failure
			settle(epoch, () -> {
				restoreTriggers(key, triggers);
				this.queue.addRateLimited(key);
			});
			this.observer.handled(name(), HandlerObserver.Outcome.REQUEUE, System.nanoTime() - start);
			return false;
		}
		catch (TerminalException | HandlerMethod.ProgrammingError | ClassCastException ex) {
			logger.error("Handler " + name() + " failed for " + key + " (" + call.trigger
					+ ") and will not retry until the object changes", ex);
			settle(epoch, () -> {
				this.requeues.remove(key);
				remember(key, delivered.get(), finalState);
				this.queue.forget(key);
			});
			this.observer.handled(name(), HandlerObserver.Outcome.TERMINAL_ERROR, System.nanoTime() - start);
			return true;
		}
		catch (Exception ex) {
			if (isConflict(ex)) {
				// a write lost an optimistic-concurrency race: routine, not a failure
				logger.debug("Handler " + name() + " met a write conflict for " + key + "; calling it again", ex);
				settle(epoch, () -> {
					restoreTriggers(key, triggers);
					this.queue.addRateLimited(key);
				});
				this.observer.handled(name(), HandlerObserver.Outcome.REQUEUE, System.nanoTime() - start);
				return false;
			}
			if (context.attempt() == 1) {
				logger.warn("Handler " + name() + " failed for " + key + " (" + call.trigger + "), retrying: " + ex,
						ex);
			}
			else if (logger.isDebugEnabled()) {
				logger.debug("Handler " + name() + " failed again for " + key + " (attempt " + context.attempt() + ")",
						ex);
			}
			settle(epoch, () -> {
				restoreTriggers(key, triggers);
				this.queue.addRateLimited(key);
			});
			this.observer.handled(name(), HandlerObserver.Outcome.ERROR, System.nanoTime() - start);
			return false;
		}
		catch (Throwable ex) {
			// an Error from a handler registered in code: the worker retries the key,
			// which
			// must still know why it was queued
			settle(epoch, () -> restoreTriggers(key, triggers));
			throw ex;
		}
		finally {
			handlerCall.end();
			rememberWrites(key, handlerCall);
		}
		HandlerObserver.Outcome outcome = (requeueAfter == null || requeueAfter.isNegative() || current == null)
				? HandlerObserver.Outcome.SUCCESS
				: requeueAfter.isZero() ? HandlerObserver.Outcome.REQUEUE : HandlerObserver.Outcome.REQUEUE_AFTER;
		settle(epoch, () -> {
			// the call answered any earlier request to be called again; its own result
			// may ask anew. A failed call keeps the request for its retry.
			this.requeues.remove(key);
			if (call.kind == HandlerMethod.Kind.CLEANUP && delivered.get() != current) {
				this.cleanedUp.put(key, uid(current));
			}
			remember(key, delivered.get(), finalState);
			switch (outcome) {
				case REQUEUE -> {
					// as controller-runtime's Requeue: rate-limited, not forgotten first,
					// so
					// that a handler asking again and again backs off instead of spinning
					this.requeues.put(key, call.kind);
					this.queue.addRateLimited(key);
				}
				case REQUEUE_AFTER -> {
					this.queue.forget(key);
					this.requeues.put(key, call.kind);
					this.queue.addAfter(key, requeueAfter);
				}
				default -> this.queue.forget(key);
			}
		});
		this.observer.handled(name(), outcome, System.nanoTime() - start);
		return true;
	}

	/**
	 * Calls the methods, with the finalizer writes of a handler that has a cleanup
	 * method: before any other call the finalizer is added if missing, and the methods
	 * get the object as the API server returned it; after a cleanup call that asked for
	 * nothing more, the finalizer is removed.
	 * @param delivered holds the object to call with, and takes the object a finalizer
	 * write returned
	 */
	private Duration invoke(Call<T> call, HandlerContext context, AtomicReference<T> delivered) throws Exception {
		T object = delivered.get();
		if (this.finalizers == null || object == null || call.kind == HandlerMethod.Kind.DELETE) {
			return call.invoke(context);
		}
		if (call.kind == HandlerMethod.Kind.CLEANUP) {
			Duration requeueAfter = call.invoke(context);
			if (requeueAfter == null || requeueAfter.isNegative()) {
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

	/**
	 * Settles a key after its call, unless the workers were stopped meanwhile: a call
	 * that outlived its workers (leadership lost, a call that ignored the interrupt) must
	 * not write into the state of a later start, which handles every cached key anew.
	 */
	private void settle(long epoch, Runnable bookkeeping) {
		Lock lock = this.activation.readLock();
		lock.lock();
		try {
			if (this.epoch == epoch) {
				bookkeeping.run();
			}
		}
		finally {
			lock.unlock();
		}
	}

	private Call<T> decide(String key, T cached, T current, T last, FinalState<T> finalState, Set<Trigger> triggers) {
		if (current == null) {
			return (last != null) ? deleteCall(last, finalState, cached) : null;
		}
		if (this.finalizers != null && Finalizers.isBeingDeleted(current)) {
			return cleanupCall(key, current);
		}
		if (last == null) {
			return new Call<>(HandlerMethod.Kind.ADD, Trigger.ADDED, null, current, false,
					this.endpoint.methods(HandlerMethod.Kind.ADD));
		}
		List<HandlerMethod> updates = this.endpoint.methods(HandlerMethod.Kind.UPDATE);
		boolean changed = !Objects.equals(resourceVersion(last), resourceVersion(current));
		if (changed) {
			boolean generationChanged = !Objects.equals(last.getMetadata().getGeneration(),
					current.getMetadata().getGeneration());
			List<HandlerMethod> selected = updates.stream()
				.filter((method) -> !method.generationChangedOnly() || generationChanged)
				.toList();
			if (!selected.isEmpty()) {
				return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.CHANGED, last, current, false, selected);
			}
		}
		HandlerMethod.Kind requeued = this.requeues.get(key);
		if (requeued != null) {
			return new Call<>(requeued, Trigger.REQUEUE, (requeued == HandlerMethod.Kind.UPDATE) ? last : null, current,
					false, this.endpoint.methods(requeued));
		}
		if (triggers.contains(Trigger.OWNER)) {
			return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.OWNER, last, current, false, updates);
		}
		if (triggers.contains(Trigger.RESYNC) && !changed) {
			return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.RESYNC, current, current, false,
					updates.stream().filter(HandlerMethod::wantsResync).toList());
		}
		return null;
	}

	/**
	 * The call for an object being deleted, for a handler with a cleanup method: the
	 * cleanup while the object holds the finalizer, else none (neither a cleanup nor a
	 * reconcile: the object is on its way out).
	 */
	private Call<T> cleanupCall(String key, T current) {
		if (!this.finalizers.isHeldBy(current) || uid(current).equals(this.cleanedUp.get(key))) {
			return null;
		}
		return new Call<>(HandlerMethod.Kind.CLEANUP, Trigger.DELETING, null, current, false,
				this.endpoint.methods(HandlerMethod.Kind.CLEANUP));
	}

	/**
	 * The delete of the object last delivered, for the handler: with the final state the
	 * informer reported for that object, else with the state last delivered. The final
	 * state is unknown when the informer says so (a delete inferred on a relist), or when
	 * the object is gone and no delete of it was reported (its delete and a re-create
	 * coalesced into one relisted update). An object that is still cached has left the
	 * handler's filters: what it was told last is then all there is to tell.
	 */
	private Call<T> deleteCall(T last, FinalState<T> finalState, T cached) {
		boolean reported = finalState != null && Objects.equals(uid(finalState.object()), uid(last));
		T object = reported ? finalState.object() : last;
		boolean gone = cached == null || !Objects.equals(uid(cached), uid(last));
		boolean finalStateUnknown = reported ? finalState.unknown() : gone;
		return new Call<>(HandlerMethod.Kind.DELETE, Trigger.DELETED, null, object, finalStateUnknown,
				this.endpoint.methods(HandlerMethod.Kind.DELETE));
	}

	private void rememberWrites(String key, HandlerCall call) {
		if (!call.writes().isEmpty()) {
			this.unseenWrites.merge(key, new UnseenWrites(List.copyOf(call.writes()), System.nanoTime()),
					(earlier, later) -> new UnseenWrites(HandlerCall.Write.merge(earlier.writes(), later.writes()),
							later.since()));
		}
	}

	/**
	 * Whether the informers show every write of the key's earlier calls, or the bound of
	 * waiting for them has passed.
	 */
	private boolean writesSeen(String key) {
		UnseenWrites unseen = this.unseenWrites.get(key);
		if (unseen == null) {
			return true;
		}
		boolean seen = unseen.writes().stream().allMatch(HandlerCall.Write::seen);
		if (!seen && System.nanoTime() - unseen.since() < UNSEEN_WRITES_BOUND.toNanos()) {
			return false;
		}
		if (!seen) {
			logger.debug("Handler " + name() + " calls " + key + " although an informer has not shown its writes after "
					+ UNSEEN_WRITES_BOUND.toSeconds() + "s");
		}
		this.unseenWrites.remove(key, unseen);
		return true;
	}

	private static boolean isConflict(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ApiException api && api.getCode() == 409) {
				return true;
			}
		}
		return false;
	}

	private void remember(String key, T current, FinalState<T> consumed) {
		if (current != null) {
			this.delivered.put(key, current);
		}
		else {
			this.delivered.remove(key);
			this.requeues.remove(key);
			this.cleanedUp.remove(key);
		}
		if (consumed != null) {
			// only the final state this run read: one that arrived during the call is
			// newer, still to be delivered
			this.finalStates.computeIfPresent(key, (k, stored) -> (stored == consumed) ? null : stored);
		}
	}

	private Set<Trigger> takeTriggers(String key) {
		Set<Trigger> taken = this.triggers.remove(key);
		return (taken != null) ? taken : EnumSet.noneOf(Trigger.class);
	}

	private void restoreTriggers(String key, Set<Trigger> triggers) {
		if (!triggers.isEmpty()) {
			this.triggers.computeIfAbsent(key, (k) -> ConcurrentHashMap.newKeySet()).addAll(triggers);
		}
	}

	private static boolean join(Thread worker, long deadlineNanos) {
		try {
			long remaining = deadlineNanos - System.nanoTime();
			if (remaining > 0) {
				TimeUnit.NANOSECONDS.timedJoin(worker, remaining);
			}
			return !worker.isAlive();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static String describe(Exception ex) {
		// an ApiException's own text is empty; its status code is what says what went
		// wrong
		return (ex instanceof ApiException api) ? "HTTP " + api.getCode() + " from the API server" : ex.toString();
	}

	private static String uid(KubernetesObject object) {
		return object.getMetadata().getUid();
	}

	private static String resourceVersion(KubernetesObject object) {
		return object.getMetadata().getResourceVersion();
	}

	private static <T extends KubernetesObject> Predicate<T> filter(HandlerEndpoint endpoint,
			ResourceInformer<T> informer) {
		return HandlerFilter.of(endpoint, informer.resource());
	}

	/**
	 * Feeds the queue from the informer; runs on informer threads, so it only filters and
	 * enqueues.
	 */
	private final class EventAdapter implements ResourceEventHandler<T> {

		// a cleanup method needs the change that starts a delete, whatever else it has
		private final boolean handlesUpdates = !Controller.this.endpoint.methods(HandlerMethod.Kind.UPDATE).isEmpty()
				|| Controller.this.finalizers != null;

		@Override
		public void onAdd(T object) {
			if (Controller.this.filter.test(object)) {
				enqueue(ResourceInformer.key(object), Trigger.ADDED);
			}
		}

		@Override
		public void onUpdate(T oldObject, T newObject) {
			String key = ResourceInformer.key(newObject);
			// the old state matching counts too: an add still running has not reached
			// delivered yet, and its object leaving must still be handled as a delete
			boolean relevant = Controller.this.filter.test(newObject) || Controller.this.filter.test(oldObject)
					|| Controller.this.delivered.containsKey(key);
			if (!relevant) {
				return;
			}
			if (Objects.equals(resourceVersion(oldObject), resourceVersion(newObject))) {
				if (Controller.this.endpoint.wantsResync()) {
					enqueue(key, Trigger.RESYNC);
				}
				return;
			}
			if (callableFor(key, oldObject, newObject)) {
				enqueue(key, Trigger.CHANGED);
			}
		}

		/**
		 * Whether a change can lead to a call: a handler without {@code @OnUpdate} is
		 * called for a change only when it is an add or a delete for the handler (the
		 * object entered or left its filters, or was replaced by another object of the
		 * same name), so that its queue, and the reconciles counted, hold no change it
		 * has no method for.
		 */
		private boolean callableFor(String key, T oldObject, T newObject) {
			boolean matches = Controller.this.filter.test(newObject);
			return this.handlesUpdates || matches != Controller.this.filter.test(oldObject)
					|| matches != Controller.this.delivered.containsKey(key)
					|| !Objects.equals(uid(oldObject), uid(newObject));
		}

		@Override
		public void onDelete(T object, boolean deletedFinalStateUnknown) {
			String key = ResourceInformer.key(object);
			// a handler with @OnDelete is told of every delete, whatever its filters say
			// of
			// the final state: an add still running for the key is delivered only after
			// this, and a worker that finds the object gone waits for its final state
			if (Controller.this.handlesDeletes) {
				Controller.this.finalStates.merge(key, new FinalState<>(object, deletedFinalStateUnknown),
						this::finalStateOfTheDelivered);
				enqueue(key, Trigger.DELETED);
			}
			else if (Controller.this.delivered.containsKey(key) || Controller.this.filter.test(object)) {
				// queued only to forget what was delivered
				enqueue(key, Trigger.DELETED);
			}
		}

		/**
		 * Keeps the final state of the object last delivered when another object of the
		 * same name, never delivered, was created and deleted before a worker ran.
		 */
		private FinalState<T> finalStateOfTheDelivered(FinalState<T> recorded, FinalState<T> arriving) {
			T delivered = Controller.this.delivered.get(ResourceInformer.key(arriving.object()));
			return (delivered != null && Objects.equals(uid(recorded.object()), uid(delivered))) ? recorded : arriving;
		}

	}

	/**
	 * Lets informer events through only while the workers are started: a standby holds
	 * warm caches but nothing that grows with churn.
	 */
	private final class WhileActive implements ResourceEventHandler<T> {

		private final ResourceEventHandler<T> delegate;

		WhileActive(ResourceEventHandler<T> delegate) {
			this.delegate = delegate;
		}

		@Override
		public void onAdd(T object) {
			whileActive(object, () -> this.delegate.onAdd(object));
		}

		@Override
		public void onUpdate(T oldObject, T newObject) {
			whileActive(newObject, () -> this.delegate.onUpdate(oldObject, newObject));
		}

		@Override
		public void onDelete(T object, boolean deletedFinalStateUnknown) {
			whileActive(object, () -> this.delegate.onDelete(object, deletedFinalStateUnknown));
		}

		private void whileActive(T object, Runnable action) {
			// a key of another shard leaves no trace here, as on a standby
			if (Controller.this.keys.test(ResourceInformer.key(object))) {
				Controller.this.whileActive(action);
			}
		}

	}

	/**
	 * The state in which the informer last saw a deleted object.
	 *
	 * @param object the final state, or the last state cached if the delete was inferred
	 * @param unknown whether the delete was inferred on a relist rather than seen
	 */
	private record FinalState<T>(T object, boolean unknown) {

	}

	/**
	 * Writes of a key's calls not yet shown by the informers.
	 *
	 * @param writes the writes
	 * @param since when the last call that wrote ended, in {@link System#nanoTime()}
	 */
	private record UnseenWrites(List<HandlerCall.Write> writes, long since) {

	}

	private record Call<T>(HandlerMethod.Kind kind, Trigger trigger, T oldObject, T newObject,
			boolean finalStateUnknown, List<HandlerMethod> methods) {

		/**
		 * Returns the call with the handler's own copies of its objects: whatever the
		 * methods change in them reaches neither the cache nor the state remembered as
		 * delivered, which is the old object of a later update and what a retry starts
		 * from. The methods of one call share the copies, as steps of one reconcile.
		 */
		Call<T> withCopies() {
			return new Call<>(this.kind, this.trigger, DeepCopier.isolate(this.oldObject),
					DeepCopier.isolate(this.newObject), this.finalStateUnknown, this.methods);
		}

		/**
		 * Returns the call with another object, copied: the object as a finalizer write
		 * returned it is the state remembered as delivered.
		 */
		Call<T> withObject(T object) {
			return new Call<>(this.kind, this.trigger, this.oldObject, DeepCopier.isolate(object),
					this.finalStateUnknown, this.methods);
		}

		Duration invoke(HandlerContext context) throws Exception {
			Duration requeueAfter = null;
			for (HandlerMethod method : this.methods) {
				Duration asked = method.invoke(this.oldObject, this.newObject, context);
				if (asked != null && (requeueAfter == null || asked.compareTo(requeueAfter) < 0)) {
					requeueAfter = asked;
				}
			}
			return requeueAfter;
		}

	}

	private void whileActive(Runnable action) {
		Lock lock = this.activation.readLock();
		lock.lock();
		try {
			if (this.active) {
				action.run();
			}
		}
		finally {
			lock.unlock();
		}
	}

	private void activate() {
		Lock lock = this.activation.writeLock();
		lock.lock();
		try {
			reset();
			this.active = true;
		}
		finally {
			lock.unlock();
		}
		for (T object : this.informer.indexer().list()) {
			try {
				whileActive(() -> this.events.onAdd(object));
			}
			catch (RuntimeException ex) {
				// as the informer does with its own events: one object must not stop the
				// rest
				logger.error("Handler " + name() + " could not queue " + ResourceInformer.key(object), ex);
			}
		}
	}

	private void deactivate() {
		Lock lock = this.activation.writeLock();
		lock.lock();
		try {
			this.active = false;
		}
		finally {
			lock.unlock();
		}
	}

	/**
	 * Narrows the keys this replica handles, as sharding does when keys move to other
	 * replicas: keys outside are no longer queued and their state is dropped (they get no
	 * {@code @OnDelete} here: the objects still exist, another replica handles them).
	 * Calls already running for such keys go on; {@link #callsOutside(Predicate)} tells
	 * when they have ended.
	 * @param keys the keys this replica keeps
	 */
	public void narrowKeys(Predicate<String> keys) {
		this.keys = keys;
		for (Map<String, ?> state : List.of(this.delivered, this.finalStates, this.triggers, this.requeues,
				this.cleanedUp)) {
			state.keySet().removeIf((key) -> !keys.test(key));
		}
	}

	/**
	 * Widens the keys this replica handles, as sharding does when keys move to it: every
	 * cached object whose key it gains is handled as an add, as a new leader's warm-up
	 * does.
	 * @param keys the keys this replica handles from now on
	 * @return how many cached objects' keys were gained
	 */
	public int widenKeys(Predicate<String> keys) {
		Predicate<String> before = this.keys;
		this.keys = keys;
		int gained = 0;
		for (T object : this.informer.indexer().list()) {
			String key = ResourceInformer.key(object);
			if (!before.test(key) && keys.test(key)) {
				gained++;
				try {
					whileActive(() -> this.events.onAdd(object));
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
		return this.calling.keySet().stream().filter((key) -> !keys.test(key)).toList();
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
		long deadline = System.nanoTime() + timeout.toNanos();
		if (interrupt) {
			this.calling.forEach((key, worker) -> {
				if (!keys.test(key)) {
					worker.interrupt();
				}
			});
		}
		synchronized (this.callEnded) {
			while (!callsOutside(keys).isEmpty()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return false;
				}
				try {
					this.callEnded.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return false;
				}
			}
			return true;
		}
	}

	/**
	 * Returns whether this replica handles a key now.
	 * @param key the key
	 * @return whether the key is this replica's
	 */
	public boolean handlesKey(String key) {
		return this.keys.test(key);
	}

	private void drop(String key) {
		this.delivered.remove(key);
		this.finalStates.remove(key);
		this.triggers.remove(key);
		this.requeues.remove(key);
		this.unseenWrites.remove(key);
		this.cleanedUp.remove(key);
	}

	/**
	 * Returns how many per-key entries this controller holds: queued keys, and keys with
	 * a delivered state, a final state, triggers or a requeue. On a standby it stays at
	 * zero however much the cluster churns.
	 * @return the number of entries
	 */
	public int retainedKeys() {
		return this.queue.length() + this.delivered.size() + this.finalStates.size() + this.triggers.size()
				+ this.requeues.size() + this.unseenWrites.size() + this.cleanedUp.size();
	}

	/**
	 * Drops the state of every key, while no event is let through: a later start handles
	 * every cached key again.
	 */
	private void reset() {
		this.delivered.clear();
		this.finalStates.clear();
		this.triggers.clear();
		this.requeues.clear();
		this.unseenWrites.clear();
		this.cleanedUp.clear();
		if (this.alive.isEmpty()) {
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

}
