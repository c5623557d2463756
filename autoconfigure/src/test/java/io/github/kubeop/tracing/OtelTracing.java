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

import java.util.List;
import java.util.function.Predicate;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.ArrayListSpanProcessor;
import io.micrometer.tracing.otel.bridge.EventPublishingContextWrapper;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.otel.bridge.Slf4JEventListener;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * A real tracing bridge, as Spring Boot sets it up with
 * {@code micrometer-tracing-bridge-otel}: OpenTelemetry's SDK with W3C propagation, the
 * propagating sender and receiver handlers before the default one, and the trace and span
 * ids put into the SLF4J MDC. Spans are kept in memory, exported as they end.
 *
 * @author Kubeop authors
 */
final class OtelTracing {

	static {
		// as Boot does: once per JVM, before OpenTelemetry's context storage is used
		Slf4JEventListener mdc = new Slf4JEventListener();
		ContextStorage.addWrapper(new EventPublishingContextWrapper(mdc::onEvent));
	}

	private final ArrayListSpanProcessor spans = new ArrayListSpanProcessor();

	private final ObservationRegistry registry = ObservationRegistry.create();

	private final OtelTracer tracer;

	private final OtelPropagator propagator;

	OtelTracing() {
		SdkTracerProvider provider = SdkTracerProvider.builder()
			.setSampler(Sampler.alwaysOn())
			.addSpanProcessor(this.spans)
			.build();
		io.opentelemetry.api.trace.Tracer otelTracer = provider.get("kubeop-tests");
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		this.tracer = new OtelTracer(otelTracer, current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
		this.propagator = new OtelPropagator(ContextPropagators.create(W3CTraceContextPropagator.getInstance()),
				otelTracer);
		this.registry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(this.tracer, this.propagator),
					new PropagatingReceiverTracingObservationHandler<>(this.tracer, this.propagator),
					new DefaultTracingObservationHandler(this.tracer)));
	}

	ObservationRegistry registry() {
		return this.registry;
	}

	OtelTracer tracer() {
		return this.tracer;
	}

	/**
	 * The ended spans.
	 */
	List<SpanData> spans() {
		return List.copyOf(this.spans.spans());
	}

	/**
	 * The ended spans whose attribute has the given value.
	 */
	List<SpanData> spans(String attribute, String value) {
		return spans().stream().filter(tagged(attribute, value)).toList();
	}

	/**
	 * The first ended span whose attribute has the given value, or {@code null}.
	 */
	SpanData span(String attribute, String value) {
		return spans().stream().filter(tagged(attribute, value)).findFirst().orElse(null);
	}

	private static Predicate<SpanData> tagged(String attribute, String value) {
		return (span) -> value.equals(span.getAttributes().get(AttributeKey.stringKey(attribute)));
	}

	/**
	 * The W3C {@code traceparent} of a span.
	 */
	static String traceparent(SpanData span) {
		return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-01";
	}

}
