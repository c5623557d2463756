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

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.observation.KubeopObservationAutoConfiguration;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.TraceContextAnnotation;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.reliability.CompactingControlPlane;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.PatchUtils;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The trace context a handler call's write carries on the written object, continued by
 * the call that write causes in another application, against a real API server and a real
 * tracing bridge (OpenTelemetry's, as Spring Boot sets it up). Two applications: the
 * writer reconciles ConfigMaps labelled {@code role=app} and applies a Secret per app;
 * the reader, a separate application context with its own tracer, reconciles those
 * Secrets. Nothing passes between them but the objects.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class TraceContextCarrierIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
					KubeopHandlersAutoConfiguration.class, KubeopObservationAutoConfiguration.class));

	@Test
	void aWriteCarriesItsTraceContextToTheCallItCausesInAnotherApplication(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		OtelTracing user = new OtelTracing();
		OtelTracing writerTracing = new OtelTracing();
		OtelTracing readerTracing = new OtelTracing();
		Writer writer = new Writer();
		Reader reader = new Reader(readerTracing);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		writer(controlPlane, namespace, writer, writerTracing).run((writerContext) -> {
			assertThat(writerContext).hasNotFailed();
			writer.template = writerContext.getBean(KubernetesTemplate.class);
			reader(controlPlane, namespace, reader, readerTracing).run((readerContext) -> {
				assertThat(readerContext).hasNotFailed();
				TraceContext change = createInATraceOfTheUsersTool(user, api, namespace, "shop");

				String token = namespace.name() + "/shop-token";
				SpanData readerCall = await().atMost(WAIT)
					.until(() -> readerTracing.span("kubeop.key", token), Objects::nonNull);
				SpanData writerCall = writerTracing.span("kubeop.key", namespace.name() + "/shop");
				SpanData apply = writerTracing.span("kubeop.object.name", "shop-token");
				// user change -> the writer's call -> its apply -> the reader's call: one
				// trace, each a child of the one before
				assertThat(writerCall.getTraceId()).isEqualTo(change.traceId());
				assertThat(writerCall.getParentSpanId()).isEqualTo(change.spanId());
				assertThat(writerCall.getKind()).isEqualTo(SpanKind.CONSUMER);
				assertThat(apply.getParentSpanId()).isEqualTo(writerCall.getSpanId());
				assertThat(apply.getKind()).isEqualTo(SpanKind.CLIENT);
				V1Secret written = api.readNamespacedSecret("shop-token", namespace.name()).execute();
				assertThat(written.getMetadata().getAnnotations()).containsEntry(TraceContextAnnotation.NAME,
						OtelTracing.traceparent(apply));
				assertThat(readerCall.getTraceId()).isEqualTo(change.traceId());
				assertThat(readerCall.getParentSpanId()).isEqualTo(apply.getSpanId());
				assertThat(readerCall.getParentSpanContext().isRemote()).isTrue();
				// a change of the app that leaves the Secret's desired state as it was:
				// the writer is called, its apply is not sent, the trace context changes
				// nothing
				String resourceVersion = written.getMetadata().getResourceVersion();
				ApiClient client = controlPlane.apiClient();
				PatchUtils.patch(V1ConfigMap.class,
						() -> new CoreV1Api(client)
							.patchNamespacedConfigMap("shop", namespace.name(),
									new V1Patch("{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}"))
							.buildCall(null),
						V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
				await().atMost(WAIT)
					.until(() -> writerTracing.spans("kubeop.key", namespace.name() + "/shop").size() == 2);
				assertThat(writerTracing.spans("kubeop.object.name", "shop-token")).hasSize(1);
				assertThat(api.readNamespacedSecret("shop-token", namespace.name())
					.execute()
					.getMetadata()
					.getResourceVersion()).isEqualTo(resourceVersion);
			});
		});
	}

	@Test
	void aRetryOfACallThatContinuedATraceIsASpanOfItsOwnInThatTrace(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		OtelTracing user = new OtelTracing();
		OtelTracing writerTracing = new OtelTracing();
		OtelTracing readerTracing = new OtelTracing();
		Writer writer = new Writer();
		Reader reader = new Reader(readerTracing);
		reader.failOnce.add("flaky-token");
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		writer(controlPlane, namespace, writer, writerTracing).run((writerContext) -> {
			assertThat(writerContext).hasNotFailed();
			writer.template = writerContext.getBean(KubernetesTemplate.class);
			reader(controlPlane, namespace, reader, readerTracing).run((readerContext) -> {
				assertThat(readerContext).hasNotFailed();
				TraceContext change = createInATraceOfTheUsersTool(user, api, namespace, "flaky");

				String token = namespace.name() + "/flaky-token";
				await().atMost(WAIT).until(() -> reader.calls.contains("flaky-token"));
				await().atMost(WAIT).until(() -> readerTracing.spans("kubeop.key", token).size() == 2);
				List<SpanData> calls = readerTracing.spans("kubeop.key", token);
				SpanData apply = writerTracing.span("kubeop.object.name", "flaky-token");
				// the failed call and its retry: two spans, both children of the write
				// that caused them, in the user's trace
				assertThat(calls)
					.extracting((call) -> call.getAttributes().get(AttributeKey.stringKey("kubeop.attempt")))
					.containsExactlyInAnyOrder("first", "retry");
				assertThat(calls).extracting(SpanData::getSpanId).doesNotHaveDuplicates();
				assertThat(calls).extracting(SpanData::getTraceId).containsOnly(change.traceId());
				assertThat(calls).extracting(SpanData::getParentSpanId).containsOnly(apply.getSpanId());
			});
		});
	}

	@Test
	void retriesOfAChangeThatCarriedNoTraceContextAreSpansOfTheFirstAttemptsTrace(ControlPlane controlPlane,
			TestNamespace namespace) {
		OtelTracing readerTracing = new OtelTracing();
		Reader reader = new Reader(readerTracing);
		reader.failures.put("plain", new AtomicInteger(2));
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		reader(controlPlane, namespace, reader, readerTracing).run((context) -> {
			assertThat(context).hasNotFailed();
			// a plain write, as kubectl makes it: no trace context on the object
			api.createNamespacedSecret(namespace.name(), token(namespace, "plain")).execute();
			String key = namespace.name() + "/plain";
			await().atMost(WAIT).until(() -> reader.calls.contains("plain"));
			await().atMost(WAIT).until(() -> readerTracing.spans("kubeop.key", key).size() == 3);
			List<SpanData> attempts = byStart(readerTracing.spans("kubeop.key", key));
			SpanData first = attempts.get(0);
			// the first attempt starts a trace; both retries are spans of that trace,
			// children of the first attempt
			assertThat(first.getParentSpanContext().isValid()).isFalse();
			assertThat(attempts)
				.extracting((call) -> call.getAttributes().get(AttributeKey.stringKey("kubeop.attempt")))
				.containsExactly("first", "retry", "retry");
			assertThat(attempts).extracting(SpanData::getSpanId).doesNotHaveDuplicates();
			assertThat(attempts).extracting(SpanData::getTraceId).containsOnly(first.getTraceId());
			assertThat(attempts.subList(1, 3)).extracting(SpanData::getParentSpanId).containsOnly(first.getSpanId());
			// the key's change is settled: its next change is no retry, and starts a
			// trace of its own
			patch(controlPlane, namespace, "plain", "{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}");
			await().atMost(WAIT).until(() -> readerTracing.spans("kubeop.key", key).size() == 4);
			SpanData next = byStart(readerTracing.spans("kubeop.key", key)).get(3);
			assertThat(next.getParentSpanContext().isValid()).isFalse();
			assertThat(next.getTraceId()).isNotEqualTo(first.getTraceId());
		});
	}

	@Test
	void theMdcHoldsTheTraceAndSpanIdsOfTheCallWhileItRuns(ControlPlane controlPlane, TestNamespace namespace) {
		OtelTracing readerTracing = new OtelTracing();
		Reader reader = new Reader(readerTracing);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		reader(controlPlane, namespace, reader, readerTracing).run((context) -> {
			assertThat(context).hasNotFailed();
			api.createNamespacedSecret(namespace.name(), token(namespace, "logged")).execute();
			SpanData call = await().atMost(WAIT)
				.until(() -> readerTracing.span("kubeop.key", namespace.name() + "/logged"), Objects::nonNull);
			// what Boot's log pattern shows during the call, as the bridge fills the MDC
			assertThat(reader.mdc.get("logged"))
				.isEqualTo(Map.of("traceId", call.getTraceId(), "spanId", call.getSpanId()));
		});
	}

	@Test
	void aCallAtStartContinuesNoTrace(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		OtelTracing writerTracing = new OtelTracing();
		OtelTracing readerTracing = new OtelTracing();
		Writer writer = new Writer();
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		writer(controlPlane, namespace, writer, writerTracing).run((writerContext) -> {
			assertThat(writerContext).hasNotFailed();
			writer.template = writerContext.getBean(KubernetesTemplate.class);
			api.createNamespacedConfigMap(namespace.name(), app(namespace, "early")).execute();
			SpanData apply = await().atMost(WAIT)
				.until(() -> writerTracing.span("kubeop.object.name", "early-token"), Objects::nonNull);
			// the reader starts after the write: its initial list, not the write, calls
			// it
			reader(controlPlane, namespace, new Reader(readerTracing), readerTracing).run((readerContext) -> {
				assertThat(readerContext).hasNotFailed();
				SpanData call = await().atMost(WAIT)
					.until(() -> readerTracing.span("kubeop.key", namespace.name() + "/early-token"), Objects::nonNull);
				assertThat(call.getParentSpanContext().isValid()).isFalse();
				assertThat(call.getTraceId()).isNotEqualTo(apply.getTraceId());
			});
		});
	}

	@Test
	void aChangeOrAnAddThatARelistFindsContinuesNoTrace(ControlPlane shared) throws Exception {
		assumeThat(shared).isInstanceOf(LocalControlPlane.class);
		// a control plane of its own: without the watch cache a resumed watch reaches
		// etcd, which compacts old revisions away (410 Gone), so the informer relists
		try (LocalControlPlane controlPlane = CompactingControlPlane.start();
				FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			String namespace = "relisted";
			CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
			api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
			OtelTracing readerTracing = new OtelTracing();
			Reader reader = new Reader(readerTracing);
			this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientVia(proxy.url()))
				.withPropertyValues("kubeop.informers.namespaces=" + namespace,
						"kubeop.informers.resources.tokens.api-version=v1",
						"kubeop.informers.resources.tokens.kind=Secret",
						"kubeop.informers.resources.tokens.label-selector=role=token")
				.withBean(Reader.class, () -> reader)
				.withBean(ObservationRegistry.class, readerTracing::registry)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					api.createNamespacedSecret(namespace, token(namespace, "changed")).execute();
					await().atMost(WAIT).until(() -> reader.calls.contains("changed"));
					ResourceInformer<?> informer = context.getBean(HandlerRegistrar.class)
						.controllers()
						.iterator()
						.next()
						.informer();
					long relists = informer.status().relists();
					proxy.cut();
					await().atMost(WAIT).until(() -> informer.status().state() == WatchState.RECONNECTING);
					// nothing the informer saw is newer than this revision
					long seen = Long
						.parseLong(api.listNamespacedSecret(namespace).execute().getMetadata().getResourceVersion());
					// traced writes while no watch tells of them: a change and an add
					patch(controlPlane.apiClient(), namespace, "changed", traced("1", "{\"touched\":\"yes\"}"));
					V1Secret created = token(namespace, "created");
					created.getMetadata().putAnnotationsItem(TraceContextAnnotation.NAME, traceparent("2"));
					api.createNamespacedSecret(namespace, created).execute();
					// once etcd has compacted past it, the watch cannot resume: 410,
					// relist
					await().atMost(WAIT)
						.until(() -> CompactingControlPlane.isCompacted(controlPlane.apiClient(), namespace,
								Long.toString(seen + 1)));
					proxy.restore();
					SpanData add = await().atMost(WAIT)
						.until(() -> readerTracing.span("kubeop.key", namespace + "/created"), Objects::nonNull);
					await().atMost(WAIT)
						.until(() -> readerTracing.spans("kubeop.key", namespace + "/changed").size() == 2);
					assertThat(informer.status().relists()).as("relists after the cut").isGreaterThan(relists);
					SpanData change = byStart(readerTracing.spans("kubeop.key", namespace + "/changed")).get(1);
					// the relist found the writes, not their writers
					for (SpanData call : List.of(add, change)) {
						assertThat(call.getParentSpanContext().isValid())
							.as("the call for %s has a parent",
									call.getAttributes().get(AttributeKey.stringKey("kubeop.key")))
							.isFalse();
						assertThat(call.getTraceId()).isNotIn(TRACE_ID + "1", TRACE_ID + "2");
					}
					// the watch again: a traced change it delivers is the writer's
					patch(controlPlane.apiClient(), namespace, "changed", traced("3", "{\"touched\":\"again\"}"));
					await().atMost(WAIT)
						.until(() -> readerTracing.spans("kubeop.key", namespace + "/changed").size() == 3);
					SpanData watched = byStart(readerTracing.spans("kubeop.key", namespace + "/changed")).get(2);
					assertThat(watched.getTraceId()).isEqualTo(TRACE_ID + "3");
				});
		}
	}

	@Test
	void aChangeOfTheTraceContextAloneCallsNoHandler(ControlPlane controlPlane, TestNamespace namespace) {
		OtelTracing readerTracing = new OtelTracing();
		Reader reader = new Reader(readerTracing);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		reader(controlPlane, namespace, reader, readerTracing).run((context) -> {
			assertThat(context).hasNotFailed();
			api.createNamespacedSecret(namespace.name(), token(namespace, "quiet")).execute();
			api.createNamespacedSecret(namespace.name(), token(namespace, "sentinel")).execute();
			await().atMost(WAIT).until(() -> reader.calls.contains("quiet") && reader.calls.contains("sentinel"));
			// only the trace context changes: as a traced write would that changes
			// nothing
			// else
			patch(controlPlane, namespace, "quiet", "{\"metadata\":{\"annotations\":{\"" + TraceContextAnnotation.NAME
					+ "\":\"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\"}}}");
			// the sentinel: a real change, queued after the first on the one worker
			patch(controlPlane, namespace, "sentinel", "{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}");
			await().atMost(WAIT).until(() -> count(reader.calls, "sentinel") == 2);
			assertThat(count(reader.calls, "quiet")).as("calls of the Secret whose trace context alone changed")
				.isEqualTo(1);
		});
	}

	@Test
	void aMalformedOrForeignTraceContextIsCountedAndStartsATrace(ControlPlane controlPlane, TestNamespace namespace) {
		OtelTracing readerTracing = new OtelTracing();
		Reader reader = new Reader(readerTracing);
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		reader(controlPlane, namespace, reader, readerTracing).run((context) -> {
			assertThat(context).hasNotFailed();
			SimpleMeterRegistry meters = new SimpleMeterRegistry();
			context.getBeansOfType(MeterBinder.class).values().forEach((binder) -> binder.bindTo(meters));
			V1Secret malformed = token(namespace, "malformed");
			malformed.getMetadata().putAnnotationsItem(TraceContextAnnotation.NAME, "not a trace context");
			V1Secret foreign = token(namespace, "foreign");
			// a later version of traceparent, or another tool's: not continued
			foreign.getMetadata()
				.putAnnotationsItem(TraceContextAnnotation.NAME,
						"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
			api.createNamespacedSecret(namespace.name(), malformed).execute();
			api.createNamespacedSecret(namespace.name(), foreign).execute();
			for (String name : List.of("malformed", "foreign")) {
				SpanData call = await().atMost(WAIT)
					.until(() -> readerTracing.span("kubeop.key", namespace.name() + "/" + name), Objects::nonNull);
				assertThat(call.getParentSpanContext().isValid()).isFalse();
				assertThat(call.getTraceId()).isNotEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
			}
			assertThat(meters.get("kubeop.trace.context.rejected").functionCounter().count()).isEqualTo(2.0);
		});
	}

	private ApplicationContextRunner writer(ControlPlane controlPlane, TestNamespace namespace, Writer writer,
			OtelTracing tracing) {
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.apps.api-version=v1", "kubeop.informers.resources.apps.kind=ConfigMap",
					"kubeop.informers.resources.apps.label-selector=role=app")
			.withBean(Writer.class, () -> writer)
			.withBean(ObservationRegistry.class, tracing::registry);
	}

	private ApplicationContextRunner reader(ControlPlane controlPlane, TestNamespace namespace, Reader reader,
			OtelTracing tracing) {
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.tokens.api-version=v1", "kubeop.informers.resources.tokens.kind=Secret",
					"kubeop.informers.resources.tokens.label-selector=role=token")
			.withBean(Reader.class, () -> reader)
			.withBean(ObservationRegistry.class, tracing::registry);
	}

	/**
	 * Creates an app as a user's tool that traces its changes would: in a span of its
	 * own, whose trace context it puts on the object.
	 */
	private static TraceContext createInATraceOfTheUsersTool(OtelTracing user, CoreV1Api api, TestNamespace namespace,
			String name) throws ApiException {
		Span change = user.tracer().nextSpan().name("kubectl apply").start();
		change.end();
		V1ConfigMap app = app(namespace, name);
		app.getMetadata()
			.putAnnotationsItem(TraceContextAnnotation.NAME,
					"00-" + change.context().traceId() + "-" + change.context().spanId() + "-01");
		api.createNamespacedConfigMap(namespace.name(), app).execute();
		return change.context();
	}

	private static void patch(ControlPlane controlPlane, TestNamespace namespace, String name, String patch)
			throws ApiException {
		ApiClient client = controlPlane.apiClient();
		PatchUtils.patch(V1Secret.class,
				() -> new CoreV1Api(client).patchNamespacedSecret(name, namespace.name(), new V1Patch(patch))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
	}

	/** The trace ids of the test's own trace contexts, each ending in a digit. */
	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e473";

	private static String traceparent(String digit) {
		return "00-" + TRACE_ID + digit + "-00f067aa0ba902b7-01";
	}

	/** A merge patch of a Secret's labels that brings a new trace context. */
	private static String traced(String digit, String labels) {
		return "{\"metadata\":{\"labels\":" + labels + ",\"annotations\":{\"" + TraceContextAnnotation.NAME + "\":\""
				+ traceparent(digit) + "\"}}}";
	}

	private static void patch(ApiClient client, String namespace, String name, String patch) throws ApiException {
		PatchUtils.patch(V1Secret.class,
				() -> new CoreV1Api(client).patchNamespacedSecret(name, namespace, new V1Patch(patch)).buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
	}

	private static V1Secret token(String namespace, String name) {
		return new V1Secret()
			.metadata(new V1ObjectMeta().name(name).namespace(namespace).labels(Map.of("role", "token")))
			.stringData(Map.of("token", "t"));
	}

	private static List<SpanData> byStart(List<SpanData> spans) {
		return spans.stream().sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
	}

	private static long count(List<String> calls, String name) {
		return calls.stream().filter(name::equals).count();
	}

	private static V1ConfigMap app(TestNamespace namespace, String name) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(name).namespace(namespace.name()).labels(Map.of("role", "app")));
	}

	private static V1Secret token(TestNamespace namespace, String name) {
		return new V1Secret()
			.metadata(new V1ObjectMeta().name(name).namespace(namespace.name()).labels(Map.of("role", "token")))
			.stringData(Map.of("token", "t"));
	}

	/**
	 * Applies a token Secret per app.
	 */
	static class Writer {

		volatile KubernetesTemplate template;

		@Reconcile(informer = "apps")
		void reconcile(V1ConfigMap app) throws ApiException {
			this.template.apply(new V1Secret()
				.metadata(new V1ObjectMeta().name(app.getMetadata().getName() + "-token")
					.namespace(app.getMetadata().getNamespace())
					.labels(Map.of("role", "token")))
				// data, not the write-only stringData: an apply of the same data
				// again is not sent
				.data(Map.of("token", "t".getBytes(StandardCharsets.UTF_8))));
		}

	}

	/**
	 * Records its calls and the MDC during them.
	 */
	static class Reader {

		final OtelTracing tracing;

		final List<String> calls = new CopyOnWriteArrayList<>();

		final Set<String> failOnce = ConcurrentHashMap.newKeySet();

		/**
		 * How many more attempts fail, by name.
		 */
		final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

		final Map<String, Map<String, String>> mdc = new ConcurrentHashMap<>();

		Reader(OtelTracing tracing) {
			this.tracing = tracing;
		}

		@Reconcile(informer = "tokens")
		void reconcile(V1Secret token) {
			String name = token.getMetadata().getName();
			if (this.failOnce.remove(name)) {
				throw new IllegalStateException("first attempt fails");
			}
			AtomicInteger failures = this.failures.get(name);
			if (failures != null && failures.getAndDecrement() > 0) {
				throw new IllegalStateException("attempt fails");
			}
			String traceId = MDC.get("traceId");
			String spanId = MDC.get("spanId");
			this.mdc.put(name,
					(traceId != null && spanId != null) ? Map.of("traceId", traceId, "spanId", spanId) : Map.of());
			this.calls.add(name);
		}

	}

}
