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
package io.github.kubeop.benchmarks;

import java.util.Collection;
import java.util.List;

import io.github.kubeop.tracing.ObservationTracing;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * Tracing as a Spring Boot application with {@code micrometer-tracing-bridge-otel} gets
 * it: OpenTelemetry's SDK with W3C propagation, the propagating sender and receiver
 * handlers before the default one, a batch span processor; every span sampled (the
 * costliest setting) and exported to nothing, so that the figure is Kubeop's and the
 * bridge's, not a collector's.
 *
 * @author Kubeop authors
 */
final class TracingOn {

	private TracingOn() {
	}

	/**
	 * Returns the tracing to give the handlers.
	 * @return the tracing
	 */
	static ObservationTracing tracing() {
		SdkTracerProvider provider = SdkTracerProvider.builder()
			.setSampler(Sampler.alwaysOn())
			.addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build())
			.build();
		io.opentelemetry.api.trace.Tracer otelTracer = provider.get("kubeop-benchmarks");
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		OtelTracer tracer = new OtelTracer(otelTracer, current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
		OtelPropagator propagator = new OtelPropagator(
				ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otelTracer);
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
					new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
					new DefaultTracingObservationHandler(tracer)));
		return new ObservationTracing(registry);
	}

	/**
	 * Takes every batch and sends it nowhere.
	 */
	private static final class DroppingExporter implements SpanExporter {

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

}
