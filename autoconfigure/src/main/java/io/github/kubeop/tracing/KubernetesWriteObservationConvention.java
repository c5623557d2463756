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
package io.github.kubeop.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a write request. A bean of this type replaces
 * {@link DefaultKubernetesWriteObservationConvention}, which it may extend.
 *
 * @author Kubeop authors
 */
public interface KubernetesWriteObservationConvention extends ObservationConvention<KubernetesWriteContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof KubernetesWriteContext;
	}

}
