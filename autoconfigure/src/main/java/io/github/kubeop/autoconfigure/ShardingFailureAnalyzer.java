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

import io.github.kubeop.shard.ShardingException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a replica that cannot join its shard group.
 *
 * @author Kubeop authors
 */
class ShardingFailureAnalyzer extends AbstractFailureAnalyzer<ShardingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ShardingException cause) {
		return new FailureAnalysis("The replica could not join its shard group: " + cause.getMessage(),
				"Set " + ShardingSettings.PREFIX + ".lease-namespace to a namespace that exists and grant the "
						+ "operator get, list, create, update and delete on leases (coordination.k8s.io) there, "
						+ "or turn off " + ShardingSettings.PREFIX + ".enabled.",
				cause);
	}

}
