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

package io.github.kubeop.autoconfigure;

import java.util.List;

import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.handler.FinalizerPermissionException;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.kubeop.autoconfigure.InformerConfigurationFailureTests.rootCause;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link Cleanup} method whose finalizer the operator may not write fails startup,
 * against a real API server whose RBAC decides, with a message naming the permission.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class CleanupPermissionTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void cleanupWithoutPermissionToPatchNamesTheMissingPermission(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		String user = grant(controlPlane, namespace, "cleaner-without-patch", "get", "list", "watch");
		this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientFor(user))
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Cleaner.class)
			.run((context) -> {
				FinalizerPermissionException failure = rootCause(context.getStartupFailure(),
						FinalizerPermissionException.class);
				assertThat(failure.getMessage()).contains("Cleaner.cleanUp(V1ConfigMap)")
					.contains("sample.kubeop.io/cleanup")
					.contains("may not 'patch' resource 'configmaps' in API group ''")
					.contains("in namespace '" + namespace.name() + "'");
				FailureAnalysis analysis = new FinalizerPermissionFailureAnalyzer().analyze(failure);
				assertThat(analysis.getAction()).contains("'patch' verb on resource 'configmaps'")
					.contains("in namespace " + namespace.name())
					.contains("Cleaner.cleanUp(V1ConfigMap)");
			});
	}

	@Test
	void cleanupWithPermissionToPatchStarts(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		String user = grant(controlPlane, namespace, "cleaner-with-patch", "get", "list", "watch", "patch");
		this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientFor(user))
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Cleaner.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static String grant(ControlPlane controlPlane, TestNamespace namespace, String user, String... verbs)
			throws Exception {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.apiClient());
		rbac.createNamespacedRole(namespace.name(), new V1Role().metadata(new V1ObjectMeta().name(user))
			.rules(List
				.of(new V1PolicyRule().apiGroups(List.of("")).resources(List.of("configmaps")).verbs(List.of(verbs)))))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name(user))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(user))
					.subjects(List.of(new RbacV1Subject().kind("User").name(user))))
			.execute();
		return user;
	}

	static class Cleaner {

		@Reconcile
		void reconcile(V1ConfigMap configMap) {
		}

		@Cleanup(finalizer = "sample.kubeop.io/cleanup")
		void cleanUp(V1ConfigMap configMap) {
		}

	}

}
