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

package io.github.kubeop.docs.validation;

// tag::example[]
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.kubernetes.client.custom.Quantity;

/**
 * The current version of a cache, the one stored: a memory quantity.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "docs.kubeop.io", version = "v1", kind = "Cache", storage = true)
public class CacheV1 extends CustomResource<CacheV1.Spec, Void> {

	/**
	 * What the user asks for.
	 *
	 * @param memory the memory, such as {@code 512Mi}
	 */
	public record Spec(Quantity memory) {
	}

}
// end::example[]
