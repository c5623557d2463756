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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.Priority;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.queue.Ticker;

/**
 * The CPU time of one thread running {@link WorkQueueBenchmark}'s cycle (take a key, add
 * it and a random key again, done; 1,000 keys), for a machine too busy for JMH's
 * wall-clock figures: thread CPU time does not count the time the thread waited for a
 * core. Modes: {@code before} (the queue before priorities,
 * {@link QueueBeforePriorities}, the baseline), {@code plain} (every add at normal
 * priority), {@code lanes} (ten namespaces taking turns), {@code priorities} (half the
 * adds low, half normal), {@code fairness} (both). Prints nanoseconds per cycle of five
 * rounds of 2,000,000 cycles after two rounds of warm-up.
 *
 * @author Kubeop authors
 */
public final class QueueCpuProbe {

	private static final int KEYS = 1000;

	private QueueCpuProbe() {
	}

	public static void main(String[] args) throws InterruptedException {
		String mode = (args.length > 0) ? args[0] : "plain";
		boolean fair = mode.equals("lanes") || mode.equals("fairness");
		boolean mixed = mode.equals("priorities") || mode.equals("fairness");
		String[] keys = new String[KEYS];
		for (int i = 0; i < KEYS; i++) {
			keys[i] = (fair ? "namespace-" + (i % 10) : "namespace") + "/object-" + i;
		}
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		StringBuilder rounds = new StringBuilder();
		if (mode.equals("before")) {
			for (int round = 0; round < 7; round++) {
				QueueBeforePriorities<String> queue = new QueueBeforePriorities<>();
				for (String key : keys) {
					queue.add(key);
				}
				int cycles = 2_000_000;
				long cpu = threads.getCurrentThreadCpuTime();
				for (int i = 0; i < cycles; i++) {
					String key = queue.get();
					queue.add(key);
					queue.add(keys[ThreadLocalRandom.current().nextInt(KEYS)]);
					queue.done(key);
				}
				double nanos = (threads.getCurrentThreadCpuTime() - cpu) / (double) cycles;
				queue.shutDown();
				if (round >= 2) {
					rounds.append(String.format(Locale.ROOT, " %.1f", nanos));
				}
			}
			System.out.println(mode + ": ns CPU per cycle, rounds 3 to 7:" + rounds);
			return;
		}
		for (int round = 0; round < 7; round++) {
			DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>("probe",
					RateLimiters.defaultControllerRateLimiter(), QueueMetrics.NOOP, Ticker.system(),
					fair ? (key) -> key.substring(0, key.indexOf('/')) : null);
			for (String key : keys) {
				add(queue, key, mixed);
			}
			int cycles = 2_000_000;
			long cpu = threads.getCurrentThreadCpuTime();
			for (int i = 0; i < cycles; i++) {
				String key = queue.get();
				add(queue, key, mixed);
				add(queue, keys[ThreadLocalRandom.current().nextInt(KEYS)], mixed);
				queue.done(key);
			}
			double nanos = (threads.getCurrentThreadCpuTime() - cpu) / (double) cycles;
			queue.shutDown();
			if (round >= 2) {
				rounds.append(String.format(Locale.ROOT, " %.1f", nanos));
			}
		}
		System.out.println(mode + ": ns CPU per cycle, rounds 3 to 7:" + rounds);
	}

	private static void add(DefaultRateLimitingQueue<String> queue, String key, boolean mixed) {
		if (mixed) {
			queue.add(key, ThreadLocalRandom.current().nextBoolean() ? Priority.NORMAL : Priority.LOW);
		}
		else {
			queue.add(key);
		}
	}

}
