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
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the rate limiters, with client-go's numbers.
 *
 * @author Kubeop authors
 */
class RateLimiterTests {

	@Test
	void exponentialBackOffDoublesFromTheBaseAndStopsAtTheMax() {
		ItemExponentialFailureRateLimiter<String> limiter = new ItemExponentialFailureRateLimiter<>(
				Duration.ofMillis(5), Duration.ofSeconds(1000));
		List<Duration> delays = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			delays.add(limiter.when("a"));
		}
		assertThat(delays).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20),
				Duration.ofMillis(40), Duration.ofMillis(80));
		assertThat(limiter.numRequeues("a")).isEqualTo(5);
		assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(5));
		for (int i = 0; i < 100; i++) {
			limiter.when("a");
		}
		assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1000));
		limiter.forget("a");
		assertThat(limiter.numRequeues("a")).isZero();
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
	}

	@Test
	void bucketAllowsTheBurstThenSpacesByTheRate() {
		long[] now = { 0 };
		BucketRateLimiter<String> limiter = new BucketRateLimiter<>(10, 100, () -> now[0]);
		for (int i = 0; i < 100; i++) {
			assertThat(limiter.when("item-" + i)).isZero();
		}
		assertThat(limiter.when("x")).isEqualTo(Duration.ofMillis(100));
		assertThat(limiter.when("y")).isEqualTo(Duration.ofMillis(200));
		now[0] = Duration.ofMillis(100).toNanos();
		assertThat(limiter.when("z")).as("one token refilled, two owed").isEqualTo(Duration.ofMillis(200));
		now[0] = Duration.ofSeconds(2).toNanos();
		assertThat(limiter.when("later")).as("refilled").isZero();
	}

	@Test
	void maxOfPicksTheLongerDelay() {
		long[] now = { 0 };
		RateLimiter<String> limiter = new MaxOfRateLimiter<>(
				new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
				new BucketRateLimiter<>(10, 1, () -> now[0]));
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
		assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));
		assertThat(limiter.numRequeues("a")).isEqualTo(2);
		limiter.forget("a");
		assertThat(limiter.numRequeues("a")).isZero();
	}

	@Test
	void rateLimitingQueueAddsFailuresBackAfterTheLimitersDelay() throws InterruptedException {
		DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>("limited",
				RateLimiters.controllerRateLimiter(Duration.ofMillis(50), Duration.ofSeconds(1), 10, 100));
		try {
			queue.addRateLimited("a");
			assertThat(queue.length()).isZero();
			assertThat(queue.numRequeues("a")).isEqualTo(1);
			assertThat(queue.get()).isEqualTo("a");
			queue.done("a");
			queue.forget("a");
			assertThat(queue.numRequeues("a")).isZero();
		}
		finally {
			queue.shutDown();
		}
	}

}
