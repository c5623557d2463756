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

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import io.github.kubeop.leader.LeaderElectionConfig;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Turns {@code kubeop.leader-election.*} into a {@link LeaderElectionConfig}, with
 * defaults for what is unset and messages naming the property for what is wrong.
 *
 * @author Kubeop authors
 */
final class LeaderElectionSettings {

	private static final String PREFIX = "kubeop.leader-election";

	private static final Path NAMESPACE_FILE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	private LeaderElectionSettings() {
	}

	static LeaderElectionConfig config(KubeopProperties.LeaderElection properties, Environment environment) {
		Duration lease = positive(PREFIX + ".lease-duration", properties.getLeaseDuration());
		Duration renew = positive(PREFIX + ".renew-deadline", properties.getRenewDeadline());
		Duration retry = positive(PREFIX + ".retry-period", properties.getRetryPeriod());
		if (lease.compareTo(renew) <= 0) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".lease-duration", lease,
					"the lease duration must be longer than " + PREFIX + ".renew-deadline (" + renew + ")");
		}
		if (renew.toNanos() <= (long) (1.2 * retry.toNanos())) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".renew-deadline", renew,
					"the renew deadline must be longer than 1.2 times " + PREFIX + ".retry-period (" + retry + ")");
		}
		String name = (properties.getLeaseName() != null) ? properties.getLeaseName()
				: environment.getProperty("spring.application.name", "kubeop") + "-leader";
		return new LeaderElectionConfig(namespace(properties), name, identity(properties), lease, renew, retry);
	}

	private static String namespace(KubeopProperties.LeaderElection properties) {
		return namespace(properties.getLeaseNamespace());
	}

	/**
	 * Returns the namespace for Leases: the configured one, else the service account's,
	 * else {@code default}.
	 */
	static String namespace(String configured) {
		if (configured != null) {
			return configured;
		}
		try {
			return Files.isReadable(NAMESPACE_FILE) ? Files.readString(NAMESPACE_FILE).trim() : "default";
		}
		catch (IOException ex) {
			return "default";
		}
	}

	private static String identity(KubeopProperties.LeaderElection properties) {
		return identity(properties.getIdentity());
	}

	/**
	 * Returns a replica's identity: the configured one, else the host name and a random
	 * suffix.
	 */
	static String identity(String configured) {
		if (configured != null && !configured.isBlank()) {
			return configured;
		}
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			host = "kubeop";
		}
		return host + "_" + UUID.randomUUID();
	}

	static Duration positive(String property, Duration duration) {
		if (duration == null || duration.isZero() || duration.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(property, duration, "the duration must be positive");
		}
		return duration;
	}

}
