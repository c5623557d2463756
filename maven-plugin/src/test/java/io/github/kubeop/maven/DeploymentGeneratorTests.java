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

package io.github.kubeop.maven;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DeploymentGenerator}: what is written with and without leader
 * election, and the settings it refuses.
 *
 * @author Kubeop authors
 */
class DeploymentGeneratorTests {

	@Test
	void withoutLeaderElectionThereIsNoLeaseRoleAndNoLeaderElectionEnvironment() {
		String yaml = new DeploymentGenerator("shop-operator", "shop/operator", "shop-operator:1.0", 1, false, 8080,
				"100m", "512Mi")
			.yaml();
		assertThat(yaml)
			.contains("kind: Namespace", "kind: Deployment", "serviceAccountName: operator",
					"path: /actuator/health/readiness", "replicas: 1")
			.doesNotContain("kind: Role", "KUBEOP_LEADER_ELECTION", "&id", "*id");
	}

	@Test
	void withLeaderElectionTheLeaseRoleIsBoundToTheServiceAccount() {
		String yaml = new DeploymentGenerator("shop-operator", "shop/operator", "shop-operator:1.0", 2, true, 8080,
				"100m", "512Mi")
			.yaml();
		assertThat(yaml).contains("kind: Role\n", "kind: RoleBinding", "name: shop-operator-leader-election",
				"- leases", "KUBEOP_LEADER_ELECTION_ENABLED");
	}

	@Test
	void serviceAccountWithoutNamespaceIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DeploymentGenerator("shop-operator", "operator", "shop-operator:1.0", 1, false, 8080,
					"100m", "512Mi"))
			.withMessageContaining("<serviceAccount> as <namespace>/<name>");
	}

}
