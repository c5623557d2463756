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

/**
 * Rate limiters as client-go configures them.
 *
 * @author Kubeop authors
 */
public final class RateLimiters {

	private RateLimiters() {
	}

	/**
	 * Returns client-go's default controller rate limiter: per-item exponential back-off
	 * from 5 ms to 1000 s, combined with an overall bucket of 10 per second, burst 100.
	 * (The official Java client's default bucket refills 10 per minute.)
	 * @param <K> the item type
	 * @return the limiter
	 */
	public static <K> RateLimiter<K> defaultControllerRateLimiter() {
		return controllerRateLimiter(Duration.ofMillis(5), Duration.ofSeconds(1000), 10, 100);
	}

	/**
	 * Returns a controller rate limiter with other settings.
	 * @param <K> the item type
	 * @param baseDelay the first per-item delay
	 * @param maxDelay the longest per-item delay
	 * @param perSecond the overall rate
	 * @param burst the overall burst
	 * @return the limiter
	 */
	public static <K> RateLimiter<K> controllerRateLimiter(Duration baseDelay, Duration maxDelay, double perSecond,
			int burst) {
		return new MaxOfRateLimiter<>(new ItemExponentialFailureRateLimiter<>(baseDelay, maxDelay),
				new BucketRateLimiter<>(perSecond, burst));
	}

}
