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

import io.github.kubeop.handler.FinalizerPermissionException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a cleanup method whose finalizer the operator may not write.
 *
 * @author Kubeop authors
 */
class FinalizerPermissionFailureAnalyzer extends AbstractFailureAnalyzer<FinalizerPermissionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, FinalizerPermissionException cause) {
		String where = (cause.getNamespace() != null) ? "in namespace " + cause.getNamespace() : "cluster-wide";
		String kind = (cause.getNamespace() != null) ? "a Role" : "a ClusterRole";
		return new FailureAnalysis(cause.getMessage() + ": it adds and removes the finalizer with a patch.",
				"Grant the operator's identity the '" + cause.getVerb() + "' verb on resource '" + cause.getResource()
						+ "' in API group '" + cause.getGroup() + "' " + where + " (" + kind + " rule: apiGroups [\""
						+ cause.getGroup() + "\"], resources [\"" + cause.getResource() + "\"], verbs [\""
						+ cause.getVerb() + "\"]), or remove @Cleanup from " + cause.getMethod() + ".",
				cause);
	}

}
