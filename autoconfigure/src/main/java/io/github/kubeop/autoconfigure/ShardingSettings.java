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
		if (ShardingConfig.timeToStop(lease, renew).compareTo(retry) < 0) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".lease-duration", lease,
					"a member cut off from the API server gives up its keys " + PREFIX + ".renew-deadline (" + renew
							+ ") after the start of its last successful renewal, and the others may take them "
							+ "the lease duration (in whole seconds on the Lease) after it: the "
							+ ShardingConfig.timeToStop(lease, renew).toMillis()
							+ " ms between is all its calls get to stop, less than one " + PREFIX + ".retry-period ("
							+ retry + "); make the lease duration at least " + renew.plus(retry).toSeconds()
							+ "s, or shorten the renew deadline");
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
		if (sharding.getMode() == KubeopProperties.Sharding.Mode.LABELS) {
			checkInformers(sharding, properties.getInformers());
		}
		return new ShardingConfig(LeaderElectionSettings.namespace(sharding.getLeaseNamespace()), name,
				identity(sharding), lease, renew, retry, sharding.getVirtualNodes());
	}

	/**
	 * Returns the replica's identity. In the labels mode it is a label value that the
	 * informers' selectors hold before the replica joins, so it must be known up front:
	 * the configured one, else the host name (a pod's name in a cluster).
	 */
	static String identity(KubeopProperties.Sharding sharding) {
		if (sharding.getMode() != KubeopProperties.Sharding.Mode.LABELS) {
			return LeaderElectionSettings.identity(sharding.getIdentity());
		}
		String identity = sharding.getIdentity();
		if (identity == null || identity.isBlank()) {
			try {
				identity = java.net.InetAddress.getLocalHost().getHostName();
			}
			catch (java.io.IOException ex) {
				identity = "";
			}
		}
		if (identity.length() > 63 || !identity.matches("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".identity", identity,
					"in the labels mode the identity is a label value: at most 63 letters, digits, '-', '_' or "
							+ "'.', starting and ending with a letter or digit (set it to the pod's name)");
		}
		return identity;
	}

	private static void checkInformers(KubeopProperties.Sharding sharding, KubeopProperties.Informers informers) {
		if (sharding.getInformers().isEmpty()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".informers", "",
					"the labels mode needs the names of the informers whose objects are labelled with their shard");
		}
		for (String informer : sharding.getInformers()) {
			if (!informers.getResources().containsKey(informer)) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + ".informers", informer,
						"there is no informer '" + informer + "' under " + InformerBeanRegistrar.PREFIX + ".resources");
			}
		}
	}

	/**
	 * Returns the label selector of a sharded informer: its own, and its shard's label.
	 */
	static String shardSelector(String selector, String group, String identity) {
		String shard = io.github.kubeop.shard.ShardLabels.labelKey(group) + "=" + identity;
		return (selector == null || selector.isBlank()) ? shard : selector + "," + shard;
	}

}
