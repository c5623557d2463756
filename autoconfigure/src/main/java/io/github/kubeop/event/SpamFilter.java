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

package io.github.kubeop.event;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Limits the Events one reporter writes about one object, as client-go's
 * {@code EventSourceObjectSpamFilter} does: a token bucket per object, full at first
 * ({@code burst} Events), refilled by one token per {@code refill}; the buckets of the
 * least recently seen objects are forgotten past a bound. Used by one thread only.
 *
 * @author Kubeop authors
 */
final class SpamFilter {

	/**
	 * client-go's {@code maxLruCacheEntries}.
	 */
	static final int MAX_OBJECTS = 4096;

	private final int burst;

	private final long refillNanos;

	private final LongSupplier nanoTime;

	private final Map<Object, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<Object, Bucket> eldest) {
			return size() > MAX_OBJECTS;
		}

	};

	/**
	 * Creates a filter.
	 * @param burst how many Events an object may produce at once
	 * @param refill how long it takes to earn one more
	 * @param nanoTime the clock, in {@link System#nanoTime()} terms
	 */
	SpamFilter(int burst, Duration refill, LongSupplier nanoTime) {
		this.burst = burst;
		this.refillNanos = refill.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * Takes a token for an object if one is left.
	 * @param object the key of the reporter and object
	 * @return whether the Event may be written
	 */
	boolean tryAccept(Object object) {
		long now = this.nanoTime.getAsLong();
		Bucket bucket = this.buckets.computeIfAbsent(object, (key) -> new Bucket(this.burst, now));
		double earned = (double) (now - bucket.updated) / this.refillNanos;
		bucket.tokens = Math.min(this.burst, bucket.tokens + earned);
		bucket.updated = now;
		if (bucket.tokens < 1) {
			return false;
		}
		bucket.tokens--;
		return true;
	}

	private static final class Bucket {

		private double tokens;

		private long updated;

		private Bucket(double tokens, long updated) {
			this.tokens = tokens;
			this.updated = updated;
		}

	}

}
