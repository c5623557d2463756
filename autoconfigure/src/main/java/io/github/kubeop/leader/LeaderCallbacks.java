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

package io.github.kubeop.leader;

import java.time.Duration;

/**
 * Told when this replica becomes leader and when it stops being leader.
 * {@link #startedLeading()} is called on a thread of its own, so that it may take its
 * time without holding back renewals, and may still run when leadership is lost: what it
 * starts must check {@link LeaderElector#isLeader()} and be stopped by
 * {@link #stoppedLeading(Duration)}. The others are called on the elector's thread;
 * {@link #stoppedLeading(Duration)} may take the time it is given, {@link #newLeader}
 * must return promptly.
 *
 * @author Kubeop authors
 */
public interface LeaderCallbacks {

	/**
	 * This replica holds the lease.
	 */
	void startedLeading();

	/**
	 * This replica no longer holds the lease (lost, taken, or released on shutdown).
	 * Whatever acts as leader must stop within the time left.
	 * @param timeLeft how long until another replica may take the lease, as that replica
	 * judges it; on stop, the lease is released only after this method returns
	 */
	void stoppedLeading(Duration timeLeft);

	/**
	 * Another replica holds the lease.
	 * @param identity the leader's identity
	 */
	default void newLeader(String identity) {
	}

}
