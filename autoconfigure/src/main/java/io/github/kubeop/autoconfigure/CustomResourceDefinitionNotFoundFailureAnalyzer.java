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

import io.github.kubeop.informer.CustomResourceDefinitionNotFoundException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a typed custom resource class whose CustomResourceDefinition the API server
 * does not have.
 *
 * @author Kubeop authors
 */
class CustomResourceDefinitionNotFoundFailureAnalyzer
		extends AbstractFailureAnalyzer<CustomResourceDefinitionNotFoundException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, CustomResourceDefinitionNotFoundException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Apply the CustomResourceDefinition '" + cause.getCrdName() + "' generated for "
						+ cause.getType().getName() + " to the cluster (kubectl apply -f <the generated CRD file>), "
						+ "or check the group, version and kind of its @KubernetesResource annotation.",
				cause);
	}

}
