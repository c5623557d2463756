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

import io.github.kubeop.handler.HandlersLifecycle;
import io.github.kubeop.leader.LeaderCallbacks;
import io.github.kubeop.leader.LeaderElector;

import org.springframework.context.SmartLifecycle;

/**
 * Runs leader election once the informers have synced and hands the handler workers to
 * whoever leads: started on winning the lease, stopped (without exiting) on losing it.
 *
 * @author Kubeop authors
 */
public class LeaderElectionLifecycle implements SmartLifecycle, LeaderCallbacks {

	/**
	 * The phase leader election starts in: after the informers, before the handlers.
	 */
	public static final int PHASE = HandlersLifecycle.PHASE - 500;

	private final LeaderElector elector;

	private final HandlersLifecycle handlers;

	/**
	 * Creates a new instance.
	 * @param elector the elector, created with this object as its callbacks
	 * @param handlers the handlers whose workers follow leadership
	 */
	LeaderElectionLifecycle(java.util.function.Function<LeaderCallbacks, LeaderElector> elector,
			HandlersLifecycle handlers) {
		this.elector = elector.apply(this);
		this.handlers = handlers;
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
		this.handlers.startWorkers();
	}

	@Override
	public void stoppedLeading() {
		this.handlers.stopWorkers();
	}

	@Override
	public void start() {
		this.elector.start();
	}

	@Override
	public void stop() {
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

}
