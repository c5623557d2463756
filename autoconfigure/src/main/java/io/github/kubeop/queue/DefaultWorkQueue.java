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

package io.github.kubeop.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * client-go's work queue ({@code workqueue.Typed}) with controller-runtime's priorities:
 * the waiting items, a dirty set of items that need processing, and a processing set. An
 * item waits at most once; an item added while processing is only marked dirty and waits
 * again when it is done. A worker takes the waiting item of the highest {@link Priority}
 * first; adding an item that waits already raises its priority, never lowers it. With
 * lanes (fairness), the lanes that have items of the highest priority take turns.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public class DefaultWorkQueue<K> implements WorkQueue<K> {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final WaitingItems<K> queue;

	/**
	 * The items that need processing, waiting or added while processing, with their
	 * priorities.
	 */
	private final Map<K, Integer> dirty = new HashMap<>();

	private final Map<K, Processing> processing = new HashMap<>();

	/**
	 * The lane of an item, or {@code null} for one lane.
	 */
	private final Function<? super K, String> lanes;

	private final Map<K, Long> addedAt = new HashMap<>();

	private final String name;

	private final QueueMetrics metrics;

	private final Ticker ticker;

	/**
	 * Whether times are taken at all: without metrics, the hot path skips the clock and
	 * the bookkeeping of add times.
	 */
	private final boolean timed;

	private boolean shuttingDown;

	/**
	 * Creates a queue.
	 * @param name the queue name, for threads and metrics
	 * @param metrics told what the queue does
	 * @param ticker the time source
	 */
	public DefaultWorkQueue(String name, QueueMetrics metrics, Ticker ticker) {
		this(name, metrics, ticker, null);
	}

	/**
	 * Creates a queue whose items take turns by lane: fairness across namespaces, or
	 * across another partition of the items.
	 * @param name the queue name, for threads and metrics
	 * @param metrics told what the queue does
	 * @param ticker the time source
	 * @param lanes the lane of an item, or {@code null} for one lane; called with the
	 * queue's lock held when an item is placed, so it must not call back into the queue
	 * nor wait on anything that holds the queue's lock (reading an informer's cache is
	 * fine)
	 */
	public DefaultWorkQueue(String name, QueueMetrics metrics, Ticker ticker, Function<? super K, String> lanes) {
		this.queue = new WaitingItems<>(lanes != null);
		this.lanes = lanes;
		this.name = name;
		this.metrics = metrics;
		this.ticker = ticker;
		this.timed = metrics != QueueMetrics.NOOP;
	}

	/**
	 * Creates a queue without metrics.
	 * @param name the queue name
	 */
	public DefaultWorkQueue(String name) {
		this(name, QueueMetrics.NOOP, Ticker.system());
	}

	/**
	 * Returns the queue name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	@Override
	public void add(K item) {
		add(item, Priority.NORMAL);
	}

	@Override
	public void add(K item, int priority) {
		this.lock.lock();
		try {
			if (this.shuttingDown) {
				return;
			}
			Integer waiting = this.dirty.putIfAbsent(item, priority);
			if (waiting != null) {
				if (priority > waiting) {
					raise(item, waiting, priority);
				}
				return;
			}
			if (this.timed) {
				this.metrics.added(priority);
				this.addedAt.putIfAbsent(item, this.ticker.nanoTime());
			}
			if (this.processing.containsKey(item)) {
				return;
			}
			this.queue.push(item, priority, lane(item));
			this.changed.signal();
		}
		finally {
			this.lock.unlock();
		}
	}

	private String lane(K item) {
		if (this.lanes == null) {
			return null;
		}
		String lane = this.lanes.apply(item);
		return (lane != null) ? lane : "";
	}

	/**
	 * Whether an item waits at a priority now: a place of a raised item is skipped unless
	 * it waits at that place's priority again.
	 */
	private boolean waitsAt(K item, int priority) {
		Integer waiting = this.dirty.get(item);
		return waiting != null && waiting == priority && !this.processing.containsKey(item);
	}

	private void raise(K item, int from, int to) {
		this.dirty.put(item, to);
		if (this.timed) {
			this.metrics.raised(from, to);
		}
		if (!this.processing.containsKey(item)) {
			this.queue.raise(item, to, lane(item));
		}
	}

	@Override
	public K get() throws InterruptedException {
		this.lock.lock();
		try {
			while (this.queue.size() == 0 && !this.shuttingDown) {
				this.changed.await();
			}
			K item = this.queue.poll(this::waitsAt);
			if (item == null) {
				return null;
			}
			int priority = this.dirty.remove(item);
			long now = 0;
			if (this.timed) {
				now = this.ticker.nanoTime();
				Long added = this.addedAt.remove(item);
				this.metrics.taken((added != null) ? now - added : 0, priority);
			}
			this.processing.put(item, new Processing(now, priority));
			return item;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void done(K item) {
		this.lock.lock();
		try {
			Processing processed = this.processing.remove(item);
			if (processed != null && this.timed) {
				this.metrics.done(this.ticker.nanoTime() - processed.started);
			}
			Integer priority = this.dirty.get(item);
			if (priority != null) {
				this.queue.push(item, priority, lane(item));
				this.changed.signal();
			}
			else if (this.processing.isEmpty()) {
				this.changed.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public int priorityOf(K item) {
		this.lock.lock();
		try {
			Processing processed = this.processing.get(item);
			return (processed != null) ? processed.priority : Priority.NORMAL;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public int length() {
		this.lock.lock();
		try {
			return this.queue.size();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void shutDown() {
		this.lock.lock();
		try {
			this.shuttingDown = true;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		this.lock.lock();
		try {
			this.shuttingDown = true;
			this.changed.signalAll();
			while (!this.processing.isEmpty()) {
				this.changed.await();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean isShuttingDown() {
		this.lock.lock();
		try {
			return this.shuttingDown;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns how long the items being processed have been processed, added up
	 * (controller-runtime's {@code workqueue_unfinished_work_seconds}); zero for a queue
	 * without metrics.
	 * @return the unfinished work in nanoseconds
	 */
	public long unfinishedWorkNanos() {
		if (!this.timed) {
			return 0;
		}
		this.lock.lock();
		try {
			long now = this.ticker.nanoTime();
			return this.processing.values().stream().mapToLong((processed) -> now - processed.started).sum();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns how long the longest running item has been processed
	 * ({@code workqueue_longest_running_processor_seconds}).
	 * @return the longest processing time in nanoseconds
	 */
	public long longestRunningProcessorNanos() {
		if (!this.timed) {
			return 0;
		}
		this.lock.lock();
		try {
			long now = this.ticker.nanoTime();
			return this.processing.values().stream().mapToLong((processed) -> now - processed.started).max().orElse(0);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * An item being processed: since when, and the priority it was taken at.
	 */
	private record Processing(long started, int priority) {

	}

	/**
	 * Returns the metrics this queue reports to.
	 * @return the metrics
	 */
	protected QueueMetrics metrics() {
		return this.metrics;
	}

	/**
	 * Returns the time source.
	 * @return the ticker
	 */
	protected Ticker ticker() {
		return this.ticker;
	}

}
