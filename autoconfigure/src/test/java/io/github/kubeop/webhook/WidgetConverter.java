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

/**
 * Converts {@link WidgetV1alpha1} to and from the hub {@link Widget}.
 *
 * @author Kubeop authors
 */
public class WidgetConverter implements VersionConverter<WidgetV1alpha1, Widget> {

	@Override
	public Widget toHub(WidgetV1alpha1 spoke) {
		Widget hub = new Widget();
		hub.setMetadata(spoke.getMetadata());
		WidgetV1alpha1.Spec spec = spoke.getSpec();
		hub.setSpec((spec != null) ? new Widget.Spec(spec.replicas(), spec.colour()) : null);
		return hub;
	}

	@Override
	public WidgetV1alpha1 fromHub(Widget hub) {
		WidgetV1alpha1 spoke = new WidgetV1alpha1();
		spoke.setMetadata(hub.getMetadata());
		Widget.Spec spec = hub.getSpec();
		spoke.setSpec((spec != null) ? new WidgetV1alpha1.Spec(spec.size(), spec.color()) : null);
		return spoke;
	}

}
