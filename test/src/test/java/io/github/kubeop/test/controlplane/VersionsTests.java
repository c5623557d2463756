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

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Versions}.
 *
 * @author Kubeop authors
 */
class VersionsTests {

	@Test
	void committedModulesBuildKubernetes135AndEtcd36() {
		Versions versions = Versions.load();
		assertThat(versions.kubernetes()).startsWith("v1.35.");
		assertThat(versions.etcd()).startsWith("v3.6.");
		assertThat(versions.isCommitted()).isTrue();
		assertThat(versions.sources().get("kube-apiserver/go.mod"))
			.contains("k8s.io/client-go => k8s.io/client-go v0.35.");
	}

	@Test
	void anotherKubernetesVersionRewritesTheRequirementAndEveryStagingReplacement() {
		Versions versions = Versions.load().withKubernetes("1.36.1");
		String goMod = versions.sources().get("kube-apiserver/go.mod");
		assertThat(versions.kubernetes()).isEqualTo("v1.36.1");
		assertThat(versions.kubernetesMinor()).isEqualTo("1.36");
		assertThat(goMod).contains("k8s.io/kubernetes v1.36.1")
			.contains("k8s.io/api => k8s.io/api v0.36.1")
			.contains("k8s.io/sample-controller => k8s.io/sample-controller v0.36.1")
			.doesNotContain("v0.35.");
		assertThat(versions.isCommitted()).isFalse();
		assertThat(versions.sourceDigest()).isNotEqualTo(Versions.load().sourceDigest());
	}

	@Test
	void changedComponentSourcesRebuildOnlyThatComponent() {
		Versions versions = Versions.load();
		Map<String, String> sources = new LinkedHashMap<>(versions.sources());
		sources.put("kwok/main.go", sources.get("kwok/main.go") + "\n// changed\n");
		Versions changed = new Versions(versions.kubernetes(), versions.etcd(), sources);
		assertThat(changed.kwok()).isEqualTo("v0.7.0");
		assertThat(changed.digest(Versions.KWOK_FILES)).isNotEqualTo(versions.digest(Versions.KWOK_FILES));
		assertThat(changed.digest(Versions.CORE_FILES)).isEqualTo(versions.digest(Versions.CORE_FILES));
		assertThat(changed.digest(Versions.CONTROLLER_FILES)).isEqualTo(versions.digest(Versions.CONTROLLER_FILES));
	}

	@Test
	void malformedVersionNamesTheSetting() {
		assertThatIllegalArgumentException().isThrownBy(() -> Versions.load().withKubernetes("latest"))
			.withMessageContaining("kubeop.test.kubernetes-version")
			.withMessageContaining("'latest'");
	}

}
