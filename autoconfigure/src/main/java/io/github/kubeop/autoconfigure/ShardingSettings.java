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

import io.github.kubeop.shard.ShardingConfig;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Turns {@code kubeop.sharding.*} into a {@link ShardingConfig}, with defaults for what
 * is unset and messages naming the property for what is wrong.
 *
 * @author Kubeop authors
 */
final class ShardingSettings {

	static final String PREFIX = "kubeop.sharding";

	private ShardingSettings() {
	}

	static ShardingConfig config(KubeopProperties properties, Environment environment) {
		KubeopProperties.Sharding sharding = properties.getSharding();
		if (properties.getLeaderElection().isEnabled()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".enabled", true,
					"sharding spreads keys over every replica, leader election gives them all to one: "
							+ "turn off kubeop.leader-election.enabled or " + PREFIX + ".enabled");
		}
		Duration lease = LeaderElectionSettings.positive(PREFIX + ".lease-duration", sharding.getLeaseDuration());
		Duration renew = LeaderElectionSettings.positive(PREFIX + ".renew-deadline", sharding.getRenewDeadline());
		Duration retry = LeaderElectionSettings.positive(PREFIX + ".retry-period", sharding.getRetryPeriod());
		if (lease.compareTo(renew) <= 0) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".lease-duration", lease,
					"the lease duration must be longer than " + PREFIX + ".renew-deadline (" + renew + ")");
		}
		if (renew.compareTo(retry) <= 0) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".renew-deadline", renew,
					"the renew deadline must be longer than " + PREFIX + ".retry-period (" + retry + ")");
		}
		if (sharding.getVirtualNodes() < 1) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".virtual-nodes", sharding.getVirtualNodes(),
					"every replica needs at least one point on the ring");
		}
		String name = (sharding.getName() != null && !sharding.getName().isBlank()) ? sharding.getName()
				: environment.getProperty("spring.application.name", "kubeop");
		if (!name.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?") || name.length() > 63) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".name", name,
					"the name is a label value and a Lease name prefix: lower-case letters, digits and '-', "
							+ "at most 63 characters (set it when spring.application.name does not fit)");
		}
		return new ShardingConfig(LeaderElectionSettings.namespace(sharding.getLeaseNamespace()), name,
				LeaderElectionSettings.identity(sharding.getIdentity()), lease, renew, retry,
				sharding.getVirtualNodes());
	}

}
