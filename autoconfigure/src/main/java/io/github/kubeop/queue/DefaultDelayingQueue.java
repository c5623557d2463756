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

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * client-go's delaying queue: items added with a delay wait in a priority queue ordered
 * by the time they are due, watched by one thread that adds them when due. An item
 * waiting already keeps the earlier of its two due times. There is no limit on the number
 * of waiting items (the official Java client's version drops them past 1,000).
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public class DefaultDelayingQueue<K> extends DefaultWorkQueue<K> implements DelayingQueue<K> {

	private final ReentrantLock waitingLock = new ReentrantLock();

	private final Condition waitingChanged = this.waitingLock.newCondition();

	private final PriorityQueue<Waiting<K>> waiting = new PriorityQueue<>();

	private final Map<K, Waiting<K>> waitingByItem = new HashMap<>();

	private final Thread waitingLoop;

	private long sequence;

	private volatile boolean stopped;

	/**
	 * Creates a queue.
	 * @param name the queue name, for threads and metrics
	 * @param metrics told what the queue does
	 * @param ticker the time source
	 */
	public DefaultDelayingQueue(String name, QueueMetrics metrics, Ticker ticker) {
		this(name, metrics, ticker, null);
	}

	/**
	 * Creates a queue whose items take turns by lane.
	 * @param name the queue name, for threads and metrics
	 * @param metrics told what the queue does
	 * @param ticker the time source
	 * @param lanes the lane of an item, or {@code null} for one lane
	 * @see DefaultWorkQueue#DefaultWorkQueue(String, QueueMetrics, Ticker, Function)
	 */
	public DefaultDelayingQueue(String name, QueueMetrics metrics, Ticker ticker, Function<? super K, String> lanes) {
		super(name, metrics, ticker, lanes);
		this.waitingLoop = new Thread(this::waitingLoop, "kubeop-queue-" + name + "-delay");
		this.waitingLoop.setDaemon(true);
		this.waitingLoop.start();
	}

	/**
	 * Creates a queue without metrics.
	 * @param name the queue name
	 */
	public DefaultDelayingQueue(String name) {
		this(name, QueueMetrics.NOOP, Ticker.system());
	}

	@Override
	public void addAfter(K item, Duration delay) {
		addAfter(item, delay, Priority.NORMAL);
	}

	@Override
	public void addAfter(K item, Duration delay, int priority) {
		if (isShuttingDown()) {
			return;
		}
		if (delay.isZero() || delay.isNegative()) {
			add(item, priority);
			return;
		}
		long due = ticker().nanoTime() + delay.toNanos();
		this.waitingLock.lock();
		try {
			Waiting<K> existing = this.waitingByItem.get(item);
			if (existing != null) {
				if (due - existing.due >= 0 && priority <= existing.priority) {
					return;
				}
				this.waiting.remove(existing);
				// the earlier due time and the higher priority of the two
				due = (due - existing.due >= 0) ? existing.due : due;
				priority = Math.max(priority, existing.priority);
			}
			Waiting<K> entry = new Waiting<>(item, due, priority, this.sequence++);
			this.waiting.add(entry);
			this.waitingByItem.put(item, entry);
			this.waitingChanged.signal();
		}
		finally {
			this.waitingLock.unlock();
		}
	}

	/**
	 * Returns how many items wait for their delay.
	 * @return the number of delayed items
	 */
	public int delayedLength() {
		this.waitingLock.lock();
		try {
			return this.waiting.size();
		}
		finally {
			this.waitingLock.unlock();
		}
	}

	@Override
	public void shutDown() {
		stopWaitingLoop();
		super.shutDown();
	}

	@Override
	public void shutDownWithDrain() throws InterruptedException {
		stopWaitingLoop();
		super.shutDownWithDrain();
	}

	private void stopWaitingLoop() {
		this.waitingLock.lock();
		try {
			this.stopped = true;
			this.waitingChanged.signalAll();
		}
		finally {
			this.waitingLock.unlock();
		}
	}

	private void waitingLoop() {
		this.waitingLock.lock();
		try {
			while (!this.stopped) {
				Waiting<K> next = this.waiting.peek();
				if (next == null) {
					this.waitingChanged.await();
					continue;
				}
				long wait = next.due - ticker().nanoTime();
				if (wait > 0) {
					this.waitingChanged.await(Math.min(wait, TimeUnit.SECONDS.toNanos(10)), TimeUnit.NANOSECONDS);
					continue;
				}
				this.waiting.poll();
				this.waitingByItem.remove(next.item);
				add(next.item, next.priority);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.waitingLock.unlock();
		}
	}

	private record Waiting<K>(K item, long due, int priority, long sequence) implements Comparable<Waiting<K>> {

		@Override
		public int compareTo(Waiting<K> other) {
			int byDue = Long.compare(this.due - other.due, 0);
			return (byDue != 0) ? byDue : Long.compare(this.sequence, other.sequence);
		}

	}

}
