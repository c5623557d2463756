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

import io.github.kubeop.handler.TraceContextAnnotation;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.TracingObservationHandler;

import org.springframework.util.ClassUtils;

/**
 * The W3C {@code traceparent} of the span a Micrometer Tracing bridge (OpenTelemetry's,
 * Brave's) made for an observation: what the retries of a failed handler call continue.
 * The Observation API has no way to ask an observation for its span; the bridges keep it
 * in the context as a {@link TracingObservationHandler.TracingContext}. Without
 * Micrometer Tracing on the class path there is no such span, and nothing is answered.
 *
 * @author Kubeop authors
 */
final class SpanTraceContext {

	private static final boolean TRACING_PRESENT = ClassUtils
		.isPresent("io.micrometer.tracing.handler.TracingObservationHandler", SpanTraceContext.class.getClassLoader());

	private static final String ZEROS = "00000000000000000000000000000000";

	private SpanTraceContext() {
	}

	/**
	 * Returns the trace context of an observation's span.
	 * @param context the observation's context
	 * @return a well-formed W3C {@code traceparent}, or {@code null} if the observation
	 * has no span (no tracing handler) or one with invalid ids
	 */
	static String of(Observation.Context context) {
		return TRACING_PRESENT ? Bridge.of(context) : null;
	}

	/**
	 * Loaded only with Micrometer Tracing on the class path.
	 */
	private static final class Bridge {

		static String of(Observation.Context context) {
			TracingObservationHandler.TracingContext tracing = context
				.get(TracingObservationHandler.TracingContext.class);
			Span span = (tracing != null) ? tracing.getSpan() : null;
			// not Span.isNoop(): a bridge may call an ended span a no-op (OpenTelemetry's
			// does, its span no longer recording), and a failed call's span has ended
			if (span == null) {
				return null;
			}
			TraceContext trace = span.context();
			// a bridge with 64-bit trace ids (Brave's default) gives 16 hex digits: W3C
			// pads them with zeros on the left, as Brave's own W3C propagation does
			String traceparent = "00-" + padded(trace.traceId(), 32) + "-" + padded(trace.spanId(), 16) + "-"
					+ (Boolean.TRUE.equals(trace.sampled()) ? "01" : "00");
			return TraceContextAnnotation.isWellFormed(traceparent) ? traceparent : null;
		}

		private static String padded(String id, int length) {
			if (id == null || id.length() >= length) {
				return id;
			}
			return ZEROS.substring(0, length - id.length()) + id;
		}

	}

}
