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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of {@link ServerReachability}: while the server cannot be reached, one loop at a
 * time probes it, on the server's schedule; the first answer ends every loop's wait.
 *
 * @author Kubeop authors
 */
class ServerReachabilityTests {

	@Test
	void oneLoopProbesAnUnreachableServerAndAnAnswerReleasesEveryLoop() throws Exception {
		AtomicLong clock = new AtomicLong();
		ServerReachability reachability = new ServerReachability(clock::get);
		List<String> released = new CopyOnWriteArrayList<>();
		List<Thread> loops = List.of(loop(reachability, "a", released), loop(reachability, "b", released),
				loop(reachability, "c", released));
		loops.forEach(Thread::start);
		await().atMost(Duration.ofSeconds(10)).until(() -> reachability.waiting() == 3);
		assertThat(released).as("released before the first probe is due").isEmpty();
		// the clock stands still from here: the probe can never time out
		clock.addAndGet(Duration.ofSeconds(1).toNanos());
		await().atMost(Duration.ofSeconds(10)).until(() -> released.size() == 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> reachability.waiting() == 2);
		assertThat(released).as("loops released to probe").hasSize(1);
		reachability.answered();
		await().atMost(Duration.ofSeconds(10)).until(() -> released.size() == 3);
		assertThat(reachability.waiting()).isZero();
		for (Thread loop : loops) {
			loop.join(10_000);
		}
	}

	@Test
	void probeAnsweredWithAnHttpErrorReleasesEveryWaitingLoop() throws Exception {
		AtomicLong clock = new AtomicLong();
		ServerReachability reachability = new ServerReachability(clock::get);
		List<String> released = new CopyOnWriteArrayList<>();
		AtomicBoolean probed = new AtomicBoolean();
		List<Thread> loops = new ArrayList<>();
		for (String name : List.of("a", "b", "c")) {
			Thread loop = new Thread(() -> {
				try {
					reachability.awaitRetry(Duration.ZERO, ServerReachability.Failure.UNREACHABLE);
					released.add(name);
					if (probed.compareAndSet(false, true)) {
						// the probe is answered with an error (a 503 of a busy server):
						// this loop backs off an hour on its own clock, which stands
						// still, so it waits until interrupted
						reachability.awaitRetry(Duration.ofHours(1), ServerReachability.Failure.ANSWERED);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}, "loop-" + name);
			loop.setDaemon(true);
			loops.add(loop);
		}
		loops.forEach(Thread::start);
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> reachability.waiting() == 3);
			// one loop's turn to probe; the clock stands still from here
			clock.addAndGet(Duration.ofSeconds(1).toNanos());
			await().atMost(Duration.ofSeconds(10)).until(probed::get);
			// the server answered: the others try again at once, each on its own clock
			// from then on, rather than wait out the prober's hour
			await().atMost(Duration.ofSeconds(10)).until(() -> released.size() == 3);
			assertThat(reachability.waiting()).isZero();
		}
		finally {
			loops.forEach(Thread::interrupt);
			for (Thread loop : loops) {
				loop.join(10_000);
			}
		}
	}

	@Test
	void failureTheServerAnsweredWaitsForTheLoopsOwnDelayNotForOthers() throws Exception {
		ServerReachability reachability = new ServerReachability();
		long started = System.nanoTime();
		reachability.awaitRetry(Duration.ofMillis(200), ServerReachability.Failure.ANSWERED);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		assertThat(reachability.waiting()).isZero();
	}

	private static Thread loop(ServerReachability reachability, String name, List<String> released) {
		Thread thread = new Thread(() -> {
			try {
				reachability.awaitRetry(Duration.ZERO, ServerReachability.Failure.UNREACHABLE);
				released.add(name);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "loop-" + name);
		thread.setDaemon(true);
		return thread;
	}

}
