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
import java.util.List;

/**
 * Combines limiters: the longest delay wins.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public final class MaxOfRateLimiter<K> implements RateLimiter<K> {

	private final List<RateLimiter<K>> limiters;

	/**
	 * Creates a limiter.
	 * @param limiters the limiters to combine
	 */
	@SafeVarargs
	public MaxOfRateLimiter(RateLimiter<K>... limiters) {
		this.limiters = List.of(limiters);
	}

	@Override
	public Duration when(K item) {
		Duration longest = Duration.ZERO;
		for (RateLimiter<K> limiter : this.limiters) {
			Duration delay = limiter.when(item);
			longest = (delay.compareTo(longest) > 0) ? delay : longest;
		}
		return longest;
	}

	@Override
	public void forget(K item) {
		this.limiters.forEach((limiter) -> limiter.forget(item));
	}

	@Override
	public int numRequeues(K item) {
		return this.limiters.stream().mapToInt((limiter) -> limiter.numRequeues(item)).max().orElse(0);
	}

}
