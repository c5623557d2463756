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

package io.github.kubeop.informer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.test.KubernetesTest;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ResourceDiscovery} against a real API server: the group of a generated
 * model's kind is found in one request for every group, not one per group version.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ResourceDiscoveryIntegrationTests {

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private ResourceDiscovery discovery;

	@BeforeEach
	void countRequests(ApiClient admin) {
		ApiClient client = new ApiClient(admin.getHttpClient().newBuilder().addInterceptor((chain) -> {
			this.requests.add(chain.request().url().encodedPath());
			return chain.proceed(chain.request());
		}).build());
		client.setBasePath(admin.getBasePath());
		this.discovery = new ResourceDiscovery(client);
	}

	@Test
	void findsTheGroupOfAKindInOneRequestForEveryGroup() {
		assertThat(this.discovery.apiVersionOf("v1", "Deployment")).isEqualTo("apps/v1");
		assertThat(this.discovery.apiVersionOf("v1", "Role")).isEqualTo("rbac.authorization.k8s.io/v1");
		// the core group first, then every other group at once
		assertThat(this.requests).containsExactly("/api/v1", "/apis", "/apis");
		assertThat(this.discovery.resolve("apps/v1", "deployments").namespaced()).isTrue();
		assertThat(this.discovery.resolve("rbac.authorization.k8s.io/v1", "ClusterRole").namespaced()).isFalse();
		assertThat(this.requests).hasSize(3);
	}

	@Test
	void findsKindsOfTheCoreGroupThere() {
		assertThat(this.discovery.apiVersionOf("v1", "Pod")).isEqualTo("v1");
		assertThat(this.requests).containsExactly("/api/v1");
	}

	@Test
	void failsForAKindNoGroupServes() {
		assertThatExceptionOfType(UnknownResourceException.class)
			.isThrownBy(() -> this.discovery.apiVersionOf("v1", "NoSuchKind"))
			.withMessageContaining("no API group serves NoSuchKind in version v1");
	}

}
