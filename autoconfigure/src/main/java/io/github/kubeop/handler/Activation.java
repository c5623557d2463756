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

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Whether a {@link Controller}'s workers run: on the leader, or always without leader
 * election. Informer events reach the queue only while active, so a standby holds warm
 * caches but nothing that grows with churn. Every start and stop begins a new epoch: a
 * call records what it delivered only in the epoch it started in, so a call that outlived
 * its workers (leadership lost, a call that ignored the interrupt) cannot write into the
 * state of a later start, which handles every cached key anew.
 *
 * @author Kubeop authors
 */
final class Activation {

	private final ReadWriteLock lock = new ReentrantReadWriteLock();

	private volatile boolean active;

	private volatile long epoch;

	/**
	 * Begins a new epoch, on every start and stop of the workers.
	 * @return the new epoch
	 */
	long nextEpoch() {
		return ++this.epoch;
	}

	/**
	 * Returns the current epoch.
	 * @return the epoch
	 */
	long epoch() {
		return this.epoch;
	}

	/**
	 * Returns whether an epoch is still the current one.
	 * @param epoch the epoch
	 * @return whether no start or stop happened since it began
	 */
	boolean isCurrent(long epoch) {
		return this.epoch == epoch;
	}

	/**
	 * Runs an action only while active, and never during an activation or deactivation.
	 * @param action the action
	 */
	void whileActive(Runnable action) {
		Lock lock = this.lock.readLock();
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

	/**
	 * Runs a call's bookkeeping only if the epoch it started in still lasts.
	 * @param epoch the epoch the call started in
	 * @param bookkeeping the bookkeeping
	 */
	void inEpoch(long epoch, Runnable bookkeeping) {
		Lock lock = this.lock.readLock();
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

	/**
	 * Becomes active, after a reset that no event or bookkeeping can interleave with.
	 * @param reset drops the state of the previous activation
	 */
	void activate(Runnable reset) {
		Lock lock = this.lock.writeLock();
		lock.lock();
		try {
			reset.run();
			this.active = true;
		}
		finally {
			lock.unlock();
		}
	}

	/**
	 * Becomes inactive: no event passes from now on.
	 */
	void deactivate() {
		Lock lock = this.lock.writeLock();
		lock.lock();
		try {
			this.active = false;
		}
		finally {
			lock.unlock();
		}
	}

}
