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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.PatchUtils;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pruning against a real API server with kube-controller-manager: after a reconcile that
 * returned normally, what the handled object owns and the call no longer applied is
 * deleted; what another manager made, what the handled object does not control, and
 * anything after a failed call stays; the garbage collector still removes everything when
 * the handled object goes.
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = Component.CONTROLLER_MANAGER)
class PruningIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(60);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void ownedObjectNoLongerAppliedIsDeletedAndNothingElse(ControlPlane controlPlane, TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Consumers consumers = new Consumers();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.handlers.rate-limiter.base-delay=200ms")
			.withBean(Consumers.class, () -> consumers)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				KubernetesTemplate template = context.getBean(KubernetesTemplate.class);
				consumers.template = template;
				V1ConfigMap list = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name("list").labels(Map.of("role", "list")))
								.data(Map.of("a", "1", "b", "1")))
					.execute();
				await().atMost(BOUND).until(() -> exists(api, namespace, "list-a") && exists(api, namespace, "list-b"));
				// controlled by the list, but made by another manager
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("list-by-hand")
							.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
								.kind("ConfigMap")
								.name("list")
								.uid(list.getMetadata().getUid())
								.controller(true)))))
					.execute();
				// this manager's, but not controlled by the list
				applyUnowned(controlPlane.apiClient(), template.getFieldManager(), namespace, "list-unowned");
				// a call that fails after applying a part keeps the rest
				setData(api, namespace, Map.of("a", "1", "fail", "1"));
				await().atMost(BOUND).until(() -> consumers.calls.stream().filter("a,fail"::equals).count() >= 2);
				assertThat(exists(api, namespace, "list-b")).as("list-b after failed calls").isTrue();
				// b is no longer applied
				setData(api, namespace, Map.of("a", "2"));
				await().atMost(BOUND).until(() -> !exists(api, namespace, "list-b"));
				// sentinel: a later call applies c, after the call that pruned b ended
				setData(api, namespace, Map.of("a", "2", "c", "1"));
				await().atMost(BOUND).until(() -> exists(api, namespace, "list-c"));
				assertThat(exists(api, namespace, "list-a")).as("list-a").isTrue();
				assertThat(exists(api, namespace, "list-by-hand")).as("list-by-hand").isTrue();
				assertThat(exists(api, namespace, "list-unowned")).as("list-unowned").isTrue();
				// the garbage collector takes what the list owns with it
				api.deleteNamespacedConfigMap("list", namespace.name()).execute();
				await().atMost(BOUND)
					.until(() -> !exists(api, namespace, "list-a") && !exists(api, namespace, "list-c")
							&& !exists(api, namespace, "list-by-hand"));
				assertThat(exists(api, namespace, "list-unowned")).isTrue();
			});
	}

	@Test
	void pruningWithoutOwnedTypesFailsStartupNamingTheHandler(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean("ownsNothing", OwnsNothing.class, OwnsNothing::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("Handler 'ownsNothing'")
					.hasMessageContaining("prunes, but its class declares no @Owns type");
			});
	}

	private static void setData(CoreV1Api api, TestNamespace namespace, Map<String, String> data) throws ApiException {
		V1ConfigMap list = api.readNamespacedConfigMap("list", namespace.name()).execute();
		list.setData(data);
		api.replaceNamespacedConfigMap("list", namespace.name(), list).execute();
	}

	private static void applyUnowned(ApiClient client, String fieldManager, TestNamespace namespace, String name)
			throws ApiException {
		String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
				+ "\",\"namespace\":\"" + namespace.name() + "\"},\"data\":{\"by\":\"test\"}}";
		PatchUtils.patch(V1ConfigMap.class,
				() -> new CoreV1Api(client).patchNamespacedConfigMap(name, namespace.name(), new V1Patch(body))
					.fieldManager(fieldManager)
					.force(true)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_APPLY_YAML, client);
	}

	private static boolean exists(CoreV1Api api, TestNamespace namespace, String name) throws ApiException {
		try {
			api.readNamespacedConfigMap(name, namespace.name()).execute();
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * Applies a ConfigMap per key of the list's data, in key order; fails after the first
	 * at a key named {@code fail}.
	 */
	@Owns(V1ConfigMap.class)
	static class Consumers {

		final List<String> calls = new CopyOnWriteArrayList<>();

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=list", prune = true)
		void reconcile(V1ConfigMap list) throws ApiException {
			Map<String, String> data = new LinkedHashMap<>();
			list.getData().keySet().stream().sorted().forEach((key) -> data.put(key, list.getData().get(key)));
			this.calls.add(String.join(",", data.keySet()));
			for (String key : data.keySet()) {
				if (key.equals("fail")) {
					throw new IllegalStateException("consumer 'fail' cannot be applied");
				}
				this.template.apply(
						new V1ConfigMap()
							.metadata(new V1ObjectMeta().name(list.getMetadata().getName() + "-" + key)
								.namespace(list.getMetadata().getNamespace()))
							.data(Map.of("v", data.get(key))));
			}
		}

	}

	/**
	 * Prunes, but owns nothing.
	 */
	static class OwnsNothing {

		@Reconcile(prune = true)
		void reconcile(V1ConfigMap object) {
		}

	}

}
