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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The keys one replica handles, and the calls running for them: all keys, unless sharding
 * gives the replica a part. A key moves to another replica only once its call here has
 * ended, so no key is ever handled by two replicas at once.
 *
 * @author Kubeop authors
 */
final class HandledKeys {

	private volatile Predicate<String> keys = (key) -> true;

	/**
	 * The keys with a call running, and the worker running it.
	 */
	private final Map<String, Thread> calling = new ConcurrentHashMap<>();

	private final Object callEnded = new Object();

	/**
	 * Returns whether this replica handles a key now.
	 * @param key the key
	 * @return whether the key is this replica's
	 */
	boolean contains(String key) {
		return this.keys.test(key);
	}

	/**
	 * Returns the keys this replica handles now.
	 * @return the keys
	 */
	Predicate<String> keys() {
		return this.keys;
	}

	/**
	 * Sets the keys this replica handles.
	 * @param keys the keys
	 * @return the keys it handled before
	 */
	Predicate<String> set(Predicate<String> keys) {
		Predicate<String> before = this.keys;
		this.keys = keys;
		return before;
	}

	/**
	 * Records that the current thread starts a call for a key. Recorded before the keys
	 * are read: a shard that narrows the keys and then finds no call for a key cannot
	 * miss one about to start.
	 * @param key the key
	 */
	void callStarting(String key) {
		this.calling.put(key, Thread.currentThread());
	}

	/**
	 * Records that the call for a key ended.
	 * @param key the key
	 */
	void callEnded(String key) {
		this.calling.remove(key);
		synchronized (this.callEnded) {
			this.callEnded.notifyAll();
		}
	}

	/**
	 * Returns the keys outside the given ones that have a call running.
	 * @param keys the keys
	 * @return the keys of running calls that the predicate rejects
	 */
	List<String> callsOutside(Predicate<String> keys) {
		return this.calling.keySet().stream().filter((key) -> !keys.test(key)).toList();
	}

	/**
	 * Waits until no call runs for a key outside the given ones, interrupting such calls
	 * first if asked.
	 * @param keys the keys that may go on
	 * @param timeout how long to wait
	 * @param interrupt whether running calls outside are interrupted
	 * @return whether no such call runs any more
	 */
	boolean awaitCallsOutside(Predicate<String> keys, Duration timeout, boolean interrupt) {
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

}
