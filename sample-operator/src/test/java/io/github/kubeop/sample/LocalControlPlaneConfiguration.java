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
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.ControlPlanes;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Development-time connection: a local control plane when no cluster is configured
 * ({@code KUBECONFIG}, {@code ~/.kube/config} or {@code kubeop.client.kubeconfig}).
 *
 * @author Kubeop authors
 */
@TestConfiguration(proxyBeanMethods = false)
@Conditional(LocalControlPlaneConfiguration.NoClusterConfigured.class)
class LocalControlPlaneConfiguration {

	@Bean
	ControlPlane localControlPlane() {
		return ControlPlanes.shared();
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
