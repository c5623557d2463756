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

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerTracing;
import io.github.kubeop.handler.TraceContextAnnotation;
import io.github.kubeop.handler.Trigger;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.write.WriteTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Traces handler calls and their writes through Micrometer's Observation API. A handler
 * call's observation is opened in scope on the worker thread for the whole call, so that
 * a tracing bridge puts its trace and span ids into the logging MDC and the writes the
 * call makes become its children. With a registry that has no handlers
 * ({@link ObservationRegistry#isNoop()}, checked once when created), nothing is observed
 * and nothing is allocated per call.
 *
 * @author Kubeop authors
 */
public class ObservationTracing implements HandlerTracing, WriteTracing {

	private static final Log logger = LogFactory.getLog(ObservationTracing.class);

	private static final HandlerCallObservationConvention DEFAULT_HANDLER_CALL_CONVENTION = new DefaultHandlerCallObservationConvention();

	private static final KubernetesWriteObservationConvention DEFAULT_WRITE_CONVENTION = new DefaultKubernetesWriteObservationConvention();

	/**
	 * How long the key a worker took last waited in its queue, set by the queue on the
	 * worker's thread as it hands the key over, and taken by the call.
	 */
	private static final ThreadLocal<long[]> queueWait = ThreadLocal.withInitial(() -> new long[] { -1 });

	private final ObservationRegistry registry;

	private final boolean noop;

	private final HandlerCallObservationConvention handlerCallConvention;

	private final KubernetesWriteObservationConvention writeConvention;

	private final AtomicLong rejectedTraceContexts = new AtomicLong();

	private final AtomicBoolean failureLogged = new AtomicBoolean();

	/**
	 * Creates tracing with the default conventions.
	 * @param registry the registry
	 */
	public ObservationTracing(ObservationRegistry registry) {
		this(registry, null, null);
	}

	/**
	 * Creates tracing.
	 * @param registry the registry
	 * @param handlerCallConvention the convention of handler calls, {@code null} for the
	 * default
	 * @param writeConvention the convention of writes, {@code null} for the default
	 */
	public ObservationTracing(ObservationRegistry registry, HandlerCallObservationConvention handlerCallConvention,
			KubernetesWriteObservationConvention writeConvention) {
		this.registry = registry;
		this.noop = registry.isNoop();
		this.handlerCallConvention = handlerCallConvention;
		this.writeConvention = writeConvention;
	}

	/**
	 * Returns whether this tracing observes anything: {@code false} when the registry had
	 * no handlers when this tracing was created.
	 * @return whether calls and writes are observed
	 */
	public boolean isActive() {
		return !this.noop;
	}

	/**
	 * Returns how many handler calls found a trace context on their object that was
	 * malformed or foreign (no W3C {@code traceparent} of version {@code 00}) and started
	 * a trace of their own instead.
	 * @return the count since this tracing was created
	 */
	public long rejectedTraceContexts() {
		return this.rejectedTraceContexts.get();
	}

	@Override
	public HandlerTracing.Traced start(String handler, String key, ResourceKind resource, Trigger trigger, int attempt,
			String traceContext) {
		if (this.noop) {
			return HandlerTracing.Traced.NONE;
		}
		long[] waited = queueWait.get();
		long queueWaitNanos = waited[0];
		// one wait per take: a second call in one turn did not wait
		waited[0] = -1;
		String continued = traceContext;
		if (continued != null && !TraceContextAnnotation.isWellFormed(continued)) {
			// never parsed further, never logged: it is whatever someone wrote
			this.rejectedTraceContexts.incrementAndGet();
			continued = null;
		}
		try {
			HandlerCallContext context = new HandlerCallContext(handler, key, resource, trigger, attempt,
					queueWaitNanos, continued);
			Observation observation = KubeopObservation.HANDLER_CALL
				.observation(this.handlerCallConvention, DEFAULT_HANDLER_CALL_CONVENTION, () -> context, this.registry)
				.start();
			Observation.Scope scope = observation.openScope();
			return new HandlerTracing.Traced() {

				@Override
				public void end(HandlerObserver.Outcome outcome, Throwable error) {
					try {
						context.setOutcome(outcome);
						if (error != null) {
							observation.error(error);
						}
						scope.close();
						observation.stop();
					}
					catch (RuntimeException ex) {
						failed(ex);
					}
				}

				@Override
				public String traceContext() {
					try {
						return SpanTraceContext.of(context);
					}
					catch (RuntimeException ex) {
						failed(ex);
						return null;
					}
				}

			};
		}
		catch (RuntimeException ex) {
			failed(ex);
			return HandlerTracing.Traced.NONE;
		}
	}

	@Override
	public WriteTracing.Traced start(ResourceKind resource, String verb, String namespace, String name,
			String subresource) {
		if (this.noop) {
			return WriteTracing.Traced.NONE;
		}
		try {
			KubernetesWriteContext context = new KubernetesWriteContext(resource, verb, namespace, name, subresource);
			// the parent is the observation in scope: the handler call that writes. A
			// propagating handler injects the write's trace context into the context as
			// it starts.
			Observation observation = KubeopObservation.KUBERNETES_WRITE
				.observation(this.writeConvention, DEFAULT_WRITE_CONVENTION, () -> context, this.registry)
				.start();
			return new WriteTracing.Traced() {

				@Override
				public void end(int code, Throwable error) {
					try {
						context.setStatusCode(code);
						if (error != null) {
							observation.error(error);
						}
						observation.stop();
					}
					catch (RuntimeException ex) {
						failed(ex);
					}
				}

				@Override
				public String traceContext() {
					return context.getTraceContext();
				}

			};
		}
		catch (RuntimeException ex) {
			failed(ex);
			return WriteTracing.Traced.NONE;
		}
	}

	/**
	 * A tracing handler threw: the call or write goes on untraced, and the first failure
	 * is logged.
	 */
	private void failed(RuntimeException ex) {
		if (this.failureLogged.compareAndSet(false, true)) {
			logger.warn("Tracing failed; handler calls and writes go on (logged once)", ex);
		}
	}

	@Override
	public QueueMetrics queueMetrics(QueueMetrics metrics) {
		if (this.noop) {
			return metrics;
		}
		return new QueueMetrics() {

			@Override
			public void added(int priority) {
				metrics.added(priority);
			}

			@Override
			public void raised(int from, int to) {
				metrics.raised(from, to);
			}

			@Override
			public void taken(long waitedNanos, int priority) {
				queueWait.get()[0] = waitedNanos;
				metrics.taken(waitedNanos, priority);
			}

			@Override
			public void done(long workedNanos) {
				metrics.done(workedNanos);
			}

			@Override
			public void retried() {
				metrics.retried();
			}

		};
	}

}
