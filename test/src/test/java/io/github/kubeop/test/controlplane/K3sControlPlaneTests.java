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

package io.github.kubeop.test.controlplane;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link K3sControlPlane}; they run where a Docker engine is reachable and are
 * skipped elsewhere.
 *
 * @author Kubeop authors
 */
@EnabledIf(value = "io.github.kubeop.test.controlplane.K3sControlPlane#isDockerAvailable",
		disabledReason = "no Docker engine for K3s")
class K3sControlPlaneTests {

	@Test
	void k3sServesTheSameApiAndEnforcesRbac() throws ApiException {
		try (K3sControlPlane k3s = K3sControlPlane.start()) {
			assertThat(new VersionApi(k3s.apiClient()).getCode().execute().getGitVersion()).startsWith("v1.35.");
			assertThat(new CoreV1Api(k3s.apiClient()).listNamespace().execute().getItems()).isNotEmpty();
			assertThatExceptionOfType(ApiException.class)
				.isThrownBy(() -> new CoreV1Api(k3s.apiClientFor("alice")).listNamespace().execute())
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		}
	}

}
