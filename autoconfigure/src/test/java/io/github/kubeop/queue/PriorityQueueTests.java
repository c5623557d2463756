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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the priorities and lanes of {@link DefaultWorkQueue} and its subclasses:
 * controller-runtime's priority queue ordering, raising, and round-robin across lanes,
 * with de-duplication, rate limiting and "one item, one worker" unchanged.
 *
 * @author Kubeop authors
 */
class PriorityQueueTests {

	@Test
	void higherPriorityIsTakenFirstAndEqualPrioritiesInTheOrderAdded() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test");
		queue.add("low-1", Priority.LOW);
		queue.add("normal-1");
		queue.add("low-2", Priority.LOW);
		queue.add("high", Priority.HIGH);
		queue.add("normal-2", Priority.NORMAL);
		assertThat(takeAll(queue)).containsExactly("high", "normal-1", "normal-2", "low-1", "low-2");
	}

	@Test
	void aWaitingItemIsRaisedNeverLoweredAndWaitsOnce() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test");
		for (int i = 0; i < 5; i++) {
			queue.add("backlog-" + i, Priority.LOW);
		}
		queue.add("backlog-3", Priority.NORMAL);
		queue.add("backlog-0", Priority.LOW);
		queue.add("normal", Priority.NORMAL);
		queue.add("normal", Priority.LOW);
		assertThat(queue.length()).isEqualTo(6);
		assertThat(takeAll(queue)).containsExactly("backlog-3", "normal", "backlog-0", "backlog-1", "backlog-2",
				"backlog-4");
		assertThat(queue.length()).isZero();
	}

	@Test
	void anItemRaisedThenTakenAndAddedAgainLowWaitsOnlyAtItsNewPlace() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test");
		queue.add("a", Priority.LOW);
		queue.add("b", Priority.LOW);
		queue.add("a", Priority.NORMAL);
		assertThat(queue.get()).isEqualTo("a");
		queue.done("a");
		queue.add("a", Priority.LOW);
		queue.add("c", Priority.LOW);
		// the raise took "a" out of its low place: it waits behind "b", once
		assertThat(takeAll(queue)).containsExactly("b", "a", "c");
		assertThat(queue.length()).isZero();
	}

	@Test
	void anItemRaisedWhileProcessingWaitsAtTheRaisedPriorityWhenDoneAndOnce() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test");
		queue.add("a", Priority.LOW);
		assertThat(queue.get()).isEqualTo("a");
		queue.add("a", Priority.LOW);
		queue.add("b", Priority.NORMAL);
		queue.add("a", Priority.HIGH);
		queue.add("a", Priority.NORMAL);
		assertThat(queue.length()).as("not handed to a second worker while processing").isEqualTo(1);
		assertThat(queue.priorityOf("a")).as("the priority it was taken at").isEqualTo(Priority.LOW);
		queue.done("a");
		assertThat(queue.length()).isEqualTo(2);
		assertThat(takeAll(queue)).containsExactly("a", "b");
	}

	@Test
	void aRaisedItemLeavesItsLaneAtTheLowerPriorityAndJoinsItsLaneAtTheHigher() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		queue.add("a/1", Priority.LOW);
		queue.add("a/2", Priority.LOW);
		queue.add("b/1", Priority.LOW);
		queue.add("c/1", Priority.LOW);
		queue.add("c/2", Priority.NORMAL);
		// "b/1" is its lane's only low item: lane b leaves the low turns
		queue.add("b/1", Priority.NORMAL);
		// "a/2" is in the middle of nothing: its lane keeps "a/1" at low
		queue.add("a/2", Priority.NORMAL);
		assertThat(queue.length()).isEqualTo(5);
		assertThat(takeAll(queue)).containsExactly("c/2", "b/1", "a/2", "a/1", "c/1");
	}

	@Test
	void aLaneEmptiedAndRefilledTakesItsTurnAfterTheLanesThatWait() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		for (String key : List.of("a/1", "a/2", "a/3", "b/1", "c/1", "c/2")) {
			queue.add(key);
		}
		assertThat(queue.get()).isEqualTo("a/1");
		assertThat(queue.get()).isEqualTo("b/1");
		queue.add("b/2");
		assertThat(queue.get()).isEqualTo("c/1");
		assertThat(queue.get()).isEqualTo("a/2");
		assertThat(queue.get()).as("lane b, refilled, after the lanes that waited").isEqualTo("b/2");
		assertThat(queue.get()).isEqualTo("c/2");
		assertThat(queue.get()).isEqualTo("a/3");
		assertThat(queue.length()).isZero();
	}

	@Test
	void aLaneIsNotForgottenWhileOneOfItsKeysIsProcessedSoItKeepsOneTurn() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		for (int i = 0; i < 100; i++) {
			queue.add("ns-" + i + "/1");
		}
		assertThat(queue.get()).isEqualTo("ns-0/1");
		queue.add("ns-0/1");
		// every other lane empties and its key is done: empty lanes beyond 64 are
		// forgotten, lane ns-0 (empty, its key processed) must not be
		assertThat(takeAll(queue)).hasSize(99);
		queue.done("ns-0/1");
		queue.add("ns-0/2");
		queue.add("ns-50/2");
		assertThat(takeAll(queue)).as("one lane ns-0, taking one turn").containsExactly("ns-0/1", "ns-50/2", "ns-0/2");
	}

	@Test
	void afterShutDownWaitingItemsAreStillTakenInOrderThenNullAndAddsAreIgnored() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		queue.add("a/low", Priority.LOW);
		queue.add("a/busy");
		queue.add("b/normal");
		assertThat(queue.get()).isEqualTo("a/busy");
		queue.shutDown();
		queue.add("a/busy", Priority.HIGH);
		queue.add("c/late", Priority.HIGH);
		queue.add("a/low", Priority.HIGH);
		assertThat(queue.length()).isEqualTo(2);
		queue.done("a/busy");
		assertThat(queue.get()).isEqualTo("b/normal");
		assertThat(queue.get()).isEqualTo("a/low");
		assertThat(queue.get()).as("nothing left: null, not a wait").isNull();
		queue.done("b/normal");
		queue.done("a/low");
		queue.shutDownWithDrain();
		assertThat(queue.length()).isZero();
	}

	@Test
	void anItemAddedWhileProcessingKeepsTheHighestPriorityAskedAndItsPriorityIsKnown() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test");
		queue.add("a", Priority.HIGH);
		String taken = queue.get();
		assertThat(queue.priorityOf(taken)).isEqualTo(Priority.HIGH);
		queue.add("a", Priority.LOW);
		queue.add("a", 50);
		queue.add("b", Priority.NORMAL);
		assertThat(queue.length()).as("not handed to a second worker while processing").isEqualTo(1);
		queue.done("a");
		assertThat(queue.get()).isEqualTo("a");
		assertThat(queue.priorityOf("a")).isEqualTo(50);
		assertThat(queue.priorityOf("not-processing")).isEqualTo(Priority.NORMAL);
	}

	@Test
	void lanesTakeTurnsSoOneLanesBacklogDelaysAnotherLaneByOneItem() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		for (int i = 0; i < 1000; i++) {
			queue.add("noisy/" + i);
		}
		queue.add("quiet/only");
		queue.add("other/1");
		queue.add("other/2");
		List<String> first = List.of(queue.get(), queue.get(), queue.get(), queue.get(), queue.get());
		assertThat(first).containsExactly("noisy/0", "quiet/only", "other/1", "noisy/1", "other/2");
		assertThat(queue.length()).isEqualTo(998);
	}

	@Test
	void prioritiesHoldAcrossLanesAndLanesTakeTurnsWithinAPriority() throws InterruptedException {
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		queue.add("a/low-1", Priority.LOW);
		queue.add("a/low-2", Priority.LOW);
		queue.add("b/low-1", Priority.LOW);
		queue.add("a/normal-1");
		queue.add("a/normal-2");
		queue.add("b/normal-1");
		queue.add("b/low-1", Priority.NORMAL);
		assertThat(takeAll(queue)).containsExactly("a/normal-1", "b/normal-1", "a/normal-2", "b/low-1", "a/low-1",
				"a/low-2");
	}

	@Test
	void aDelayedItemIsAddedAtItsPriorityAndKeepsTheHigherOfTwo() throws InterruptedException {
		DefaultDelayingQueue<String> queue = new DefaultDelayingQueue<>("test");
		try {
			queue.add("low", Priority.LOW);
			queue.addAfter("delayed", Duration.ofMillis(50), Priority.LOW);
			queue.addAfter("delayed", Duration.ofMillis(500), Priority.HIGH);
			await().atMost(Duration.ofSeconds(10)).until(() -> queue.length() == 2);
			assertThat(takeAll(queue)).containsExactly("delayed", "low");
		}
		finally {
			queue.shutDown();
		}
	}

	@Test
	void aRateLimitedRetryWaitsForItsBackOffAtItsPriority() throws InterruptedException {
		long[] now = { 0 };
		DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>("test",
				RateLimiters.controllerRateLimiter(Duration.ofSeconds(1), Duration.ofSeconds(10), 100, 100),
				QueueMetrics.NOOP, () -> now[0]);
		try {
			queue.add("backlog", Priority.LOW);
			queue.addRateLimited("retry", Priority.HIGH);
			assertThat(queue.length()).as("the retry waits for its back-off").isEqualTo(1);
			assertThat(queue.numRequeues("retry")).isEqualTo(1);
			now[0] = TimeUnit.SECONDS.toNanos(2);
			await().atMost(Duration.ofSeconds(20)).until(() -> queue.length() == 2);
			assertThat(takeAll(queue)).containsExactly("retry", "backlog");
		}
		finally {
			queue.shutDown();
		}
	}

	@Test
	void depthIsReportedByPriorityIncludingRaises() throws InterruptedException {
		Map<Integer, AtomicInteger> depth = new ConcurrentHashMap<>();
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", new QueueMetrics() {

			@Override
			public void added(int priority) {
				depth.computeIfAbsent(priority, (p) -> new AtomicInteger()).incrementAndGet();
			}

			@Override
			public void raised(int from, int to) {
				depth.computeIfAbsent(from, (p) -> new AtomicInteger()).decrementAndGet();
				depth.computeIfAbsent(to, (p) -> new AtomicInteger()).incrementAndGet();
			}

			@Override
			public void taken(long waitedNanos, int priority) {
				depth.get(priority).decrementAndGet();
			}

		}, Ticker.system());
		queue.add("a", Priority.LOW);
		queue.add("b", Priority.LOW);
		queue.add("b", Priority.NORMAL);
		assertThat(depth.get(Priority.LOW)).hasValue(1);
		assertThat(depth.get(Priority.NORMAL)).hasValue(1);
		queue.get();
		assertThat(depth.get(Priority.NORMAL)).hasValue(0);
		assertThat(depth.get(Priority.LOW)).hasValue(1);
	}

	@Test
	void eightWorkersWithPrioritiesAndLanesNeverProcessOneItemAtOnceAndTheLastAddIsAlwaysProcessed() throws Exception {
		int keys = 200;
		DefaultWorkQueue<String> queue = new DefaultWorkQueue<>("test", QueueMetrics.NOOP, Ticker.system(),
				PriorityQueueTests::namespace);
		Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
		Map<String, Integer> addedVersion = new ConcurrentHashMap<>();
		Map<String, Integer> processedVersion = new ConcurrentHashMap<>();
		AtomicBoolean overlap = new AtomicBoolean();
		List<String> processed = new CopyOnWriteArrayList<>();
		ExecutorService workers = Executors.newFixedThreadPool(8);
		try {
			for (int w = 0; w < 8; w++) {
				workers.submit(() -> {
					String key;
					while ((key = queue.get()) != null) {
						if (inFlight.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
							overlap.set(true);
						}
						Integer version = addedVersion.get(key);
						// a call that takes time, so that overlapping calls would meet
						Thread.sleep(1);
						processedVersion.merge(key, version, Math::max);
						processed.add(key);
						inFlight.get(key).decrementAndGet();
						queue.done(key);
					}
					return null;
				});
			}
			for (int round = 1; round <= 20; round++) {
				for (int k = 0; k < keys; k++) {
					String key = "ns-" + (k % 7) + "/key-" + k;
					addedVersion.put(key, round);
					queue.add(key, (round + k) % 3 - 1);
				}
			}
			await().atMost(Duration.ofSeconds(60))
				.until(() -> processedVersion.size() == keys
						&& processedVersion.values().stream().allMatch((v) -> v == 20));
			assertThat(overlap).as("one key was processed by two workers at once").isFalse();
		}
		finally {
			queue.shutDown();
			workers.shutdownNow();
		}
	}

	private static String namespace(String key) {
		return key.substring(0, key.indexOf('/'));
	}

	private static List<String> takeAll(WorkQueue<String> queue) throws InterruptedException {
		List<String> taken = new ArrayList<>();
		while (queue.length() > 0) {
			String item = queue.get();
			taken.add(item);
			queue.done(item);
		}
		return taken;
	}

}
