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

package io.github.kubeop.sample;

import java.nio.file.Files;
import java.nio.file.Path;

import io.github.kubeop.autoconfigure.KubernetesConnectionDetails;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.ControlPlanes;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Development-time connection: a local control plane when no cluster is configured
 * ({@code KUBECONFIG}, {@code ~/.kube/config} or {@code kubeop.client.kubeconfig}). It
 * behaves like a cluster (controller-manager, scheduler and simulated nodes), so that the
 * example site's pods run and the site becomes {@code Ready}; the
 * {@value #COMPONENTS_PROPERTY} system property picks other components (such as
 * {@code none} for kube-apiserver and etcd only).
 *
 * @author Kubeop authors
 */
@TestConfiguration(proxyBeanMethods = false)
@Conditional(LocalControlPlaneConfiguration.NoClusterConfigured.class)
class LocalControlPlaneConfiguration {

	/**
	 * The system property that names the control plane's optional components.
	 */
	static final String COMPONENTS_PROPERTY = "kubeop.sample.control-plane.components";

	@Bean
	ControlPlane localControlPlane() {
		return sharedControlPlane();
	}

	/**
	 * Returns the local control plane, with the components that
	 * {@value #COMPONENTS_PROPERTY} names, all by default.
	 * @return the shared control plane
	 */
	static ControlPlane sharedControlPlane() {
		return ControlPlanes.shared(Component.parse(System.getProperty(COMPONENTS_PROPERTY, "all")));
	}

	@Bean
	KubernetesConnectionDetails localControlPlaneConnectionDetails(ControlPlane controlPlane) {
		return controlPlane::kubeconfig;
	}

	static boolean clusterConfigured() {
		String kubeconfig = System.getenv("KUBECONFIG");
		return (kubeconfig != null && !kubeconfig.isBlank())
				|| Files.exists(Path.of(System.getProperty("user.home"), ".kube", "config"));
	}

	static class NoClusterConfigured implements org.springframework.context.annotation.Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return context.getEnvironment().getProperty("kubeop.client.kubeconfig") == null && !clusterConfigured();
		}

	}

}
