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

package io.github.kubeop.write;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.metrics.KubeopMetricsAutoConfiguration;
import io.github.kubeop.handler.HandlerContext;
import io.github.kubeop.informer.IndexFunction;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.typed.Gadget;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Writing back through {@link KubernetesTemplate}, from handlers and directly, against a
 * real API server, which alone decides conflicts, validation and condition storage.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WritingBackIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@BeforeAll
	static void installDefinitions(ApiClient client) throws Exception {
		new Manifests(client).apply(
				new ClassPathResource("io/github/kubeop/typed/crds.yaml").getContentAsString(StandardCharsets.UTF_8),
				null);
	}

	@Test
	void handlerThatWritesItsObjectAndIsCalledAgainAtOnceMeetsNoConflict(ControlPlane controlPlane,
			TestNamespace namespace) {
		List<String> conflicts = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			okhttp3.Response response = chain.proceed(chain.request());
			if (response.code() == 409) {
				conflicts.add(chain.request().method() + " " + chain.request().url().encodedPath());
			}
			return response;
		}).build());
		Counter counter = new Counter();
		this.runner.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.configMaps.api-version=v1",
					"kubeop.informers.resources.configMaps.kind=ConfigMap",
					"kubeop.informers.resources.configMaps.indexers=slowIndex")
			// an informer that lags: each changed counter reaches the cache 300 ms after
			// the watch delivered it, so that a call made at once reads the state before
			.withBean("slowIndex", IndexFunction.class, () -> (IndexFunction<V1ConfigMap>) (configMap) -> {
				if (configMap.getMetadata().getAnnotations() != null) {
					try {
						Thread.sleep(300);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return List.of();
			})
			.withBean(Counter.class, () -> counter)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				counter.template = context.getBean(KubernetesTemplate.class);
				new CoreV1Api(client)
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().name("counter").labels(Map.of("role", "counter"))))
					.execute();
				await().atMost(Duration.ofSeconds(60)).until(() -> counter.reached.get() == Counter.TARGET);
				// every call read the state its previous call wrote, once: a stale read
				// would have sent an older resourceVersion and met a conflict
				assertThat(conflicts).isEmpty();
				assertThat(counter.seen).containsExactlyElementsOf(
						java.util.stream.IntStream.range(0, Counter.TARGET + 1).mapToObj(Integer::toString).toList());
			});
	}

	@Test
	void conflictIsCalledAgainWithoutCountingAsAFailure(ControlPlane controlPlane, TestNamespace namespace) {
		LosesARace racer = new LosesARace();
		this.runner.withConfiguration(AutoConfigurations.of(KubeopMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(LosesARace.class, () -> racer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				racer.template = context.getBean(KubernetesTemplate.class);
				racer.api = new CoreV1Api(controlPlane.apiClient());
				racer.api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().name("racer").labels(Map.of("role", "racer"))))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> racer.written.get());
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				String handler = "writingBackIntegrationTests.LosesARace";
				assertThat(racer.conflicts.get()).isEqualTo(1);
				assertThat(registry.find("controller.runtime.reconcile")
					.tags("controller", handler, "result", "requeue")
					.counter()
					.count()).isEqualTo(1);
				assertThat(registry.find("controller.runtime.reconcile")
					.tags("controller", handler, "result", "error")
					.counter()
					.count()).isZero();
			});
	}

	@Test
	void rejectedApplyIsAFailureWithTheServersMessageRetriedWithBackOff(ControlPlane controlPlane,
			TestNamespace namespace) {
		InvalidServiceWriter writer = new InvalidServiceWriter();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(InvalidServiceWriter.class, () -> writer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				writer.template = context.getBean(KubernetesTemplate.class);
				new CoreV1Api(controlPlane.apiClient())
					.createNamespacedConfigMap(namespace.name(), new V1ConfigMap()
						.metadata(new V1ObjectMeta().name("wants-a-service").labels(Map.of("role", "wants-a-service"))))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> writer.failures.size() >= 3);
				assertThat(writer.failures).allSatisfy(
						(failure) -> assertThat(failure).contains("(422 Invalid)").contains("spec.ports[0].port"));
				assertThat(writer.attempts.subList(0, 3)).containsExactly(1, 2, 3);
			});
	}

	@Test
	void typedResourceRoundTripsThroughApplyInformerAndHandlerWithNoFieldLost(ControlPlane controlPlane,
			TestNamespace namespace) {
		GadgetRecorder recorder = new GadgetRecorder();
		this.runner
			.withInitializer((context) -> AutoConfigurationPackages.register((GenericApplicationContext) context,
					Gadget.class.getPackageName()))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.gadgets.api-version=typed.kubeop.test/v1",
					"kubeop.informers.resources.gadgets.kind=Gadget")
			.withBean(GadgetRecorder.class, () -> recorder)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Gadget.Spec spec = new Gadget.Spec("round trip", 3, null, Gadget.Tier.GOLD,
						Map.of("app", "web", "team", "a"),
						List.of(new Gadget.Part("wheel", 1.5, List.of("round", "black")),
								new Gadget.Part("frame", 12.25, List.of())),
						new Quantity("512Mi"), new IntOrString("http"), true);
				Gadget gadget = new Gadget();
				gadget.setMetadata(new V1ObjectMeta().name("round-trip").namespace(namespace.name()));
				gadget.setSpec(spec);
				Gadget applied = context.getBean(KubernetesTemplate.class).apply(gadget);
				assertThat(applied.getSpec()).isEqualTo(spec);
				await().atMost(Duration.ofSeconds(30)).until(() -> !recorder.specs.isEmpty());
				assertThat(recorder.specs.get(0)).isEqualTo(spec);
				@SuppressWarnings("unchecked")
				Lister<Gadget> gadgets = context.getBean("gadgetsLister", Lister.class);
				assertThat(gadgets.namespace(namespace.name()).get("round-trip").getSpec()).isEqualTo(spec);
			});
	}

	@Test
	void conditionTransitionTimeMovesOnlyWhenTheStatusChanges(ControlPlane controlPlane, TestNamespace namespace)
			throws ApiException {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		Gadget gadget = new Gadget();
		gadget.setMetadata(new V1ObjectMeta().name("timed").namespace(namespace.name()));
		gadget.setSpec(new Gadget.Spec("timed", 1, null, Gadget.Tier.GOLD, null, null, null, null, true));
		gadget = template.apply(gadget);
		OffsetDateTime earlier = OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC);
		gadget = template.applyStatus(gadget,
				new Gadget.Status(null,
						Conditions.set(null,
								new V1Condition().type("Ready")
									.status("False")
									.reason("Building")
									.message("parts missing")
									.lastTransitionTime(earlier))));
		V1Condition first = Conditions.find(gadget.getStatus().conditions(), "Ready").orElseThrow();
		assertThat(first.getLastTransitionTime()).isEqualTo(earlier);
		assertThat(gadget.getStatus().observedGeneration()).isEqualTo(gadget.getMetadata().getGeneration());
		// the reason and message change, the status does not: the time stays
		gadget = template.applyStatus(gadget, new Gadget.Status(null, Conditions.set(gadget.getStatus().conditions(),
				new V1Condition().type("Ready").status("False").reason("Waiting").message("parts ordered"))));
		V1Condition second = Conditions.find(gadget.getStatus().conditions(), "Ready").orElseThrow();
		assertThat(second.getReason()).isEqualTo("Waiting");
		assertThat(second.getLastTransitionTime()).isEqualTo(earlier);
		// the status flips: the time is now
		OffsetDateTime beforeFlip = OffsetDateTime.now(ZoneOffset.UTC).withNano(0);
		gadget = template.applyStatus(gadget, new Gadget.Status(null, Conditions.set(gadget.getStatus().conditions(),
				new V1Condition().type("Ready").status("True").reason("Built").message("all parts in place"))));
		V1Condition third = Conditions.find(gadget.getStatus().conditions(), "Ready").orElseThrow();
		assertThat(third.getStatus()).isEqualTo("True");
		assertThat(third.getLastTransitionTime()).isAfterOrEqualTo(beforeFlip);
		// as stored, not only as answered
		Gadget stored = template.apply(gadget);
		assertThat(Conditions.find(stored.getStatus().conditions(), "Ready").orElseThrow().getLastTransitionTime())
			.isEqualTo(third.getLastTransitionTime());
	}

	/**
	 * Writes an annotation counter on its own ConfigMap and asks to be called again at
	 * once, until the counter reaches its target.
	 */
	static class Counter {

		static final int TARGET = 15;

		final AtomicInteger reached = new AtomicInteger();

		final List<String> seen = new CopyOnWriteArrayList<>();

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=counter")
		Duration reconcile(V1ConfigMap configMap) throws ApiException {
			Map<String, String> annotations = (configMap.getMetadata().getAnnotations() != null)
					? new HashMap<>(configMap.getMetadata().getAnnotations()) : new HashMap<>();
			int count = Integer.parseInt(annotations.getOrDefault("count", "0"));
			this.seen.add(Integer.toString(count));
			this.reached.set(count);
			if (count >= TARGET) {
				return null;
			}
			annotations.put("count", Integer.toString(count + 1));
			V1ObjectMeta metadata = configMap.getMetadata();
			// the read state's resourceVersion: a stale read would meet a conflict
			this.template.update(new V1ConfigMap().metadata(new V1ObjectMeta().name(metadata.getName())
				.namespace(metadata.getNamespace())
				.labels(metadata.getLabels())
				.resourceVersion(metadata.getResourceVersion())
				.annotations(annotations)));
			return Duration.ZERO;
		}

	}

	/**
	 * Changes its ConfigMap behind its own back once, then writes the state it read: the
	 * first write meets a conflict, the next call's succeeds.
	 */
	static class LosesARace {

		final AtomicInteger conflicts = new AtomicInteger();

		final java.util.concurrent.atomic.AtomicBoolean written = new java.util.concurrent.atomic.AtomicBoolean();

		volatile KubernetesTemplate template;

		volatile CoreV1Api api;

		@Reconcile(labelSelector = "role=racer")
		void reconcile(V1ConfigMap configMap) throws ApiException {
			if (this.written.get()) {
				return;
			}
			V1ObjectMeta metadata = configMap.getMetadata();
			if (this.conflicts.get() == 0) {
				V1ConfigMap changed = this.api.readNamespacedConfigMap(metadata.getName(), metadata.getNamespace())
					.execute();
				changed.setData(Map.of("changed", "behind its back"));
				this.api.replaceNamespacedConfigMap(metadata.getName(), metadata.getNamespace(), changed).execute();
			}
			try {
				this.template.update(new V1ConfigMap().metadata(new V1ObjectMeta().name(metadata.getName())
					.namespace(metadata.getNamespace())
					.labels(metadata.getLabels())
					.resourceVersion(metadata.getResourceVersion())
					.annotations(Map.of("written", "yes"))));
				this.written.set(true);
			}
			catch (ApiException ex) {
				if (ex.getCode() == 409) {
					this.conflicts.incrementAndGet();
				}
				throw ex;
			}
		}

	}

	/**
	 * Records the specs of the gadgets it is called with.
	 */
	static class GadgetRecorder {

		final List<Gadget.Spec> specs = new CopyOnWriteArrayList<>();

		@Reconcile
		void reconcile(Gadget gadget) {
			this.specs.add(gadget.getSpec());
		}

	}

	/**
	 * Applies a Service the API server rejects, for every ConfigMap.
	 */
	static class InvalidServiceWriter {

		final List<String> failures = new CopyOnWriteArrayList<>();

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=wants-a-service")
		void reconcile(V1ConfigMap configMap, HandlerContext context) throws ApiException {
			this.attempts.add(context.attempt());
			try {
				this.template.apply(new V1Service()
					.metadata(new V1ObjectMeta().name(configMap.getMetadata().getName())
						.namespace(configMap.getMetadata().getNamespace()))
					.spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(70000)))));
			}
			catch (ApiException ex) {
				this.failures.add(ex.getMessage());
				throw ex;
			}
		}

	}

}
