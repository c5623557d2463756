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

package io.github.kubeop.docs.informers;

// tag::example[]
import io.github.kubeop.annotation.InformerTransform;
import io.github.kubeop.informer.TransformFunction;
import io.kubernetes.client.openapi.models.V1Pod;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Drops the environment of every container before pods are cached: the operator never
 * reads it, and it is most of a pod spec.
 *
 * @author Kubeop authors
 */
@Configuration(proxyBeanMethods = false)
public class DropEnvironment {

	@Bean
	@InformerTransform("pods")
	TransformFunction<V1Pod> dropEnvironment() {
		return (pod) -> {
			if (pod.getSpec() != null) {
				pod.getSpec().getContainers().forEach((container) -> container.setEnv(null));
			}
			return pod;
		};
	}

}
// end::example[]
