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

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The per-call timeout of a handler, as controller-runtime's
 * {@code ReconciliationTimeout}: a call still running after it has its worker thread
 * interrupted, the way a lost leadership interrupts running calls, and fails, to be
 * retried with the queue's back-off. Blocking calls (the API client's requests,
 * {@code Thread.sleep}, locks taken interruptibly) end at the interrupt; code that never
 * looks at the interrupt runs on, and its call still counts as failed once it returns.
 *
 * @author Kubeop authors
 */
final class CallTimeout {

	/**
	 * The timeout when none is configured: long past any call that should hold a worker,
	 * short of a call that hangs for good holding its key (and, with one worker, its
	 * handler).
	 */
	static final Duration DEFAULT = Duration.ofMinutes(5);

	/**
	 * No timeout.
	 */
	static final CallTimeout NONE = new CallTimeout(Duration.ZERO);

	private static final ScheduledThreadPoolExecutor timer = timer();

	private final Duration timeout;

	/**
	 * Creates a timeout.
	 * @param timeout how long a call may run, zero for no limit
	 * @throws IllegalArgumentException if the timeout is negative
	 */
	CallTimeout(Duration timeout) {
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("a call timeout must not be negative, but is " + timeout);
		}
		this.timeout = timeout;
	}

	/**
	 * Returns the timeout.
	 * @return the timeout, zero for none
	 */
	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Starts the clock of a call running on the current thread.
	 * @return the call's deadline, to be {@link Deadline#end() ended} when the call
	 * returns
	 */
	Deadline start() {
		Deadline deadline = new Deadline(Thread.currentThread());
		if (!this.timeout.isZero()) {
			deadline.task = timer.schedule(deadline::expire, this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		return deadline;
	}

	private static ScheduledThreadPoolExecutor timer() {
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "kubeop-handler-call-timeout");
			thread.setDaemon(true);
			return thread;
		});
		// calls mostly end in time: their cancelled clocks must not pile up
		timer.setRemoveOnCancelPolicy(true);
		// no thread is left behind once no call runs, after a shutdown in particular
		timer.setKeepAliveTime(1, TimeUnit.SECONDS);
		timer.allowCoreThreadTimeOut(true);
		return timer;
	}

	/**
	 * The deadline of one call.
	 */
	final class Deadline {

		private final Thread worker;

		private volatile ScheduledFuture<?> task;

		private boolean ended;

		private boolean expired;

		private Deadline(Thread worker) {
			this.worker = worker;
		}

		/**
		 * Interrupts the call, unless it has ended: the worker never sees an interrupt
		 * meant for a call that returned.
		 */
		private synchronized void expire() {
			if (!this.ended) {
				this.expired = true;
				this.worker.interrupt();
			}
		}

		/**
		 * Ends the call's clock, on the worker thread: an interrupt this deadline sent is
		 * cleared, so that it reaches nothing after the call.
		 * @return whether the call ran past its timeout
		 */
		synchronized boolean end() {
			if (!this.ended) {
				this.ended = true;
				ScheduledFuture<?> scheduled = this.task;
				if (scheduled != null) {
					scheduled.cancel(false);
				}
				if (this.expired) {
					Thread.interrupted();
				}
			}
			return this.expired;
		}

		/**
		 * Returns the timeout the call ran past.
		 * @return the timeout
		 */
		Duration timeout() {
			return CallTimeout.this.timeout;
		}

	}

	/**
	 * A call that ran past its timeout and was interrupted.
	 */
	static final class ExceededException extends RuntimeException {

		ExceededException(Duration timeout, Throwable cause) {
			super("The call ran past its timeout of " + timeout + " and was interrupted; it is retried with back-off",
					cause);
		}

	}

}
