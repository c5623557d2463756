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
 * An overall token bucket for all items, as {@code golang.org/x/time/rate} reserves: each
 * call takes a token, and when none is left it returns how long until one will be. The
 * bucket starts full.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public final class BucketRateLimiter<K> implements RateLimiter<K> {

	private final double perSecond;

	private final int burst;

	private final Ticker ticker;

	private double tokens;

	private long last;

	/**
	 * Creates a limiter.
	 * @param perSecond tokens added per second
	 * @param burst the bucket size
	 * @param ticker the time source
	 */
	public BucketRateLimiter(double perSecond, int burst, Ticker ticker) {
		this.perSecond = perSecond;
		this.burst = burst;
		this.ticker = ticker;
		this.tokens = burst;
		this.last = ticker.nanoTime();
	}

	/**
	 * Creates a limiter on the system clock.
	 * @param perSecond tokens added per second
	 * @param burst the bucket size
	 */
	public BucketRateLimiter(double perSecond, int burst) {
		this(perSecond, burst, Ticker.system());
	}

	@Override
	public synchronized Duration when(K item) {
		long now = this.ticker.nanoTime();
		this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / 1e9 * this.perSecond);
		this.last = now;
		this.tokens -= 1;
		return (this.tokens >= 0) ? Duration.ZERO : Duration.ofNanos((long) (-this.tokens / this.perSecond * 1e9));
	}

	@Override
	public void forget(K item) {
	}

	@Override
	public int numRequeues(K item) {
		return 0;
	}

}
