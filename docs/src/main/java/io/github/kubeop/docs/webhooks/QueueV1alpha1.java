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

package io.github.kubeop.docs.webhooks;

// tag::example[]
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;

/**
 * A queue, version {@code v1alpha1}, which called its capacity {@code size}.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "docs.kubeop.io", version = "v1alpha1", kind = "Queue")
public class QueueV1alpha1 extends CustomResource<QueueV1alpha1.Spec, Void> {

	/**
	 * What the user asks for.
	 *
	 * @param size how many messages the queue holds
	 */
	public record Spec(Integer size) {
	}

}
// end::example[]
