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
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link SpamFilter}.
 *
 * @author Kubeop authors
 */
class SpamFilterTests {

	private final AtomicLong nanos = new AtomicLong();

	private final SpamFilter filter = new SpamFilter(25, Duration.ofMinutes(5), this.nanos::get);

	@Test
	void eachObjectHasABurstThenOneEventPerRefill() {
		for (int i = 0; i < 25; i++) {
			assertThat(this.filter.tryAccept("a")).as("event %d", i).isTrue();
		}
		assertThat(this.filter.tryAccept("a")).isFalse();
		assertThat(this.filter.tryAccept("b")).as("another object's bucket").isTrue();
		this.nanos.addAndGet(Duration.ofMinutes(4).toNanos());
		assertThat(this.filter.tryAccept("a")).isFalse();
		this.nanos.addAndGet(Duration.ofMinutes(1).toNanos());
		assertThat(this.filter.tryAccept("a")).isTrue();
		assertThat(this.filter.tryAccept("a")).isFalse();
	}

	@Test
	void bucketNeverHoldsMoreThanItsBurst() {
		this.nanos.addAndGet(Duration.ofDays(1).toNanos());
		for (int i = 0; i < 25; i++) {
			assertThat(this.filter.tryAccept("a")).isTrue();
		}
		assertThat(this.filter.tryAccept("a")).isFalse();
	}

	@Test
	void leastRecentlySeenObjectsAreForgottenPastTheBound() {
		for (int i = 0; i < 25; i++) {
			this.filter.tryAccept("first");
		}
		assertThat(this.filter.tryAccept("first")).isFalse();
		for (int i = 0; i < SpamFilter.MAX_OBJECTS; i++) {
			this.filter.tryAccept("other-" + i);
		}
		assertThat(this.filter.tryAccept("first")).as("a forgotten object starts with a full bucket").isTrue();
	}

}
