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

package io.github.kubeop.shard;

import java.time.Duration;

/**
 * How the replicas of one operator share its keys.
 *
 * @param leaseNamespace the namespace of the member and ring Leases
 * @param name the shard group's name: replicas with the same name share keys
 * @param identity this replica's identity, unique among replicas
 * @param leaseDuration how long other replicas wait after the last observed renewal of a
 * member's Lease before they take its keys
 * @param renewDeadline how long after the start of its last successful renewal a member
 * gives up every key if no renewal succeeds; every Lease request is cut off at it
 * @param retryPeriod how often members renew and look at the ring
 * @param virtualNodes how many points each member stands on in the hash ring
 * @author Kubeop authors
 */
public record ShardingConfig(String leaseNamespace, String name, String identity, Duration leaseDuration,
		Duration renewDeadline, Duration retryPeriod, int virtualNodes) {

	public ShardingConfig {
		if (leaseDuration.compareTo(renewDeadline) <= 0) {
			throw new IllegalArgumentException("leaseDuration must be greater than renewDeadline");
		}
		if (renewDeadline.compareTo(retryPeriod) <= 0) {
			throw new IllegalArgumentException("renewDeadline must be greater than retryPeriod");
		}
		if (timeToStop(leaseDuration, renewDeadline).compareTo(retryPeriod) < 0) {
			throw new IllegalArgumentException(
					"leaseDuration (in whole seconds) must exceed renewDeadline by at least retryPeriod");
		}
		if (identity == null || identity.isBlank()) {
			throw new IllegalArgumentException("identity must not be empty");
		}
		if (virtualNodes < 1) {
			throw new IllegalArgumentException("virtualNodes must be at least 1");
		}
	}

	/**
	 * Returns how long a member cut off from the API server has to stop its calls: it
	 * gives up its keys the renew deadline after the start of its last successful
	 * renewal, and the others may take them the lease duration after they saw that
	 * renewal, which cannot come before its start. Others read the lease duration from
	 * the member's Lease, in whole seconds.
	 * @param leaseDuration the lease duration
	 * @param renewDeadline the renew deadline
	 * @return the time between giving up and the earliest take-over, negative if others
	 * may take the keys first
	 */
	public static Duration timeToStop(Duration leaseDuration, Duration renewDeadline) {
		return Duration.ofSeconds(Math.max(1, leaseDuration.toSeconds())).minus(renewDeadline);
	}

}
