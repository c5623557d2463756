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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A handler's own writes, against a real API server: a change that only they made does
 * not call the handler again, unless it asks for it; a change of someone else's is always
 * delivered, one that lands between two own writes of one call included.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class OwnWritesIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(60);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void ownWritesOfTheHandledAndOwnedObjectsDoNotCallAgainButOthersChangesDo(ControlPlane controlPlane,
			TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Writer writer = new Writer();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Writer.class, () -> writer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				writer.template = context.getBean(KubernetesTemplate.class);
				writer.controller = context.getBean(HandlerRegistrar.class).controllers().iterator().next();
				// alpha: writes its own annotation and an owned object; gamma: only the
				// owned object
				create(api, namespace, "alpha", "1", true);
				create(api, namespace, "gamma", "1", false);
				await().atMost(BOUND).until(() -> !writer.calls("alpha").isEmpty() && !writer.calls("gamma").isEmpty());
				await().atMost(BOUND)
					.until(() -> cachedAnnotation(context, namespace, "alpha") != null
							&& cached(context, namespace, "alpha-owned") != null
							&& cached(context, namespace, "gamma-owned") != null);
				// sentinel of the handled objects' events: beta's add reaches the handler
				// after alpha's own write, and one worker takes keys in order
				create(api, namespace, "beta", "1", false);
				await().atMost(BOUND).until(() -> !writer.calls("beta").isEmpty());
				assertThat(writer.calls("alpha")).as("calls of alpha, whose own writes came before beta's add")
					.containsExactly("1 ADDED");
				// sentinel of the owned objects' events: someone else's change of
				// beta-owned, which reaches the handler after gamma-owned's own write
				await().atMost(BOUND).until(() -> cached(context, namespace, "beta-owned") != null);
				V1ConfigMap edited = api.readNamespacedConfigMap("beta-owned", namespace.name()).execute();
				edited.getMetadata().putLabelsItem("edited", "by-someone-else");
				api.replaceNamespacedConfigMap("beta-owned", namespace.name(), edited).execute();
				await().atMost(BOUND).until(() -> writer.calls("beta").contains("1 OWNER edited"));
				assertThat(writer.calls("beta")).containsExactly("1 ADDED", "1 OWNER edited");
				assertThat(writer.calls("gamma")).as("calls of gamma, whose owned object's own write came first")
					.containsExactly("1 ADDED");
				// someone else's change of the handled object is delivered
				V1ConfigMap alpha = api.readNamespacedConfigMap("alpha", namespace.name()).execute();
				alpha.setData(Map.of("v", "2"));
				api.replaceNamespacedConfigMap("alpha", namespace.name(), alpha).execute();
				await().atMost(BOUND).until(() -> writer.calls("alpha").contains("2 CHANGED"));
				assertThat(writer.calls("alpha")).containsExactly("1 ADDED", "2 CHANGED");
			});
	}

	@Test
	void someoneElsesChangeBetweenTwoOwnWritesIsDelivered(ControlPlane controlPlane, TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Racer racer = new Racer();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Racer.class, () -> racer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				racer.template = context.getBean(KubernetesTemplate.class);
				V1ConfigMap created = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name("racer").labels(Map.of("role", "racer")))
								.data(Map.of("v", "1")))
					.execute();
				assertThat(racer.firstWriteDone.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
				// someone else's change, between the call's first and second own write
				V1ConfigMap racing = api.readNamespacedConfigMap("racer", namespace.name()).execute();
				racing.setData(Map.of("v", "2"));
				api.replaceNamespacedConfigMap("racer", namespace.name(), racing).execute();
				racer.changedBetween.countDown();
				await().atMost(BOUND).until(() -> racer.calls.size() == 2);
				assertThat(racer.calls).containsExactly("1 ADDED", "2 CHANGED");
				assertThat(created).isNotNull();
			});
	}

	@Test
	void handlerThatAsksForItsOwnWritesIsCalledForThem(ControlPlane controlPlane, TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		OptIn optIn = new OptIn();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(OptIn.class, () -> optIn)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				optIn.template = context.getBean(KubernetesTemplate.class);
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("listener").labels(Map.of("role", "opt-in")))
							.data(Map.of("v", "1")))
					.execute();
				// the second call's apply changes nothing, so there is no third
				await().atMost(BOUND).until(() -> optIn.calls.size() == 2);
				assertThat(optIn.calls).containsExactly("1 ADDED", "1 CHANGED");
			});
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name, String version, boolean annotate)
			throws ApiException {
		Map<String, String> labels = new HashMap<>(Map.of("role", "writer"));
		if (annotate) {
			labels.put("annotate", "true");
		}
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(Map.of("v", version)))
			.execute();
	}

	private static V1ConfigMap cached(ApplicationContext context, TestNamespace namespace, String name) {
		Controller<?> controller = context.getBean(HandlerRegistrar.class).controllers().iterator().next();
		return (V1ConfigMap) controller.informer().indexer().getByKey(namespace.name() + "/" + name);
	}

	private static String cachedAnnotation(ApplicationContext context, TestNamespace namespace, String name) {
		V1ConfigMap cached = cached(context, namespace, name);
		Map<String, String> annotations = (cached != null) ? cached.getMetadata().getAnnotations() : null;
		return (annotations != null) ? annotations.get("test.kubeop.io/seen") : null;
	}

	private static String call(V1ConfigMap object, HandlerContext context) {
		return object.getData().get("v") + " " + context.trigger();
	}

	/**
	 * Applies an owned copy of each writer's data, and, if the writer asks for it,
	 * annotates the writer itself.
	 */
	@Owns(V1ConfigMap.class)
	static class Writer {

		final Map<String, List<String>> calls = new java.util.concurrent.ConcurrentHashMap<>();

		volatile KubernetesTemplate template;

		volatile Controller<?> controller;

		@Reconcile(labelSelector = "role=writer")
		void reconcile(V1ConfigMap writer, HandlerContext context) throws ApiException {
			String name = writer.getMetadata().getName();
			V1ConfigMap owned = (V1ConfigMap) this.controller.informer()
				.indexer()
				.getByKey(writer.getMetadata().getNamespace() + "/" + name + "-owned");
			boolean edited = owned != null && owned.getMetadata().getLabels() != null
					&& owned.getMetadata().getLabels().containsKey("edited");
			this.calls.computeIfAbsent(name, (key) -> new CopyOnWriteArrayList<>())
				.add(call(writer, context) + (edited ? " edited" : ""));
			this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name(name + "-owned").namespace(writer.getMetadata().getNamespace()))
				.data(writer.getData()));
			if ("true".equals(writer.getMetadata().getLabels().get("annotate"))) {
				this.template.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(name)
					.namespace(writer.getMetadata().getNamespace())
					.annotations(Map.of("test.kubeop.io/seen", writer.getData().get("v")))));
			}
		}

		List<String> calls(String name) {
			return this.calls.getOrDefault(name, List.of());
		}

	}

	/**
	 * Writes its object twice in its first call, and lets the test change it in between.
	 */
	static class Racer {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final CountDownLatch firstWriteDone = new CountDownLatch(1);

		final CountDownLatch changedBetween = new CountDownLatch(1);

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=racer")
		void reconcile(V1ConfigMap racer, HandlerContext context) throws Exception {
			this.calls.add(call(racer, context));
			if (this.calls.size() > 1) {
				return;
			}
			annotate(racer, "one");
			this.firstWriteDone.countDown();
			if (!this.changedBetween.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
				throw new IllegalStateException("the test did not change the object");
			}
			annotate(racer, "two");
		}

		private void annotate(V1ConfigMap racer, String step) throws ApiException {
			this.template.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(racer.getMetadata().getName())
				.namespace(racer.getMetadata().getNamespace())
				.annotations(Map.of("test.kubeop.io/step", step))));
		}

	}

	/**
	 * Annotates its object, and asks to be called for its own writes.
	 */
	static class OptIn {

		final List<String> calls = new CopyOnWriteArrayList<>();

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=opt-in", ownWrites = true)
		void reconcile(V1ConfigMap object, HandlerContext context) throws ApiException {
			this.calls.add(call(object, context));
			this.template.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(object.getMetadata().getName())
				.namespace(object.getMetadata().getNamespace())
				.annotations(Map.of("test.kubeop.io/seen", object.getData().get("v")))));
		}

	}

}
