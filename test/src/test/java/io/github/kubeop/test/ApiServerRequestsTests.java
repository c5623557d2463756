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

package io.github.kubeop.test;

import java.time.Duration;
import java.util.List;

import io.github.kubeop.test.controlplane.Component;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceCondition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ApiServerRequests} against a control plane whose namespace controller
 * deletes namespaces' content.
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = Component.CONTROLLER_MANAGER)
class ApiServerRequestsTests {

	@Test
	void namespaceHeldByAFinalizerIsNamedWithWhatHoldsItUntilItIsGone(ApiClient client) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("held"))).execute();
		core.createNamespacedConfigMap("held",
				new V1ConfigMap().metadata(new V1ObjectMeta().name("kept").finalizers(List.of("example.com/hold"))))
			.execute();
		core.deleteNamespace("held").execute();
		// the namespace controller has tried: what holds the namespace is in its status
		await().atMost(Duration.ofSeconds(60)).until(() -> finalizersRemaining(core.readNamespace("held").execute()));
		assertThatIllegalStateException()
			.isThrownBy(() -> ApiServerRequests.awaitNoNamespaceDeletion(client, Duration.ofSeconds(1)))
			.withMessageContaining("held (")
			.withMessageContaining("example.com/hold");
		V1ConfigMap kept = core.readNamespacedConfigMap("kept", "held").execute();
		kept.getMetadata().setFinalizers(null);
		core.replaceNamespacedConfigMap("kept", "held", kept).execute();
		ApiServerRequests.awaitNoNamespaceDeletion(client, Duration.ofMinutes(2));
		assertThat(core.listNamespace().execute().getItems())
			.noneMatch((namespace) -> namespace.getMetadata().getName().equals("held"));
	}

	private static boolean finalizersRemaining(V1Namespace namespace) {
		List<V1NamespaceCondition> conditions = namespace.getStatus().getConditions();
		return conditions != null && conditions.stream()
			.anyMatch((condition) -> condition.getType().equals("NamespaceFinalizersRemaining")
					&& condition.getStatus().equals("True"));
	}

}
