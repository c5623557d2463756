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
 * How to elect a leader, with client-go's meaning of each duration.
 *
 * @param leaseNamespace the namespace of the Lease
 * @param leaseName the name of the Lease
 * @param identity this replica's identity, unique among replicas
 * @param leaseDuration how long non-leaders wait after the last observed renewal before
 * they try to take over
 * @param renewDeadline how long after the start of its last successful renewal the leader
 * gives up leadership if no renewal succeeds; every lease request is cut off at this
 * deadline
 * @param retryPeriod how often acquiring and renewing are tried
 * @author Kubeop authors
 */
public record LeaderElectionConfig(String leaseNamespace, String leaseName, String identity, Duration leaseDuration,
		Duration renewDeadline, Duration retryPeriod) {

	/**
	 * client-go's jitter factor for acquire attempts.
	 */
	static final double JITTER_FACTOR = 1.2;

	public LeaderElectionConfig {
		if (leaseDuration.compareTo(renewDeadline) <= 0) {
			throw new IllegalArgumentException("leaseDuration must be greater than renewDeadline");
		}
		if (renewDeadline.toNanos() <= (long) (JITTER_FACTOR * retryPeriod.toNanos())) {
			throw new IllegalArgumentException("renewDeadline must be greater than retryPeriod*" + JITTER_FACTOR);
		}
		if (identity == null || identity.isBlank()) {
			throw new IllegalArgumentException("identity must not be empty");
		}
	}

}
