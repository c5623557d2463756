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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * core. Contenders: {@code before} (the queue before priorities,
 * {@link QueueBeforePriorities}, the baseline), {@code plain} (every add at normal
 * priority), {@code lanes} (ten namespaces taking turns), {@code priorities} (half the
 * adds low, half normal), {@code fairness} (both).
 * <p>
 * All contenders run in one JVM, one after the other in each repetition, the order
 * rotated from one repetition to the next, so that a change of the machine's load or a
 * garbage collection meets each of them alike; each runs on a fresh queue, warmed up
 * before it is measured. Every contender draws one random number per cycle (the random
 * key, and for the mixes the two priorities from its low bits), so that the harness costs
 * them the same. The first two repetitions are warm-up. Prints, per contender, the
 * nanoseconds per cycle of each repetition, and the ratio to {@code before} of the same
 * repetition: median and range.
 * <p>
 * Arguments: repetitions (default 12), cycles per measurement (default 1,000,000), then
 * the contenders (default all five).
 *
 * @author Kubeop authors
 */
public final class QueueCpuProbe {

	private static final int KEYS = 1000;

	private static final int WARM_UP_REPETITIONS = 2;

	private QueueCpuProbe() {
	}

	public static void main(String[] args) throws InterruptedException {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 12;
		int cycles = (args.length > 1) ? Integer.parseInt(args[1]) : 1_000_000;
		List<String> contenders = (args.length > 2) ? List.of(Arrays.copyOfRange(args, 2, args.length))
				: List.of("before", "plain", "lanes", "priorities", "fairness");
		Map<String, List<Double>> nanos = new LinkedHashMap<>();
		for (String contender : contenders) {
			nanos.put(contender, new ArrayList<>());
		}
		for (int repetition = 0; repetition < repetitions + WARM_UP_REPETITIONS; repetition++) {
			for (int i = 0; i < contenders.size(); i++) {
				String contender = contenders.get((i + repetition) % contenders.size());
				double perCycle = measure(contender, cycles);
				if (repetition >= WARM_UP_REPETITIONS) {
					nanos.get(contender).add(perCycle);
				}
			}
		}
		System.out.printf(Locale.ROOT, "ns CPU per cycle, %d repetitions of %,d cycles, contenders alternated%n",
				repetitions, cycles);
		List<Double> before = nanos.get("before");
		for (Map.Entry<String, List<Double>> entry : nanos.entrySet()) {
			List<Double> values = entry.getValue();
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-10s median %6.1f (%.1f-%.1f)",
					entry.getKey(), median(values), min(values), max(values)));
			if (before != null && !entry.getKey().equals("before")) {
				List<Double> ratios = new ArrayList<>();
				for (int i = 0; i < values.size(); i++) {
					ratios.add(values.get(i) / before.get(i));
				}
				line.append(String.format(Locale.ROOT, "  ratio to before: median %.2f (%.2f-%.2f)", median(ratios),
						min(ratios), max(ratios)));
			}
			line.append("  each:");
			for (double value : values) {
				line.append(String.format(Locale.ROOT, " %.1f", value));
			}
			System.out.println(line);
		}
	}

	private static double measure(String contender, int cycles) throws InterruptedException {
		if (contender.equals("before")) {
			QueueBeforePriorities<String> queue = new QueueBeforePriorities<>();
			String[] keys = keys(false);
			for (String key : keys) {
				queue.add(key);
			}
			cyclesBefore(queue, keys, cycles / 5);
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			long cpu = threads.getCurrentThreadCpuTime();
			cyclesBefore(queue, keys, cycles);
			long used = threads.getCurrentThreadCpuTime() - cpu;
			queue.shutDown();
			return used / (double) cycles;
		}
		boolean fair = contender.equals("lanes") || contender.equals("fairness");
		boolean mixed = contender.equals("priorities") || contender.equals("fairness");
		if (!fair && !mixed && !contender.equals("plain")) {
			throw new IllegalArgumentException("unknown contender " + contender);
		}
		DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>("probe",
				RateLimiters.defaultControllerRateLimiter(), QueueMetrics.NOOP, Ticker.system(),
				fair ? (key) -> key.substring(0, key.indexOf('/')) : null);
		String[] keys = keys(fair);
		for (String key : keys) {
			queue.add(key, mixed ? Priority.LOW : Priority.NORMAL);
		}
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long cpu;
		if (mixed) {
			cyclesMixed(queue, keys, cycles / 5);
			cpu = threads.getCurrentThreadCpuTime();
			cyclesMixed(queue, keys, cycles);
		}
		else {
			cyclesNormal(queue, keys, cycles / 5);
			cpu = threads.getCurrentThreadCpuTime();
			cyclesNormal(queue, keys, cycles);
		}
		long used = threads.getCurrentThreadCpuTime() - cpu;
		queue.shutDown();
		return used / (double) cycles;
	}

	private static String[] keys(boolean fair) {
		String[] keys = new String[KEYS];
		for (int i = 0; i < KEYS; i++) {
			keys[i] = (fair ? "namespace-" + (i % 10) : "namespace") + "/object-" + i;
		}
		return keys;
	}

	private static void cyclesBefore(QueueBeforePriorities<String> queue, String[] keys, int cycles)
			throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < cycles; i++) {
			int draw = random.nextInt();
			String key = queue.get();
			queue.add(key);
			queue.add(keys[(draw >>> 2) % KEYS]);
			queue.done(key);
		}
	}

	private static void cyclesNormal(DefaultRateLimitingQueue<String> queue, String[] keys, int cycles)
			throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < cycles; i++) {
			int draw = random.nextInt();
			String key = queue.get();
			queue.add(key);
			queue.add(keys[(draw >>> 2) % KEYS]);
			queue.done(key);
		}
	}

	/**
	 * Half the adds low, half normal: the two low bits of the draw.
	 */
	private static void cyclesMixed(DefaultRateLimitingQueue<String> queue, String[] keys, int cycles)
			throws InterruptedException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int i = 0; i < cycles; i++) {
			int draw = random.nextInt();
			String key = queue.get();
			queue.add(key, ((draw & 1) != 0) ? Priority.NORMAL : Priority.LOW);
			queue.add(keys[(draw >>> 2) % KEYS], ((draw & 2) != 0) ? Priority.NORMAL : Priority.LOW);
			queue.done(key);
		}
	}

	private static double median(List<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static double min(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
	}

	private static double max(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
	}

}
