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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link DefaultWorkQueue}: client-go's work queue semantics.
 *
 * @author Kubeop authors
 */
class DefaultWorkQueueTests {

	private final DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test");

	@Test
	void itemWaitingAlreadyIsNotAddedTwice() throws InterruptedException {
		this.queue.add("a");
		this.queue.add("b");
		this.queue.add("a");
		assertThat(this.queue.length()).isEqualTo(2);
		assertThat(this.queue.get()).isEqualTo("a");
		assertThat(this.queue.get()).isEqualTo("b");
		assertThat(this.queue.length()).isZero();
	}

	@Test
	void anItemEqualToAWaitingOneButNotTheSameInstanceIsNotAddedTwice() throws InterruptedException {
		// keys come from each event as new strings: equal, never the same instance
		this.queue.add(new String("namespace/a"));
		this.queue.add(new String("namespace/b"));
		this.queue.add(new String("namespace/a"));
		assertThat(this.queue.length()).isEqualTo(2);
		String a = this.queue.get();
		this.queue.add(new String("namespace/a"));
		assertThat(this.queue.length()).as("not waiting again while processed").isEqualTo(1);
		this.queue.done(new String("namespace/a"));
		assertThat(this.queue.get()).isEqualTo("namespace/b");
		assertThat(this.queue.get()).as("waits again once done").isEqualTo(a);
		assertThat(this.queue.length()).isZero();
	}

