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

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * client-go's work queue ({@code workqueue.Typed}): a FIFO of waiting items, a dirty set
 * of items that need processing, and a processing set. An item is in the FIFO at most
 * once; an item added while processing is only marked dirty and goes back into the FIFO
 * when it is done.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public class DefaultWorkQueue<K> implements WorkQueue<K> {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final ArrayDeque<K> queue = new ArrayDeque<>();

	private final Set<K> dirty = new HashSet<>();

	private final Map<K, Long> processing = new HashMap<>();

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
		this.lock.lock();
		try {
			if (this.shuttingDown || !this.dirty.add(item)) {
				return;
			}
			if (this.timed) {
				this.metrics.added();
				this.addedAt.putIfAbsent(item, this.ticker.nanoTime());
			}
			if (this.processing.containsKey(item)) {
				return;
			}
			this.queue.addLast(item);
			this.changed.signal();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public K get() throws InterruptedException {
		this.lock.lock();
		try {
			while (this.queue.isEmpty() && !this.shuttingDown) {
				this.changed.await();
			}
			if (this.queue.isEmpty()) {
				return null;
			}
			K item = this.queue.pollFirst();
			long now = 0;
			if (this.timed) {
				now = this.ticker.nanoTime();
				Long added = this.addedAt.remove(item);
				this.metrics.taken((added != null) ? now - added : 0);
			}
			this.processing.put(item, now);
			this.dirty.remove(item);
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
			Long started = this.processing.remove(item);
			if (started != null && this.timed) {
				this.metrics.done(this.ticker.nanoTime() - started);
			}
			if (this.dirty.contains(item)) {
				this.queue.addLast(item);
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
			return this.processing.values().stream().mapToLong((started) -> now - started).sum();
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
			return this.processing.values().stream().mapToLong((started) -> now - started).max().orElse(0);
		}
		finally {
			this.lock.unlock();
		}
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
