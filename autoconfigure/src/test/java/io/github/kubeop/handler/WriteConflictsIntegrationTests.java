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
import java.util.Map;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.metrics.KubeopMetricsAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.write.DeleteOptions;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The 409s a handler's write can meet, against a real API server, which alone decides
 * them: an apply that meets fields another field manager owns, and a create of an object
 * that exists, are failures (counted {@code error}, logged at WARN), not the routine
 * optimistic-concurrency conflict that is quietly called again.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class WriteConflictsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
						KubeopHandlersAutoConfiguration.class, KubeopMetricsAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new);

	@Test
	void applyThatMeetsAnotherFieldManagerIsAnErrorNamingIt(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) throws ApiException {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate other = new KubernetesTemplate(client, new InformerRegistry(client), "other-manager", true);
		other.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("contested").namespace(namespace.name()))
			.data(Map.of("k", "theirs")));
		Contender contender = new Contender();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.write.force-conflicts=false")
			.withBean(Contender.class, () -> contender)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				contender.template = context.getBean(KubernetesTemplate.class);
				new CoreV1Api(client)
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().name("contender").labels(Map.of("role", "contender"))))
					.execute();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				await().atMost(TIMEOUT)
					.until(() -> count(registry, "Contender", "error") + count(registry, "Contender", "requeue") >= 2);
				assertThat(count(registry, "Contender", "error")).as("calls counted as errors")
					.isGreaterThanOrEqualTo(2);
				assertThat(count(registry, "Contender", "requeue")).as("calls counted as requeues").isZero();
				assertThat(output.getOut().lines().filter((line) -> line.contains("WARN"))).anySatisfy(
						(line) -> assertThat(line).contains("Contender").contains("field manager \"other-manager\""));
			});
	}

	@Test
	void createOfAnObjectThatExistsIsAnError(ControlPlane controlPlane, TestNamespace namespace) throws ApiException {
		ApiClient client = controlPlane.apiClient();
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("taken")))
			.execute();
		Creator creator = new Creator();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Creator.class, () -> creator)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				creator.api = api;
				api.createNamespacedConfigMap(namespace.name(), new V1ConfigMap()
					.metadata(new V1ObjectMeta().name("creator").labels(Map.of("role", "creator")))).execute();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				await().atMost(TIMEOUT)
					.until(() -> count(registry, "Creator", "error") + count(registry, "Creator", "requeue") >= 2);
				assertThat(count(registry, "Creator", "error")).as("calls counted as errors").isGreaterThanOrEqualTo(2);
				assertThat(count(registry, "Creator", "requeue")).as("calls counted as requeues").isZero();
			});
	}

	@Test
	void deleteOfAReplacedObjectIsCalledAgainSayingItWasReplaced(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) throws ApiException {
		ApiClient client = controlPlane.apiClient();
		CoreV1Api api = new CoreV1Api(client);
		V1ConfigMap stale = api
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("replaced")))
			.execute();
		api.deleteNamespacedConfigMap("replaced", namespace.name()).execute();
		api.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("replaced")))
			.execute();
		Deleter deleter = new Deleter(stale);
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel(HandlerCallLog.class.getName(), LogLevel.DEBUG);
		try {
			this.runner.withBean(ApiClient.class, controlPlane::apiClient)
				.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
				.withBean(Deleter.class, () -> deleter)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					deleter.template = context.getBean(KubernetesTemplate.class);
					api.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().name("deleter").labels(Map.of("role", "deleter"))))
						.execute();
					MeterRegistry registry = context.getBean(MeterRegistry.class);
					await().atMost(TIMEOUT)
						.until(() -> count(registry, "Deleter", "error") + count(registry, "Deleter", "requeue") >= 2);
					assertThat(count(registry, "Deleter", "requeue")).as("calls counted as requeues")
						.isGreaterThanOrEqualTo(2);
					assertThat(count(registry, "Deleter", "error")).as("calls counted as errors").isZero();
					assertThat(output.getOut()
						.lines()
						.filter((line) -> line.contains("Handler requeue:")
								&& line.contains("key=" + namespace.name() + "/deleter")))
						.isNotEmpty()
						.allSatisfy((line) -> assertThat(line)
							.contains("reason=write conflict: the object was replaced: deleted and created again"));
				});
		}
		finally {
			logging.setLogLevel(HandlerCallLog.class.getName(), null);
		}
		assertThat(api.readNamespacedConfigMap("replaced", namespace.name()).execute().getMetadata().getUid())
			.as("the new object, left alone")
			.isNotEqualTo(stale.getMetadata().getUid());
	}

	private static double count(MeterRegistry registry, String handler, String result) {
		return registry.find("controller.runtime.reconcile")
			.tag("result", result)
			.counters()
			.stream()
			.filter((counter) -> String.valueOf(counter.getId().getTag("controller")).endsWith(handler))
			.mapToDouble(Counter::count)
			.sum();
	}

	/**
	 * Applies a value to a field another field manager owns.
	 */
	static class Contender {

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=contender")
		void reconcile(V1ConfigMap configMap) throws ApiException {
			this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name("contested").namespace(configMap.getMetadata().getNamespace()))
				.data(Map.of("k", "mine")));
		}

	}

	/**
	 * Deletes an object by a copy read before it was deleted and created again.
	 */
	static class Deleter {

		private final V1ConfigMap stale;

		volatile KubernetesTemplate template;

		Deleter(V1ConfigMap stale) {
			this.stale = stale;
		}

		@Reconcile(labelSelector = "role=deleter")
		void reconcile(V1ConfigMap configMap) throws ApiException {
			this.template.delete(this.stale, DeleteOptions.ifSameObject(this.stale));
		}

	}

	/**
	 * Creates an object that exists.
	 */
	static class Creator {

		volatile CoreV1Api api;

		@Reconcile(labelSelector = "role=creator")
		void reconcile(V1ConfigMap configMap) throws ApiException {
			this.api
				.createNamespacedConfigMap(configMap.getMetadata().getNamespace(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("taken")))
				.execute();
		}

	}

}
