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

import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.queue.QueueMetrics;

/**
 * Traces handler calls: told when a call starts and how it ended, on the worker thread
 * that makes the call, so that what the call does (its writes, its log lines) happens
 * inside what {@link #start} opened. {@link #NONE}, the default, costs a virtual call and
 * allocates nothing; {@code io.github.kubeop.tracing.ObservationTracing} traces through
 * Micrometer's Observation API. Implementations must be fast, thread-safe, and must not
 * throw.
 *
 * @author Kubeop authors
 */
public interface HandlerTracing {

	/**
	 * Tracing that does nothing.
	 */
	HandlerTracing NONE = (handler, key, resource, trigger, attempt, traceContext) -> Traced.NONE;

	/**
	 * A handler call starts on the current thread.
	 * @param handler the handler name
	 * @param key the key of the handled object
	 * @param resource the resource of the handled object
	 * @param trigger why the call is made
	 * @param attempt the attempt, {@code 1} for the first
	 * @param traceContext the trace context the call continues: the one the change that
	 * caused the call carried on the object (the {@link TraceContextAnnotation} it
	 * brought, as it is, possibly malformed); for a retry of a call that had none, the
	 * one {@link Traced#traceContext()} gave for the key's first failed attempt; or
	 * {@code null} if the call has nothing to continue: a start, a resync, a change that
	 * did not bring a new value
	 * @return what to tell of the call's end, {@link Traced#NONE} when nothing is traced
	 */
	Traced start(String handler, String key, ResourceKind resource, Trigger trigger, int attempt, String traceContext);

	/**
	 * Returns the queue metrics a handler's queue reports to, so that the tracing can
	 * tell how long the key of a call waited in the queue.
	 * @param metrics the queue metrics of the meters
	 * @return the metrics to use, by default the ones given
	 */
	default QueueMetrics queueMetrics(QueueMetrics metrics) {
		return metrics;
	}

	/**
	 * A traced call, ended once, on the thread that started it.
	 */
	interface Traced {

		/**
		 * A call nothing traces.
		 */
		Traced NONE = (outcome, error) -> {
		};

		/**
		 * The call ended.
		 * @param outcome how it ended
		 * @param error the exception it ended with, or {@code null}
		 */
		void end(HandlerObserver.Outcome outcome, Throwable error);

		/**
		 * Returns the trace context of this call's own span, for the retries of a call
		 * that continued no trace to continue: asked only when the call failed, and kept
		 * only until the key's next call succeeds.
		 * @return a W3C {@code traceparent}, or {@code null} if there is none (nothing
		 * traced, or a tracing that cannot tell)
		 */
		default String traceContext() {
			return null;
		}

	}

}
