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

import io.github.kubeop.informer.CacheSyncTimeoutException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains informers that did not sync in time.
 *
 * @author Kubeop authors
 */
class CacheSyncTimeoutFailureAnalyzer extends AbstractFailureAnalyzer<CacheSyncTimeoutException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, CacheSyncTimeoutException cause) {
		return new FailureAnalysis(
				"Informers did not sync within " + cause.getTimeout().toSeconds() + " s:\n  - "
						+ String.join("\n  - ", cause.getPending()),
				"Check that the API server is reachable from this process, or raise " + InformerBeanRegistrar.PREFIX
						+ ".sync-timeout if the initial lists are large.",
				cause);
	}

}
