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

package io.github.kubeop.handler;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The level-based {@link Reconcile} against a real API server: called with the current
 * object for adds and updates, never for deletes, which go to {@link OnDelete}.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ReconcileIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void reconcileGetsAddsAndUpdatesButNotDeletes(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) {
		CoreV1Api api = new CoreV1Api(client);
		Reconciler reconciler = new Reconciler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Reconciler.class, () -> reconciler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(api, namespace, "level", "1");
				await().atMost(Duration.ofSeconds(20)).until(() -> reconciler.callsFor("level").size() == 1);
				V1ConfigMap current = api.readNamespacedConfigMap("level", namespace.name()).execute();
				current.setData(Map.of("v", "2"));
				api.replaceNamespacedConfigMap("level", namespace.name(), current).execute();
				await().atMost(Duration.ofSeconds(20)).until(() -> reconciler.callsFor("level").size() == 2);
				api.deleteNamespacedConfigMap("level", namespace.name()).execute();
				// @OnDelete next to @Reconcile is allowed, and is what a delete calls
				await().atMost(Duration.ofSeconds(20)).until(() -> reconciler.deleted.contains("level"));
				// a later change that must be handled: the delete, queued before it, was
				// settled by the time the sentinel is reconciled
				create(api, namespace, "sentinel", "1");
				await().atMost(Duration.ofSeconds(20)).until(() -> reconciler.callsFor("sentinel").size() == 1);
				assertThat(reconciler.callsFor("level")).containsExactly("level v=1 ADDED", "level v=2 CHANGED");
			});
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name, String value) throws ApiException {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", value)))
			.execute();
	}

	static class Reconciler {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<String> deleted = new CopyOnWriteArrayList<>();

		@Reconcile
		void reconcile(V1ConfigMap configMap, HandlerContext context) {
			Map<String, String> data = configMap.getData();
			this.calls.add(configMap.getMetadata().getName() + " v=" + ((data != null) ? data.get("v") : null) + " "
					+ context.trigger());
		}

		@OnDelete
		void removed(V1ConfigMap configMap) {
			this.deleted.add(configMap.getMetadata().getName());
		}

		List<String> callsFor(String name) {
			return this.calls.stream().filter((call) -> call.startsWith(name + " ")).toList();
		}

	}

}
