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
 * The hub and storage version ({@code v1}) of a custom resource with two versions.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "webhooks.kubeop.test", version = "v1")
public class Widget extends CustomResource<Widget.Spec, Void> {

	static Widget of(String name, Integer size, String color) {
		Widget widget = new Widget();
		widget.getMetadata().setName(name);
		widget.setSpec(new Spec(size, color));
		return widget;
	}

	/**
	 * The desired state.
	 *
	 * @param size the size
	 * @param color the color
	 */
	public record Spec(Integer size, String color) {

	}

}
