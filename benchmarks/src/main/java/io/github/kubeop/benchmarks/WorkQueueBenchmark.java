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

package io.github.kubeop.benchmarks;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.Priority;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.queue.Ticker;
import io.kubernetes.client.extended.workqueue.ratelimiter.DefaultControllerRateLimiter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The work queue's hot path, Kubeop with and without priorities and fairness beside the
 * queue before them ({@link QueueBeforePriorities}, the baseline of their cost) and the
 * official client's {@code DefaultRateLimitingQueue} (client-java-extended 25.0.0): a
 * worker takes a key, the key and another random key are added again (the first is being
 * processed, so it is only marked dirty; the second is usually waiting already, so it is
 * de-duplicated), and the worker marks the key done, which puts it back. The queue always
 * holds about 1,000 keys, so {@code get} never waits. Run by one thread, then by as many
 * threads as the machine has cores ({@code -t max}, given by {@code benchmarks/run}):
 * more threads than cores would measure the scheduler's time slicing, not the queue.
 * Three forks, so that a fork's JIT decisions do not become the result, and eight
 * measured iterations each, because a shared machine moves single iterations a lot.
 *
 * @author Kubeop authors
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(3)
public class WorkQueueBenchmark {

	static final int KEYS = 1000;

	static final String[] KEY_NAMES = new String[KEYS];

	static final String[] NAMESPACED_KEY_NAMES = new String[KEYS];

	static {
		for (int i = 0; i < KEYS; i++) {
			KEY_NAMES[i] = "namespace/object-" + i;
			NAMESPACED_KEY_NAMES[i] = "namespace-" + (i % 10) + "/object-" + i;
		}
	}

	@Benchmark
	@Threads(1)
	public String oneThread(Queues queues) throws InterruptedException {
		return queues.cycle();
	}

	@Benchmark
	@Threads(Threads.MAX)
	public String allCores(Queues queues) throws InterruptedException {
		return queues.cycle();
	}

	/**
	 * One queue per trial, shared by the benchmark threads.
	 */
	@State(Scope.Benchmark)
	public static class Queues {

		/**
		 * {@code before-priorities}: the queue before priorities and fairness
		 * ({@link QueueBeforePriorities}), the baseline; {@code kubeop}: every add at
		 * normal priority, as most adds are; {@code kubeop-lanes}: as {@code kubeop},
		 * with the keys in ten namespaces taking turns; {@code kubeop-priorities}: adds
		 * at low and normal priority at random, so that keys are raised;
		 * {@code kubeop-fairness}: both.
		 */
		@Param({ "before-priorities", "kubeop", "kubeop-lanes", "kubeop-priorities", "kubeop-fairness", "client-java" })
		public String implementation;

		private Cycle cycle;

		private Runnable shutdown;

		@Setup(Level.Trial)
		public void setUp() {
			if (this.implementation.startsWith("kubeop")) {
				boolean fair = this.implementation.equals("kubeop-lanes")
						|| this.implementation.equals("kubeop-fairness");
				boolean mixed = this.implementation.equals("kubeop-priorities")
						|| this.implementation.equals("kubeop-fairness");
				DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>("benchmark",
						RateLimiters.defaultControllerRateLimiter(), QueueMetrics.NOOP, Ticker.system(),
						fair ? (key) -> key.substring(0, key.indexOf('/')) : null);
				String[] keys = fair ? NAMESPACED_KEY_NAMES : KEY_NAMES;
				if (mixed) {
					for (String key : keys) {
						queue.add(key, Priority.LOW);
					}
					this.cycle = () -> {
						String key = queue.get();
						ThreadLocalRandom random = ThreadLocalRandom.current();
						queue.add(key, random.nextBoolean() ? Priority.NORMAL : Priority.LOW);
						queue.add(keys[random.nextInt(KEYS)], random.nextBoolean() ? Priority.NORMAL : Priority.LOW);
						queue.done(key);
						return key;
					};
				}
				else {
					for (String key : keys) {
						queue.add(key);
					}
					this.cycle = () -> {
						String key = queue.get();
						queue.add(key);
						queue.add(keys[ThreadLocalRandom.current().nextInt(KEYS)]);
						queue.done(key);
						return key;
					};
				}
				this.shutdown = queue::shutDown;
			}
			else if (this.implementation.equals("before-priorities")) {
				QueueBeforePriorities<String> queue = new QueueBeforePriorities<>();
				for (String key : KEY_NAMES) {
					queue.add(key);
				}
				this.cycle = () -> {
					String key = queue.get();
					queue.add(key);
					queue.add(KEY_NAMES[ThreadLocalRandom.current().nextInt(KEYS)]);
					queue.done(key);
					return key;
				};
				this.shutdown = queue::shutDown;
			}
			else {
				ExecutorService executor = Executors.newSingleThreadExecutor();
				io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue<String> queue = new io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue<>(
						executor, new DefaultControllerRateLimiter<>());
				for (String key : KEY_NAMES) {
					queue.add(key);
				}
				this.cycle = () -> {
					String key = queue.get();
					queue.add(key);
					queue.add(KEY_NAMES[ThreadLocalRandom.current().nextInt(KEYS)]);
					queue.done(key);
					return key;
				};
				this.shutdown = () -> {
					queue.shutDown();
					executor.shutdownNow();
				};
			}
		}

		String cycle() throws InterruptedException {
			return this.cycle.run();
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.shutdown.run();
		}

	}

	@FunctionalInterface
	interface Cycle {

		String run() throws InterruptedException;

	}

}
