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

import io.github.kubeop.informer.InformerStartupException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an informer the API server refuses to serve: a malformed selector or missing
 * RBAC permission.
 *
 * @author Kubeop authors
 */
class InformerStartupFailureAnalyzer extends AbstractFailureAnalyzer<InformerStartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InformerStartupException cause) {
		String property = InformerBeanRegistrar.PREFIX + ".resources." + cause.getInformerName();
		String reason = cause.getReason();
		String action;
		if (reason.startsWith("403")) {
			action = "Grant the identity Kubeop runs as the 'list' and 'watch' verbs on this resource in the "
					+ "namespaces of " + property + ".namespaces (a Role and RoleBinding per namespace, or a "
					+ "ClusterRole and ClusterRoleBinding for all namespaces), or narrow " + property + ".namespaces.";
		}
		else if (reason.startsWith("400")) {
			action = "Fix " + property + ".label-selector or " + property + ".field-selector: the API server "
					+ "could not parse it, or does not support that field for this resource.";
		}
		else {
			action = "Check " + property + " against what the API server serves.";
		}
		return new FailureAnalysis(cause.getMessage(), action, cause);
	}

}
