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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-item exponential back-off: {@code base * 2^failures}, capped at {@code max}.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public final class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {

	private final Map<K, Integer> failures = new ConcurrentHashMap<>();

	private final Duration base;

	private final Duration max;

	/**
	 * Creates a limiter.
	 * @param base the first delay
	 * @param max the longest delay
	 */
	public ItemExponentialFailureRateLimiter(Duration base, Duration max) {
		this.base = base;
		this.max = max;
	}

	@Override
	public Duration when(K item) {
		int exponent = this.failures.merge(item, 1, Integer::sum) - 1;
		if (exponent >= 62) {
			return this.max;
		}
		double nanos = this.base.toNanos() * Math.pow(2, exponent);
		return (nanos >= this.max.toNanos()) ? this.max : Duration.ofNanos((long) nanos);
	}

	@Override
	public void forget(K item) {
		this.failures.remove(item);
	}

	@Override
	public int numRequeues(K item) {
		return this.failures.getOrDefault(item, 0);
	}

}
