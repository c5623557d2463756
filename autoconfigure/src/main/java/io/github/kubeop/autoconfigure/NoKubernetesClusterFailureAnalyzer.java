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

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains how to configure a cluster when none is.
 *
 * @author Kubeop authors
 */
class NoKubernetesClusterFailureAnalyzer extends AbstractFailureAnalyzer<NoKubernetesClusterException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoKubernetesClusterException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Point Kubeop at a cluster: set the KUBECONFIG environment variable or the property "
						+ "kubeop.client.kubeconfig to a kubeconfig file, create ~/.kube/config (kubectl does), "
						+ "choose another context with kubeop.client.context, or define an ApiClient bean. "
						+ "Kubeop never falls back to localhost:8080.",
				cause);
	}

}
