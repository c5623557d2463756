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

package io.github.kubeop.webhook;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;

/**
 * The older version ({@code v1alpha1}) of {@link Widget}: its size was called
 * {@code replicas}, and its color was written as {@code colour}.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "webhooks.kubeop.test", version = "v1alpha1", kind = "Widget")
public class WidgetV1alpha1 extends CustomResource<WidgetV1alpha1.Spec, Void> {

	/**
	 * The desired state.
	 *
	 * @param replicas the size
	 * @param colour the color
	 */
	public record Spec(Integer replicas, String colour) {

	}

}
