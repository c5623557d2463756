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

package io.github.kubeop.test.autoconfigure;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.kubeop.autoconfigure.KubernetesConnectionDetails;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.ControlPlanes;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Connects a {@link KubeopOperatorTest} application to the shared control plane and
 * applies its manifests before the context refreshes: the custom resources they define
 * are served (no informer meets {@code 429 storage is (re)initializing}) and known to
 * kube-controller-manager (see {@link ControlPlane#refreshDiscovery()}) by the time the
 * operator starts; the application's webhooks are served on a free port and registered
 * with the control plane.
 *
 * @author Kubeop authors
 */
class OperatorTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		MergedAnnotation<KubeopOperatorTest> annotation = MergedAnnotations
			.from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
			.get(KubeopOperatorTest.class);
		if (!annotation.isPresent()) {
			return null;
		}
		Set<Component> components = EnumSet.noneOf(Component.class);
		components.addAll(Arrays.asList(annotation.getEnumArray("components", Component.class)));
		return new OperatorTestContextCustomizer(List.of(annotation.getStringArray("manifests")), components);
	}

	/**
	 * Applies the manifests and registers the control plane's connection details.
	 *
	 * @param manifests the manifest paths
	 * @param components the control plane components to run
	 */
	record OperatorTestContextCustomizer(List<String> manifests,
			Set<Component> components) implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
			ControlPlane controlPlane = ControlPlanes.shared(this.components);
			if (!this.manifests.isEmpty()) {
				Manifests applier = new Manifests(controlPlane.apiClient());
				this.manifests.forEach((manifest) -> applier.apply(Path.of(manifest), "default"));
			}
			// once for all the manifests, and also for definitions that earlier tests
			// applied
			controlPlane.refreshDiscovery();
			context.getBeanFactory()
				.registerSingleton("kubeopTestConnectionDetails",
						(KubernetesConnectionDetails) controlPlane::kubeconfig);
			// last, so that the test's own properties win: the application's webhooks are
			// served on a free port and registered with the control plane
			context.getEnvironment()
				.getPropertySources()
				.addLast(new MapPropertySource("kubeopOperatorTestWebhooks",
						Map.of("kubeop.webhooks.port", "0", "kubeop.webhooks.local.register", "true")));
		}

	}

}
