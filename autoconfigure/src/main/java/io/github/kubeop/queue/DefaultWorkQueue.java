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

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import io.github.kubeop.queue.WaitingItems.Node;

/**
 * client-go's work queue ({@code workqueue.Typed}) with controller-runtime's priorities:
 * every item the queue knows has one node that says whether it needs processing (dirty),
 * whether a worker processes it, and where it waits. An item waits at most once; an item
 * added while processing is only marked dirty and waits again when it is done. A worker
 * takes the waiting item of the highest {@link Priority} first; adding an item that waits
 * already raises its priority, never lowers it. With lanes (fairness), the lanes that
 * have items of the highest priority take turns.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public class DefaultWorkQueue<K> implements WorkQueue<K> {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final WaitingItems<K> queue;

	/**
	 * Every item the queue knows: waiting, being processed, or both; an item is forgotten
	 * when it is done with nothing more to do. One lookup per add and per done, none per
	 * take.
	 */
	private final KnownItems<K> items = new KnownItems<>();

	/**
	 * The items being processed, linked through their nodes, first taken first.
	 */
	private Node<K> firstProcessing;

	private int processingCount;

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
	 * queue's lock held when the queue starts to know an item (an add of an item neither
	 * waiting nor processed), so it must not call back into the queue nor wait on
	 * anything that holds the queue's lock (reading an informer's cache is fine); the
	 * lane found is kept while the item waits or is processed
	 */
	public DefaultWorkQueue(String name, QueueMetrics metrics, Ticker ticker, Function<? super K, String> lanes) {
		this.queue = new WaitingItems<>(lanes);
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
			Node<K> node = this.items.get(item);
			if (node == null) {
				node = this.queue.node(item, priority);
				this.items.add(node);
				node.dirty = true;
				if (this.timed) {
					this.metrics.added(priority);
					node.addedAt = this.ticker.nanoTime();
				}
				this.queue.push(node);
				this.changed.signal();
			}
			else if (node.dirty) {
				if (priority > node.priority) {
					raise(node, priority);
				}
			}
			else {
				// processed, and added again: it waits again when it is done
				node.dirty = true;
				node.priority = priority;
				if (this.timed) {
					this.metrics.added(priority);
					node.addedAt = this.ticker.nanoTime();
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void raise(Node<K> node, int to) {
		if (this.timed) {
			this.metrics.raised(node.priority, to);
		}
		if (node.processing) {
			node.priority = to;
		}
		else {
			this.queue.raise(node, to);
		}
	}

	@Override
	public K get() throws InterruptedException {
		this.lock.lock();
		try {
			while (this.queue.size() == 0 && !this.shuttingDown) {
				this.changed.await();
			}
			Node<K> node = this.queue.poll();
			if (node == null) {
				return null;
			}
			node.dirty = false;
			node.processing = true;
			node.takenPriority = node.priority;
			if (this.timed) {
				long now = this.ticker.nanoTime();
				this.metrics.taken(now - node.addedAt, node.priority);
				node.started = now;
			}
			startProcessing(node);
			return node.item;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void done(K item) {
		this.lock.lock();
		try {
			// the item taken last is the one done next with one worker (the default): no
			// lookup for it
			Node<K> node = this.firstProcessing;
			if (node == null || node.item != item) {
				node = this.items.get(item);
			}
			if (node != null && node.processing) {
				stopProcessing(node);
				if (this.timed) {
					this.metrics.done(this.ticker.nanoTime() - node.started);
				}
				if (node.dirty) {
					this.queue.push(node);
					this.changed.signal();
				}
				else {
					this.items.remove(node);
					this.queue.release(node);
				}
			}
			if (this.processingCount == 0) {
				// a drain waits for this
				this.changed.signalAll();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void startProcessing(Node<K> node) {
		node.processing = true;
		Node<K> first = this.firstProcessing;
		if (first != null) {
			first.previous = node;
			node.next = first;
		}
		this.firstProcessing = node;
		this.processingCount++;
	}

	private void stopProcessing(Node<K> node) {
		node.processing = false;
		Node<K> previous = node.previous;
		Node<K> next = node.next;
		if (previous == null) {
			this.firstProcessing = next;
		}
		else {
			previous.next = next;
		}
		if (next != null) {
			next.previous = previous;
		}
		node.previous = null;
		node.next = null;
		this.processingCount--;
	}

	@Override
	public int priorityOf(K item) {
		this.lock.lock();
		try {
			Node<K> node = this.items.get(item);
			return (node != null && node.processing) ? node.takenPriority : Priority.NORMAL;
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
			while (this.processingCount > 0) {
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
			long sum = 0;
			for (Node<K> node = this.firstProcessing; node != null; node = node.next) {
				sum += now - node.started;
			}
			return sum;
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
			long longest = 0;
			for (Node<K> node = this.firstProcessing; node != null; node = node.next) {
				longest = Math.max(longest, now - node.started);
			}
			return longest;
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
