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

	private final LongSupplier nanoClock;

	private Duration current;

	private long lastBackoffNanos;

	private int steps;

	Backoff(Duration initial, Duration max, Duration resetAfter) {
		this(initial, max, resetAfter, System::nanoTime);
	}

	Backoff(Duration initial, Duration max, Duration resetAfter, LongSupplier nanoClock) {
		this.initial = initial;
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
		long jitter = (long) (base.toMillis() * ThreadLocalRandom.current().nextDouble());
		return base.plusMillis(jitter);
	}

	/**
	 * Returns how many delays were handed out since the back-off last started over.
	 * @return the number of back-offs in a row
	 */
	synchronized int steps() {
		return this.steps;
	}

}
