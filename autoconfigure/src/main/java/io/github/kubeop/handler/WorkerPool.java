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

package io.github.kubeop.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The worker threads of one {@link Controller}: started together, told apart while idle
 * (waiting for a key, where a stop may interrupt them) from those running a call (which a
 * graceful stop lets finish), and joined with a deadline.
 *
 * @author Kubeop authors
 */
final class WorkerPool {

	private final String name;

	private final Set<Thread> idle = ConcurrentHashMap.newKeySet();

	/**
	 * Every worker still running, those of an earlier start that a graceful stop gave up
	 * on included.
	 */
	private final Set<Thread> alive = ConcurrentHashMap.newKeySet();

	private volatile List<Thread> workers = List.of();

	/**
	 * Creates a pool.
	 * @param name the name of the handler, in the threads' names
	 */
	WorkerPool(String name) {
		this.name = name;
	}

	/**
	 * Starts workers.
	 * @param count how many
	 * @param work what each runs until it ends
	 */
	void start(int count, Runnable work) {
		List<Thread> started = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Thread worker = new Thread(() -> {
				try {
					work.run();
				}
				finally {
					this.alive.remove(Thread.currentThread());
				}
			}, "kubeop-handler-" + this.name + "-" + (i + 1));
			worker.setDaemon(true);
			started.add(worker);
		}
		this.workers = List.copyOf(started);
		this.alive.addAll(started);
		started.forEach(Thread::start);
	}

	/**
	 * Waits, as an idle worker, for what the current worker takes next: a stop interrupts
	 * it only while it waits.
	 * @param <K> what is taken
	 * @param take takes it
	 * @return what was taken
	 * @throws InterruptedException if interrupted while waiting
	 */
	<K> K takeWhileIdle(Take<K> take) throws InterruptedException {
		Thread self = Thread.currentThread();
		K taken;
		this.idle.add(self);
		try {
			taken = take.take();
		}
		finally {
			this.idle.remove(self);
		}
		// an interrupt meant for the idle worker must not reach the handler
		Thread.interrupted();
		return taken;
	}

	/**
	 * Interrupts the idle workers, or every live worker, and forgets the current start's
	 * workers.
	 * @param all whether running calls are interrupted too
	 */
	void interrupt(boolean all) {
		for (Thread worker : List.copyOf(this.alive)) {
			if (all || this.idle.contains(worker)) {
				worker.interrupt();
			}
		}
		this.workers = List.of();
	}

	/**
	 * Waits for every live worker to end.
	 * @param deadlineNanos until when, in {@link System#nanoTime()}
	 * @return whether every worker ended in time
	 */
	boolean awaitEnded(long deadlineNanos) {
		boolean ended = true;
		for (Thread worker : List.copyOf(this.alive)) {
			ended &= join(worker, deadlineNanos);
		}
		return ended;
	}

	/**
	 * Returns whether no worker runs, of any start.
	 * @return whether every worker ended
	 */
	boolean noneAlive() {
		return this.alive.isEmpty();
	}

	/**
	 * Returns how many workers of the current start run.
	 * @return the number of live workers
	 */
	int live() {
		return (int) this.workers.stream().filter(Thread::isAlive).count();
	}

	private static boolean join(Thread worker, long deadlineNanos) {
		try {
			long remaining = deadlineNanos - System.nanoTime();
			if (remaining > 0) {
				TimeUnit.NANOSECONDS.timedJoin(worker, remaining);
			}
			return !worker.isAlive();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * What an idle worker waits for.
	 *
	 * @param <K> what is taken
	 */
	@FunctionalInterface
	interface Take<K> {

		/**
		 * Takes it, waiting if need be.
		 * @return what was taken
		 * @throws InterruptedException if interrupted while waiting
		 */
		K take() throws InterruptedException;

	}

}
