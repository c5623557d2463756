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

package io.github.kubeop.informer;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Exponential back-off with jitter for reconnecting to the API server, as client-go's
 * reflector does: 800 ms doubling to 30 s, each delay stretched by up to 100% at random
 * so that many informers do not reconnect in lockstep. As client-go's
 * {@code ExponentialBackoffManager}, the delay starts over only after a quiet period (2
 * minutes) without a back-off, not after any success: a reconnect that succeeds and fails
 * again at once must not reset the delay, or a broken watch is reopened in a tight loop.
 *
 * @author Kubeop authors
 */
final class Backoff {

	private final Duration initial;

	private final Duration max;

	private final Duration resetAfter;

	private final double jitter;

	private final LongSupplier nanoClock;

	private Duration current;

	private long lastBackoffNanos;

	private int steps;

	Backoff(Duration initial, Duration max, Duration resetAfter) {
		this(initial, max, resetAfter, System::nanoTime);
	}

	Backoff(Duration initial, Duration max, Duration resetAfter, LongSupplier nanoClock) {
		this(initial, max, resetAfter, 1.0, nanoClock);
	}

	/**
	 * Creates a back-off whose delays are stretched by up to {@code jitter} times
	 * themselves at random.
	 * @param initial the first delay
	 * @param max the longest delay before jitter
	 * @param resetAfter the quiet period after which the delay starts over
	 * @param jitter the largest stretch, as a fraction of the delay
	 * @param nanoClock the clock
	 */
	Backoff(Duration initial, Duration max, Duration resetAfter, double jitter, LongSupplier nanoClock) {
		this.initial = initial;
		this.jitter = jitter;
		this.max = max;
		this.resetAfter = resetAfter;
		this.nanoClock = nanoClock;
		this.current = initial;
	}

	/**
	 * Returns the next delay, starting over from the initial delay if the last one was
	 * asked for longer ago than the quiet period.
	 * @return the delay, jittered
	 */
	synchronized Duration next() {
		long now = this.nanoClock.getAsLong();
		if (this.steps > 0 && now - this.lastBackoffNanos > this.resetAfter.toNanos()) {
			this.current = this.initial;
			this.steps = 0;
		}
		this.lastBackoffNanos = now;
		this.steps++;
		Duration base = this.current;
		Duration doubled = this.current.multipliedBy(2);
		this.current = (doubled.compareTo(this.max) > 0) ? this.max : doubled;
		long jitter = (long) (base.toMillis() * this.jitter * ThreadLocalRandom.current().nextDouble());
		return base.plusMillis(jitter);
	}

	/**
	 * Starts over from the initial delay.
	 */
	synchronized void reset() {
		this.current = this.initial;
		this.steps = 0;
	}

	/**
	 * Returns how many delays were handed out since the back-off last started over.
	 * @return the number of back-offs in a row
	 */
	synchronized int steps() {
		return this.steps;
	}

}
