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

package io.github.kubeop.autoconfigure;

import java.time.Duration;
import java.util.function.Function;

import io.github.kubeop.handler.HandlersLifecycle;
import io.github.kubeop.leader.LeaderCallbacks;
import io.github.kubeop.leader.LeaderElector;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Runs leader election once the informers have synced and hands the handler workers to
 * whoever leads: started on winning the lease; on losing it, running calls are
 * interrupted and must end before another replica can take the lease, then the replica
 * competes again or, with {@code kubeop.leader-election.exit-on-loss}, exits.
 *
 * @author Kubeop authors
 */
public class LeaderElectionLifecycle implements SmartLifecycle, LeaderCallbacks {

	/**
	 * The phase leader election starts in: after the informers, before the handlers.
	 */
	public static final int PHASE = HandlersLifecycle.PHASE - 500;

	private static final Log logger = LogFactory.getLog(LeaderElectionLifecycle.class);

	private final LeaderElector elector;

	private final HandlersLifecycle handlers;

	private final Runnable exit;

	private volatile boolean stopping;

	private volatile boolean exiting;

	/**
	 * Creates a new instance.
	 * @param elector the elector, created with this object as its callbacks
	 * @param handlers the handlers whose workers follow leadership
	 * @param exit run once running calls have been stopped after leadership was lost (not
	 * on shutdown), to exit the process; {@code null} to compete for the lease again
	 */
	LeaderElectionLifecycle(Function<LeaderCallbacks, LeaderElector> elector, HandlersLifecycle handlers,
			Runnable exit) {
		this.elector = elector.apply(this);
		this.handlers = handlers;
		this.exit = exit;
	}

	/**
	 * Returns the elector, for health and metrics.
	 * @return the elector
	 */
	public LeaderElector elector() {
		return this.elector;
	}

	@Override
	public void startedLeading() {
		// on the activation thread, while the elector renews: a loss, a shutdown or an
		// exit ends the start before the next handler, and the loss's stop comes after
		// whatever handler is starting (a process on its way out does not lead again,
		// even if the lease comes back)
		this.handlers.startWorkers(() -> !this.exiting && !this.stopping && this.elector.isLeader());
	}

	@Override
	public void stoppedLeading(Duration timeLeft) {
		if (this.stopping) {
			// shutdown: the lease is released only after this returns, so running calls
			// may finish while it still keeps other replicas out
			this.handlers.finishWorkers(timeLeft);
			return;
		}
		this.handlers.interruptWorkers(timeLeft);
		if (this.exit != null) {
			this.exiting = true;
			this.exit.run();
		}
	}

	@Override
	public void start() {
		this.stopping = false;
		this.elector.start();
	}

	@Override
	public void stop() {
		this.stopping = true;
		this.elector.stop();
	}

	@Override
	public boolean isRunning() {
		return this.elector.isRunning();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Exits the process, as a controller-runtime manager does on lost leadership: the
	 * context is closed on a thread of its own (the elector's thread is waited for while
	 * it closes) and the JVM exits with status 1.
	 * @param context the context to close
	 * @return the exit action
	 */
	static Runnable exit(ConfigurableApplicationContext context) {
		return () -> {
			logger.error("Leadership lost; exiting as kubeop.leader-election.exit-on-loss asks");
			Thread exit = new Thread(() -> System.exit(SpringApplication.exit(context, () -> 1)),
					"kubeop-leader-election-exit");
			exit.start();
		};
	}

}
