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
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Read-after-write for one handler: the writes of a key's last calls that an informer has
 * not shown yet. The next call for the key waits for them, so that a handler never reads
 * an older state of what it wrote from a cache (the stale-cache conflicts of
 * controller-runtime #1464). The informer's change of a written object queues the key
 * again; a recheck after {@link #RECHECK} is the fallback, and a write not seen within
 * {@link #BOUND} is given up on.
 *
 * @author Kubeop authors
 * @see HandlerCall
 */
final class ReadAfterWriteGate {

	private static final Log logger = LogFactory.getLog(ReadAfterWriteGate.class);

	/**
	 * How long the next call for a key waits at most for the informers to show the writes
	 * of its earlier calls; a write whose object left the informer's view, and was not
	 * followed by another change, is only given up on after this.
	 */
	static final Duration BOUND = Duration.ofSeconds(10);

	/**
	 * How soon a key waiting for its writes is checked again, if no change of a written
	 * object queues it first.
	 */
	static final Duration RECHECK = Duration.ofMillis(100);

	private final String handler;

	private final Map<String, UnseenWrites> unseenWrites = new ConcurrentHashMap<>();

	ReadAfterWriteGate(String handler) {
		this.handler = handler;
	}

	/**
	 * Records the writes of a call that ended, for the key's next call to wait for.
	 * @param key the key
	 * @param call the call
	 */
	void wrote(String key, HandlerCall call) {
		if (!call.writes().isEmpty()) {
			this.unseenWrites.merge(key, new UnseenWrites(List.copyOf(call.writes()), System.nanoTime()),
					(earlier, later) -> new UnseenWrites(HandlerCall.Write.merge(earlier.writes(), later.writes()),
							later.since()));
		}
	}

	/**
	 * Whether the informers show every write of the key's earlier calls, or the bound of
	 * waiting for them has passed: the key may be handled.
	 * @param key the key
	 * @return whether the key's next call may run
	 */
	boolean writesSeen(String key) {
		UnseenWrites unseen = this.unseenWrites.get(key);
		if (unseen == null) {
			return true;
		}
		boolean seen = unseen.writes().stream().allMatch(HandlerCall.Write::seen);
		if (!seen && System.nanoTime() - unseen.since() < BOUND.toNanos()) {
			return false;
		}
		if (!seen) {
			logger.debug("Handler " + this.handler + " calls " + key
					+ " although an informer has not shown its writes after " + BOUND.toSeconds() + "s");
		}
		this.unseenWrites.remove(key, unseen);
		return true;
	}

	/**
	 * Drops the writes of a key.
	 * @param key the key
	 */
	void forget(String key) {
		this.unseenWrites.remove(key);
	}

	/**
	 * Drops the writes of every key the predicate rejects.
	 * @param keys the keys to keep
	 */
	void retainOnly(Predicate<String> keys) {
		this.unseenWrites.keySet().removeIf((key) -> !keys.test(key));
	}

	/**
	 * Drops the writes of every key.
	 */
	void clear() {
		this.unseenWrites.clear();
	}

	/**
	 * Returns how many keys have writes not shown yet.
	 * @return the number of keys
	 */
	int size() {
		return this.unseenWrites.size();
	}

	/**
	 * Writes of a key's calls not yet shown by the informers.
	 *
	 * @param writes the writes
	 * @param since when the last call that wrote ended, in {@link System#nanoTime()}
	 */
	private record UnseenWrites(List<HandlerCall.Write> writes, long since) {

	}

}
