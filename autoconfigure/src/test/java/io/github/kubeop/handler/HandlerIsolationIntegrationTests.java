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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ResolvableType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What handlers receive and what the {@code Lister}/{@code Indexer} beans return is the
 * caller's own to change: against a real API server, a handler that changes the object it
 * received and fails is handed the object as the API server has it on its retry, the old
 * object of a later update is what was delivered, not what the handler made of it, and
 * neither the beans nor the API server show the change.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class HandlerIsolationIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void handlerThatChangesWhatItReceivedAndFailsGetsTheServersObjectOnItsRetry(ControlPlane controlPlane,
			TestNamespace namespace, ApiClient client) {
		CoreV1Api api = new CoreV1Api(client);
		FailingLabeler handler = new FailingLabeler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues(settings(namespace))
			.withBean(FailingLabeler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(api, namespace, "labelled", "1");
				await().atMost(TIMEOUT).until(() -> handler.received.size() >= 2);
				assertThat(handler.received.get(0)).doesNotContainKey("mutated");
				assertThat(handler.received.get(1)).as("labels the retry received").doesNotContainKey("mutated");
				V1ConfigMap listed = lister(context).namespace(namespace.name()).get("labelled");
				assertThat(listed.getMetadata().getLabels()).as("labels the Lister shows").isNullOrEmpty();
				assertThat(listed.getData()).containsEntry("v", "1");
				V1ConfigMap served = api.readNamespacedConfigMap("labelled", namespace.name()).execute();
				assertThat(served.getMetadata().getLabels()).as("labels the API server has").isNullOrEmpty();
			});
	}

	@Test
	void oldObjectOfAnUpdateIsWhatWasDeliveredNotWhatTheHandlerMadeOfIt(ControlPlane controlPlane,
			TestNamespace namespace, ApiClient client) {
		CoreV1Api api = new CoreV1Api(client);
		ChangingHandler handler = new ChangingHandler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues(settings(namespace))
			.withBean(ChangingHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(api, namespace, "changed", "1");
				await().atMost(TIMEOUT).until(() -> handler.added.size() == 1);
				V1ConfigMap current = api.readNamespacedConfigMap("changed", namespace.name()).execute();
				current.setData(Map.of("v", "2"));
				api.replaceNamespacedConfigMap("changed", namespace.name(), current).execute();
				await().atMost(TIMEOUT).until(() -> handler.oldData.size() == 1);
				assertThat(handler.oldData.get(0)).as("data of the old object").containsExactly(Map.entry("v", "1"));
				assertThat(handler.oldLabels.get(0)).as("labels of the old object").isEmpty();
			});
	}

	@Test
	void whatTheListerAndIndexerReturnIsTheCallersToChange(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) {
		CoreV1Api api = new CoreV1Api(client);
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues(settings(namespace))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(api, namespace, "read", "1");
				Lister<V1ConfigMap> lister = lister(context).namespace(namespace.name());
				await().atMost(TIMEOUT).until(() -> lister.get("read") != null);
				V1ConfigMap read = lister.get("read");
				read.getMetadata().putLabelsItem("mutated", "yes");
				read.getData().put("v", "mutated");
				lister.list().forEach((object) -> object.getMetadata().setResourceVersion("0"));
				V1ConfigMap again = lister.get("read");
				assertThat(again.getMetadata().getLabels()).isNullOrEmpty();
				assertThat(again.getData()).containsExactly(Map.entry("v", "1"));
				assertThat(again.getMetadata().getResourceVersion()).isNotEqualTo("0");
				Indexer<V1ConfigMap> indexer = indexer(context);
				String key = namespace.name() + "/read";
				indexer.getByKey(key).getMetadata().putLabelsItem("mutated", "yes");
				indexer.byIndex("namespace", namespace.name()).forEach((object) -> object.setData(null));
				assertThat(indexer.getByKey(key).getMetadata().getLabels()).isNullOrEmpty();
				assertThat(indexer.getByKey(key).getData()).containsExactly(Map.entry("v", "1"));
				assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> indexer.delete(again))
					.withMessageContaining("written only by its informer");
				assertThat(indexer.getByKey(key)).isNotNull();
			});
	}

	private static String[] settings(TestNamespace namespace) {
		return new String[] { "kubeop.informers.namespaces=" + namespace.name(),
				"kubeop.informers.resources.settings.api-version=v1",
				"kubeop.informers.resources.settings.kind=ConfigMap",
				"kubeop.informers.resources.settings.namespaces=" + namespace.name() };
	}

	@SuppressWarnings("unchecked")
	private static Lister<V1ConfigMap> lister(BeanFactory beans) {
		return (Lister<V1ConfigMap>) beans
			.getBeanProvider(ResolvableType.forClassWithGenerics(Lister.class, V1ConfigMap.class))
			.getObject();
	}

	@SuppressWarnings("unchecked")
	private static Indexer<V1ConfigMap> indexer(BeanFactory beans) {
		return (Indexer<V1ConfigMap>) beans
			.getBeanProvider(ResolvableType.forClassWithGenerics(Indexer.class, V1ConfigMap.class))
			.getObject();
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name, String value) throws ApiException {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(new HashMap<>(Map.of("v", value))))
			.execute();
	}

	// tag::isolation[]
	/**
	 * Does the everyday read-modify-write on what it received, then fails the first time,
	 * before writing anything.
	 */
	static class FailingLabeler {

		final List<Map<String, String>> received = new CopyOnWriteArrayList<>();

		@Reconcile
		void reconcile(V1ConfigMap configMap, HandlerContext context) {
			if (!configMap.getMetadata().getName().equals("labelled")) {
				// the namespace is the test class's: the other tests' objects are there
				return;
			}
			Map<String, String> labels = configMap.getMetadata().getLabels();
			this.received.add((labels != null) ? Map.copyOf(labels) : Map.of());
			configMap.getMetadata().putLabelsItem("mutated", "yes");
			configMap.getData().put("v", "mutated");
			if (context.attempt() == 1) {
				throw new IllegalStateException("failing before the write, on purpose");
			}
		}

	}
	// end::isolation[]

	/**
	 * Changes what it receives on add and records what an update tells it of the old
	 * state.
	 */
	static class ChangingHandler {

		final List<String> added = new CopyOnWriteArrayList<>();

		final List<Map<String, String>> oldData = new CopyOnWriteArrayList<>();

		final List<Map<String, String>> oldLabels = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1ConfigMap configMap) {
			if (!configMap.getMetadata().getName().equals("changed")) {
				return;
			}
			configMap.getMetadata().putLabelsItem("mutated", "yes");
			configMap.getData().put("v", "mutated");
			this.added.add(configMap.getMetadata().getName());
		}

		@OnUpdate
		void updated(V1ConfigMap old, V1ConfigMap current) {
			if (!current.getMetadata().getName().equals("changed")) {
				return;
			}
			this.oldData.add(Map.copyOf(old.getData()));
			Map<String, String> labels = old.getMetadata().getLabels();
			this.oldLabels.add((labels != null) ? Map.copyOf(labels) : Map.of());
		}

	}

}