	@Test
	void itemsWhoseHashCodesCollideAreToldApartAsTheQueueGrowsAndShrinks() throws InterruptedException {
		DefaultWorkQueue<CollidingKey> queue = new DefaultWorkQueue<>("colliding");
		List<CollidingKey> keys = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			keys.add(new CollidingKey(i));
		}
		for (CollidingKey key : keys) {
			queue.add(key);
		}
		for (CollidingKey key : keys) {
			queue.add(new CollidingKey(key.id()));
		}
		assertThat(queue.length()).isEqualTo(1000);
		List<CollidingKey> taken = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			CollidingKey key = queue.get();
			taken.add(key);
			if (i % 2 == 0) {
				// done with nothing more to do: forgotten
				queue.done(key);
			}
		}
		assertThat(taken).containsExactlyElementsOf(keys);
		for (int i = 1; i < 1000; i += 2) {
			queue.add(new CollidingKey(i));
		}
		assertThat(queue.length()).as("the keys still being processed do not wait").isZero();
		for (int i = 0; i < 1000; i += 2) {
			queue.add(new CollidingKey(i));
		}
		assertThat(queue.length()).as("the keys forgotten wait again").isEqualTo(500);
		for (int i = 1; i < 1000; i += 2) {
			queue.done(new CollidingKey(i));
		}
		assertThat(queue.length()).as("the keys added while processed wait once done").isEqualTo(1000);
	}

	/**
	 * A key whose hash code a handful of keys share.
	 */
	record CollidingKey(int id) {

		@Override
		public int hashCode() {
			return this.id % 7;
		}

	}

	@Test
	void itemAddedWhileProcessingWaitsUntilDoneAndThenOnce() throws InterruptedException {
		this.queue.add("a");
		String item = this.queue.get();
		this.queue.add("a");
		this.queue.add("a");
		assertThat(this.queue.length()).as("not handed to a second worker while processing").isZero();
		this.queue.done(item);
		assertThat(this.queue.length()).isEqualTo(1);
		assertThat(this.queue.get()).isEqualTo("a");
		this.queue.done("a");
		assertThat(this.queue.length()).isZero();
	}

	@Test
	void getWaitsForAnAdd() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Thread[] getter = new Thread[1];
			Future<String> taken = executor.submit(() -> {
				getter[0] = Thread.currentThread();
				return this.queue.get();
			});
			// the getter waits in get (on the queue's condition) before anything is added
			await().atMost(Duration.ofSeconds(30))
				.until(() -> getter[0] != null && getter[0].getState() == Thread.State.WAITING);
			this.queue.add("sentinel");
			// had get returned anything before the add (null, or an item from nowhere),
			// the future would hold that instead of the sentinel
			assertThat(taken.get(30, TimeUnit.SECONDS)).isEqualTo("sentinel");
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void shutDownWakesWaitingGettersWithNullAndIgnoresAdds() throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(2);
		try {
			Thread[] getters = new Thread[2];
			Future<String> first = executor.submit(() -> {
				getters[0] = Thread.currentThread();
				return this.queue.get();
			});
			Future<String> second = executor.submit(() -> {
				getters[1] = Thread.currentThread();
				return this.queue.get();
			});
			// both wait in get before the shutdown, so that it is the shutdown that wakes
			// them
			await().atMost(Duration.ofSeconds(30))
				.until(() -> Arrays.stream(getters)
					.allMatch((getter) -> getter != null && getter.getState() == Thread.State.WAITING));
			this.queue.shutDown();
			assertThat(first.get(5, TimeUnit.SECONDS)).isNull();
			assertThat(second.get(5, TimeUnit.SECONDS)).isNull();
			this.queue.add("ignored");
			assertThat(this.queue.length()).isZero();
			assertThat(this.queue.isShuttingDown()).isTrue();
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void shutDownWithDrainWaitsForItemsBeingProcessed() throws Exception {
		this.queue.add("busy");
		String item = this.queue.get();
		AtomicBoolean doneCalled = new AtomicBoolean();
		AtomicBoolean drainedBeforeDone = new AtomicBoolean();
		CountDownLatch drained = new CountDownLatch(1);
		Thread drainer = new Thread(() -> {
			try {
				this.queue.shutDownWithDrain();
				// recorded when the drain returns: it must not return before done
				drainedBeforeDone.set(!doneCalled.get());
				drained.countDown();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		drainer.start();
		await().atMost(Duration.ofSeconds(30)).until(() -> this.queue.isShuttingDown());
		// the drainer waits for the item, or (wrongly) returned already
		await().atMost(Duration.ofSeconds(30))
			.until(() -> drainer.getState() == Thread.State.WAITING || drained.getCount() == 0);
		doneCalled.set(true);
		this.queue.done(item);
		assertThat(drained.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(drainedBeforeDone).as("the drain returned while an item was processed").isFalse();
	}

	@Test
	void processingTimesAreReportedForMetrics() throws InterruptedException {
		long[] now = { 0 };
		List<Long> waited = new ArrayList<>();
		List<Long> worked = new ArrayList<>();
		AtomicInteger adds = new AtomicInteger();
		DefaultWorkQueue<String> measured = new DefaultWorkQueue<>("measured", new QueueMetrics() {

			@Override
			public void added(int priority) {
				adds.incrementAndGet();
			}

			@Override
			public void taken(long waitedNanos, int priority) {
				waited.add(waitedNanos);
			}

			@Override
			public void done(long workedNanos) {
				worked.add(workedNanos);
			}

		}, () -> now[0]);
		measured.add("a");
		measured.add("a");
		now[0] = 100;
		measured.get();
		now[0] = 350;
		assertThat(measured.unfinishedWorkNanos()).isEqualTo(250);
		assertThat(measured.longestRunningProcessorNanos()).isEqualTo(250);
		measured.done("a");
		assertThat(adds).hasValue(1);
		assertThat(waited).containsExactly(100L);
		assertThat(worked).containsExactly(250L);
		assertThat(measured.unfinishedWorkNanos()).isZero();
	}

	@Test
	void eightWorkersNeverProcessOneItemAtOnceAndTheLastAddIsAlwaysProcessed() throws Exception {
		int keys = 200;
		Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
		Map<String, Integer> addedVersion = new ConcurrentHashMap<>();
		Map<String, Integer> processedVersion = new ConcurrentHashMap<>();
		AtomicBoolean overlap = new AtomicBoolean();
		ExecutorService workers = Executors.newFixedThreadPool(8);
		for (int w = 0; w < 8; w++) {
			workers.submit(() -> {
				String item;
				while ((item = this.queue.get()) != null) {
					if (inFlight.computeIfAbsent(item, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
						overlap.set(true);
					}
					Integer version = addedVersion.get(item);
					Thread.onSpinWait();
					processedVersion.merge(item, version, Math::max);
					inFlight.get(item).decrementAndGet();
					this.queue.done(item);
				}
				return null;
			});
		}
		ExecutorService producers = Executors.newFixedThreadPool(4);
		List<Future<?>> produced = new ArrayList<>();
		for (int p = 0; p < 4; p++) {
			int producer = p;
			produced.add(producers.submit(() -> {
				for (int round = 1; round <= 50; round++) {
					for (int k = producer; k < keys; k += 4) {
						String key = "key-" + k;
						addedVersion.put(key, round);
						this.queue.add(key);
					}
				}
			}));
		}
		for (Future<?> future : produced) {
			future.get(30, TimeUnit.SECONDS);
		}
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(processedVersion).hasSize(keys)
				.allSatisfy((key, version) -> assertThat(version).isEqualTo(50)));
		this.queue.shutDown();
		workers.shutdown();
		assertThat(workers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		producers.shutdown();
		assertThat(overlap).as("an item processed by two workers at once").isFalse();
	}

}
