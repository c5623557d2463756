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
package io.github.kubeop.tracing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.observation.KubeopObservationAutoConfiguration;
import io.github.kubeop.handler.TraceContextAnnotation;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handler calls and their writes traced through Micrometer's Observation API, against a
 * real API server, with Micrometer's test tracer: a user's change gives a span of the
 * handler call, in scope while the handler runs, whose apply is its child; a retry is a
 * span of its own; without an {@link ObservationRegistry} nothing is traced.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class HandlerTracingIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
					KubeopHandlersAutoConfiguration.class, KubeopObservationAutoConfiguration.class));

	@Test
	void aHandlerCallIsASpanInScopeWhileTheHandlerRunsWithItsApplyAsAChild(ControlPlane controlPlane,
			TestNamespace namespace) throws ApiException {
		SimpleTracer tracer = new SimpleTracer();
		Apps apps = new Apps(tracer);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		run(controlPlane, namespace, apps).withBean(ObservationRegistry.class, () -> registry(tracer))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				apps.template = context.getBean(KubernetesTemplate.class);
				api.createNamespacedConfigMap(namespace.name(), app(namespace, "traced")).execute();
				String key = namespace.name() + "/traced";
				SimpleSpan call = await().atMost(Duration.ofSeconds(60))
					.until(() -> ended(tracer, "kubeop.key", key), Objects::nonNull);
				assertThat(call.getName()).startsWith("handle ");
				assertThat(call.getTags()).containsEntry("kubeop.outcome", "success")
					.containsEntry("kubeop.trigger", "added")
					.containsEntry("kubeop.attempt", "first")
					.containsEntry("kubeop.attempt.number", "1")
					.containsEntry("k8s.namespace.name", namespace.name())
					.containsEntry("kubeop.kind", "ConfigMap")
					.containsKey("kubeop.handler")
					.containsKey("kubeop.queue.wait.ms");
				// in scope while the handler ran: what a tracing bridge puts into the MDC
				assertThat(apps.spanInHandler.get("traced")).isEqualTo(call.context().spanId());
				SimpleSpan apply = ended(tracer, "kubeop.object.name", "traced-token");
				assertThat(apply).isNotNull();
				assertThat(apply.getName()).isEqualTo("apply secrets");
				assertThat(apply.getTags()).containsEntry("kubeop.verb", "apply")
					.containsEntry("kubeop.resource", "secrets")
					.containsEntry("http.response.status_code", "201")
					.containsEntry("k8s.namespace.name", namespace.name());
				assertThat(apply.context().traceId()).isEqualTo(call.context().traceId());
				assertThat(apply.context().parentId()).isEqualTo(call.context().spanId());
			});
	}

	@Test
	void aRetryIsASpanOfItsOwn(ControlPlane controlPlane, TestNamespace namespace) {
		SimpleTracer tracer = new SimpleTracer();
		Apps apps = new Apps(tracer);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		run(controlPlane, namespace, apps).withBean(ObservationRegistry.class, () -> registry(tracer))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				apps.template = context.getBean(KubernetesTemplate.class);
				api.createNamespacedConfigMap(namespace.name(), app(namespace, "flaky")).execute();
				String key = namespace.name() + "/flaky";
				await().atMost(Duration.ofSeconds(60))
					.until(() -> calls(tracer, key).stream()
						.anyMatch((span) -> "success".equals(span.getTags().get("kubeop.outcome"))));
				List<SimpleSpan> calls = calls(tracer, key);
				assertThat(calls).hasSize(2);
				SimpleSpan failed = calls.get(0);
				SimpleSpan retry = calls.get(1);
				assertThat(failed.getTags()).containsEntry("kubeop.outcome", "error")
					.containsEntry("kubeop.attempt", "first");
				assertThat(failed.getError()).hasMessage("first attempt fails");
				assertThat(retry.getTags()).containsEntry("kubeop.attempt", "retry")
					.containsEntry("kubeop.attempt.number", "2");
				assertThat(retry.context().spanId()).isNotEqualTo(failed.context().spanId());
			});
	}

	@Test
	void withoutAnObservationRegistryNothingIsTraced(ControlPlane controlPlane, TestNamespace namespace) {
		SimpleTracer tracer = new SimpleTracer();
		Apps apps = new Apps(tracer);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		run(controlPlane, namespace, apps).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ObservationTracing.class);
			apps.template = context.getBean(KubernetesTemplate.class);
			api.createNamespacedConfigMap(namespace.name(), app(namespace, "untraced")).execute();
			// the handler's write is the sentinel: a traced call would have started its
			// span before it
			await().atMost(Duration.ofSeconds(60)).until(() -> exists(api, namespace.name(), "untraced-token"));
			assertThat(apps.spanInHandler).containsEntry("untraced", "none");
			assertThat(tracer.getSpans()).isEmpty();
			// and nothing carried on the written object
			assertThat(TraceContextAnnotation
				.valueOf(api.readNamespacedSecret("untraced-token", namespace.name()).execute())).isNull();
		});
	}

	@Test
	void aRegistryWithoutHandlersTracesNothing(ControlPlane controlPlane, TestNamespace namespace) {
		SimpleTracer tracer = new SimpleTracer();
		Apps apps = new Apps(tracer);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		run(controlPlane, namespace, apps).withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ObservationTracing.class).isActive()).isFalse();
				apps.template = context.getBean(KubernetesTemplate.class);
				api.createNamespacedConfigMap(namespace.name(), app(namespace, "quiet")).execute();
				await().atMost(Duration.ofSeconds(60)).until(() -> exists(api, namespace.name(), "quiet-token"));
				assertThat(apps.spanInHandler).containsEntry("quiet", "none");
			});
	}

	private ApplicationContextRunner run(ControlPlane controlPlane, TestNamespace namespace, Apps apps) {
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.apps.api-version=v1", "kubeop.informers.resources.apps.kind=ConfigMap",
					"kubeop.informers.resources.apps.label-selector=role=app")
			.withBean(Apps.class, () -> apps);
	}

	private static ObservationRegistry registry(SimpleTracer tracer) {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
		return registry;
	}

	/**
	 * The ended span whose tag has the given value.
	 */
	private static SimpleSpan ended(SimpleTracer tracer, String tag, String value) {
		return tracer.getSpans()
			.stream()
			.filter((span) -> value.equals(span.getTags().get(tag)) && span.getEndTimestamp().toEpochMilli() != 0)
			.findFirst()
			.orElse(null);
	}

	private static List<SimpleSpan> calls(SimpleTracer tracer, String key) {
		return tracer.getSpans()
			.stream()
			.filter((span) -> key.equals(span.getTags().get("kubeop.key"))
					&& span.getTags().get("kubeop.outcome") != null)
			.toList();
	}

	private static V1ConfigMap app(TestNamespace namespace, String name) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(name).namespace(namespace.name()).labels(Map.of("role", "app")));
	}

	private static boolean exists(CoreV1Api api, String namespace, String name) throws ApiException {
		try {
			api.readNamespacedSecret(name, namespace).execute();
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
	 * Applies a token Secret per app and records the span current while it runs; the app
	 * named "flaky" fails its first attempt.
	 */
	static class Apps {

		final SimpleTracer tracer;

		final Map<String, String> spanInHandler = new ConcurrentHashMap<>();

		final AtomicInteger flakyAttempts = new AtomicInteger();

		volatile KubernetesTemplate template;

		Apps(SimpleTracer tracer) {
			this.tracer = tracer;
		}

		@Reconcile(informer = "apps")
		void reconcile(V1ConfigMap app) throws ApiException {
			String name = app.getMetadata().getName();
			Span current = this.tracer.currentSpan();
			this.spanInHandler.put(name, (current != null) ? current.context().spanId() : "none");
			if (name.equals("flaky") && this.flakyAttempts.incrementAndGet() == 1) {
				throw new IllegalStateException("first attempt fails");
			}
			this.template.apply(new V1Secret()
				.metadata(new V1ObjectMeta().name(name + "-token").namespace(app.getMetadata().getNamespace()))
				.stringData(Map.of("token", "t")));
		}

	}

}
