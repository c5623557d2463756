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
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Backoff}, on a clock the test moves.
 *
 * @author Kubeop authors
 */
class BackoffTests {

	private final AtomicLong nanos = new AtomicLong();

	private final Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), Duration.ofMinutes(2),
			this.nanos::get);

	@Test
	void delaysDoubleUpToTheMaximumWithUpToAsMuchAgainAsJitter() {
		long[] bases = { 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000 };
		for (long base : bases) {
			assertThat(this.backoff.next().toMillis()).isBetween(base, 2 * base);
			advance(Duration.ofSeconds(1));
		}
		assertThat(this.backoff.steps()).isEqualTo(bases.length);
	}

	@Test
	void delayDoesNotStartOverWithinTheQuietPeriod() {
		this.backoff.next();
		advance(Duration.ofSeconds(119));
		this.backoff.next();
		advance(Duration.ofSeconds(119));
		assertThat(this.backoff.next().toMillis()).isBetween(3200L, 6400L);
		assertThat(this.backoff.steps()).isEqualTo(3);
	}

	@Test
	void delayStartsOverAfterTheQuietPeriod() {
		this.backoff.next();
		this.backoff.next();
		advance(Duration.ofMinutes(2).plusMillis(1));
		assertThat(this.backoff.next().toMillis()).isBetween(800L, 1600L);
		assertThat(this.backoff.steps()).isEqualTo(1);
	}

	private void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

}
