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
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Starts the workers of every registered handler once the informers have synced, unless
 * leader election holds them back, and stops them on shutdown: no new keys are taken and
 * running calls get the shutdown timeout to finish.
 *
 * @author Kubeop authors
 */
public class HandlersLifecycle implements SmartLifecycle {

	/**
	 * The phase handlers start in: after the informers.
	 */
	public static final int PHASE = Integer.MIN_VALUE + 2000;

	private static final Log logger = LogFactory.getLog(HandlersLifecycle.class);

	private final HandlerRegistrar registrar;

	private final Duration shutdownTimeout;

	private final boolean startWorkers;

	private volatile boolean running;

	/**
	 * Creates a new instance.
	 * @param registrar the handlers
	 * @param shutdownTimeout how long running calls may take to finish on shutdown
	 * @param startWorkers whether to start workers at once ({@code false} when leader
	 * election decides)
	 */
	public HandlersLifecycle(HandlerRegistrar registrar, Duration shutdownTimeout, boolean startWorkers) {
		this.registrar = registrar;
		this.shutdownTimeout = shutdownTimeout;
		this.startWorkers = startWorkers;
	}

	@Override
	public void start() {
		this.running = true;
		if (this.startWorkers) {
			startWorkers();
		}
	}

	/**
	 * Starts every handler's workers (leadership won).
	 */
	public void startWorkers() {
		this.registrar.startWorkers();
	}

	/**
	 * Starts every handler's workers for as long as they are wanted (leadership won, and
	 * not yet lost): see {@link HandlerRegistrar#startWorkers(BooleanSupplier)}.
	 * @param wanted whether the workers are still wanted
	 */
	public void startWorkers(BooleanSupplier wanted) {
		this.registrar.startWorkers(wanted);
	}

	/**
	 * Stops every handler's workers at once (leadership lost): running calls are
	 * interrupted, and must end before another replica can take the lease.
	 * @param timeLeft how long the calls may take to end: the time until another replica
	 * can take the lease
	 * @return whether every call ended in time
	 */
	public boolean interruptWorkers(Duration timeLeft) {
		boolean stopped = this.registrar.interruptWorkers(timeLeft);
		if (!stopped) {
			logger.error("Handler calls still run although leadership was lost; they ignored the interrupt and "
					+ "may now run alongside the new leader's");
		}
		return stopped;
	}

	/**
	 * Stops every handler's workers on shutdown while this replica still holds the lease:
	 * running calls may finish within the shutdown timeout, but only during the first
	 * half of the time left before another replica can take the lease; calls still
	 * running then are interrupted and waited for during the second half.
	 * @param timeLeft the time until another replica can take the lease
	 * @return whether every call ended in time
	 */
	public boolean finishWorkers(Duration timeLeft) {
		Duration half = timeLeft.dividedBy(2);
		Duration graceful = (this.shutdownTimeout.compareTo(half) < 0) ? this.shutdownTimeout : half;
		if (this.registrar.stopWorkers(graceful)) {
			return true;
		}
		return interruptWorkers(timeLeft.minus(graceful));
	}

	@Override
	public void stop() {
		if (!this.registrar.shutdown(this.shutdownTimeout)) {
			logger.warn("Handlers did not finish within " + this.shutdownTimeout.toSeconds() + " s of shutdown");
		}
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
