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
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link DefaultDelayingQueue}.
 *
 * @author Kubeop authors
 */
class DefaultDelayingQueueTests {

	private final DefaultDelayingQueue<String> queue = new DefaultDelayingQueue<>("delaying");

	@AfterEach
	void shutDown() {
		this.queue.shutDown();
	}

	@Test
	void delayedItemsArriveInDueOrder() throws InterruptedException {
		this.queue.addAfter("third", Duration.ofMillis(300));
		this.queue.addAfter("first", Duration.ofMillis(50));
		this.queue.addAfter("second", Duration.ofMillis(150));
		this.queue.addAfter("now", Duration.ZERO);
		assertThat(this.queue.get()).isEqualTo("now");
		assertThat(this.queue.get()).isEqualTo("first");
		assertThat(this.queue.get()).isEqualTo("second");
		assertThat(this.queue.get()).isEqualTo("third");
	}

	@Test
	void earlierDueTimeWinsForAnItemAddedTwice() throws InterruptedException {
		this.queue.addAfter("item", Duration.ofHours(1));
		// long enough that the item is still waiting for it when added the third time, on
		// a loaded machine too
		this.queue.addAfter("item", Duration.ofSeconds(1));
		this.queue.addAfter("item", Duration.ofHours(2));
		assertThat(this.queue.delayedLength()).isEqualTo(1);
		assertThat(this.queue.get()).isEqualTo("item");
		assertThat(this.queue.delayedLength()).isZero();
	}

	@Test
	void fiveThousandDelayedItemsAreAllDelivered() throws InterruptedException {
		for (int i = 0; i < 5000; i++) {
			this.queue.addAfter("item-" + i, Duration.ofMillis(10 + (i % 50)));
		}
		Set<String> delivered = new HashSet<>();
		while (delivered.size() < 5000) {
			String item = this.queue.get();
			delivered.add(item);
			this.queue.done(item);
		}
		assertThat(delivered).hasSize(5000);
	}

	@Test
	void shutDownStopsTheWaitingLoop() {
		this.queue.addAfter("never", Duration.ofHours(1));
		this.queue.shutDown();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((thread) -> thread.getName().equals("kubeop-queue-delaying-delay")));
	}

}
