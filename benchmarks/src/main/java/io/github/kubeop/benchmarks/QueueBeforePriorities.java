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

package io.github.kubeop.benchmarks;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.github.kubeop.queue.Ticker;

/**
 * The work queue as it was before priorities and fairness (Kubeop's
 * {@code DefaultWorkQueue} at commit {@code 48c0cca^}: a FIFO of waiting items, a dirty
 * set and a processing map), kept as the baseline that {@link WorkQueueBenchmark} and
 * {@link QueueCpuProbe} measure today's queue against in the same run. Its {@code add},
 * {@code get} and {@code done} are the old ones line for line; the metrics calls, never
 * made without metrics, are left out with the metrics.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
final class QueueBeforePriorities<K> {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final ArrayDeque<K> queue = new ArrayDeque<>();

	private final Set<K> dirty = new HashSet<>();

	private final Map<K, Long> processing = new HashMap<>();

	private final Map<K, Long> addedAt = new HashMap<>();

	private final Ticker ticker = Ticker.system();

	/**
	 * False, as in the old queue without metrics: the branches stay, so that the hot path
	 * is the old one.
	 */
	private final boolean timed;

	private boolean shuttingDown;

	QueueBeforePriorities() {
		this.timed = false;
	}

	void add(K item) {
		this.lock.lock();
		try {
			if (this.shuttingDown || !this.dirty.add(item)) {
				return;
			}
			if (this.timed) {
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

	K get() throws InterruptedException {
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
				this.addedAt.remove(item);
			}
			this.processing.put(item, now);
			this.dirty.remove(item);
			return item;
		}
		finally {
			this.lock.unlock();
		}
	}

	void done(K item) {
		this.lock.lock();
		try {
			this.processing.remove(item);
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

	void shutDown() {
		this.lock.lock();
		try {
			this.shuttingDown = true;
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

}
