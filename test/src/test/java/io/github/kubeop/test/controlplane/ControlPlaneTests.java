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

import java.time.Duration;
import java.util.Map;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.VersionInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the control plane is the real thing: the expected kube-apiserver release,
 * RBAC enforced, a namespace per test class.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ControlPlaneTests {

	@Test
	void versionEndpointReportsTheKubernetesReleaseTheJavaClientTargets(ApiClient client) throws ApiException {
		VersionInfo version = new VersionApi(client).getCode().execute();
		assertThat(version.getGitVersion()).startsWith("v1.35.")
			.startsWith("v" + Versions.load().kubernetesMinor() + ".");
		assertThat(version.getMajor()).isEqualTo("1");
		assertThat(version.getMinor()).isEqualTo("35");
	}

	@Test
	void userWithoutBindingIsForbiddenUntilARoleBindingAllowsIt(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws ApiException {
		CoreV1Api alice = new CoreV1Api(controlPlane.apiClientFor("alice", "developers"));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> alice.listNamespacedConfigMap(namespace.name()).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403))
			.satisfies((ex) -> assertThat(ex.getResponseBody()).contains("User \\\"alice\\\" cannot list resource"));
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(admin);
		rbac.createNamespacedRole(namespace.name(), new V1Role().metadata(new V1ObjectMeta().name("configmap-reader"))
			.addRulesItem(new V1PolicyRule().addApiGroupsItem("").addResourcesItem("configmaps").addVerbsItem("list")))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name("developers-read-configmaps"))
					.roleRef(
							new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("configmap-reader"))
					.addSubjectsItem(
							new RbacV1Subject().apiGroup("rbac.authorization.k8s.io").kind("Group").name("developers")))
			.execute();
		new CoreV1Api(admin)
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("readable").labels(Map.of("test", "rbac"))))
			.execute();
		// by the test's label: a cluster with a controller-manager (K3s) adds
		// kube-root-ca.crt to every namespace
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(
					alice.listNamespacedConfigMap(namespace.name()).labelSelector("test=rbac").execute().getItems())
				.extracting((configMap) -> configMap.getMetadata().getName())
				.containsExactly("readable"));
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> alice.listNamespace().execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
	}

	@Test
	void eachTestClassGetsAnActiveNamespaceOfItsOwn(ApiClient client, TestNamespace namespace) throws ApiException {
		assertThat(namespace.name()).startsWith("control-plane-tests-");
		V1Namespace found = new CoreV1Api(client).readNamespace(namespace.name()).execute();
		assertThat(found.getStatus().getPhase()).isEqualTo("Active");
	}

}
