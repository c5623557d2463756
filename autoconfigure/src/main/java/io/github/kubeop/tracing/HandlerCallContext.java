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

import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.Trigger;
import io.github.kubeop.informer.ResourceKind;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * What an observation of a handler call knows: the handler, the key, why and how often it
 * was called, how long the key waited, and, once it ended, how. A receiver context: its
 * carrier is the trace context the change that caused the call brought on the object (a
 * W3C {@code traceparent}, see {@link io.github.kubeop.handler.TraceContextAnnotation}),
 * which a propagating tracing handler (Spring Boot registers one with a tracing bridge)
 * continues; empty when there is none, and the call starts a trace of its own.
 *
 * @author Kubeop authors
 */
public class HandlerCallContext extends ReceiverContext<String> {

	/**
	 * The only field the carrier answers: what a W3C propagator reads.
	 */
	static final String TRACEPARENT = "traceparent";

	private final String handler;

	private final String key;

	private final ResourceKind resource;

	private final Trigger trigger;

	private final int attempt;

	private final long queueWaitNanos;

	private HandlerObserver.Outcome outcome;

	/**
	 * Creates a context.
	 * @param handler the handler name
	 * @param key the key of the handled object
	 * @param resource its resource
	 * @param trigger why the call is made
	 * @param attempt the attempt, {@code 1} for the first
	 * @param queueWaitNanos how long the key waited in the queue, negative if not known
	 */
	public HandlerCallContext(String handler, String key, ResourceKind resource, Trigger trigger, int attempt,
			long queueWaitNanos) {
		this(handler, key, resource, trigger, attempt, queueWaitNanos, null);
	}

	/**
	 * Creates a context of a call that continues a writer's trace.
	 * @param handler the handler name
	 * @param key the key of the handled object
	 * @param resource its resource
	 * @param trigger why the call is made
	 * @param attempt the attempt, {@code 1} for the first
	 * @param queueWaitNanos how long the key waited in the queue, negative if not known
	 * @param traceContext the well-formed W3C {@code traceparent} the object carried, or
	 * {@code null}
	 */
	public HandlerCallContext(String handler, String key, ResourceKind resource, Trigger trigger, int attempt,
			long queueWaitNanos, String traceContext) {
		// nothing but the traceparent: no tracestate or baggage is read from an object
		super((carrier, field) -> (TRACEPARENT.equals(field) && !carrier.isEmpty()) ? carrier : null, Kind.CONSUMER);
		setCarrier((traceContext != null) ? traceContext : "");
		this.handler = handler;
		this.key = key;
		this.resource = resource;
		this.trigger = trigger;
		this.attempt = attempt;
		this.queueWaitNanos = queueWaitNanos;
	}

	/**
	 * Returns the trace context the call continues.
	 * @return the W3C {@code traceparent}, or {@code null} if the call starts a trace
	 */
	public String getTraceContext() {
		String carrier = getCarrier();
		return (carrier == null || carrier.isEmpty()) ? null : carrier;
	}

	/**
	 * Returns the handler name.
	 * @return the name
	 */
	public String getHandler() {
		return this.handler;
	}

	/**
	 * Returns the key of the handled object.
	 * @return the key, {@code namespace/name} or {@code name}
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the namespace of the handled object.
	 * @return the namespace, or {@code null} if cluster-scoped
	 */
	public String getNamespace() {
		int slash = this.key.indexOf('/');
		return (slash > 0) ? this.key.substring(0, slash) : null;
	}

	/**
	 * Returns the resource of the handled object.
	 * @return the resource
	 */
	public ResourceKind getResource() {
		return this.resource;
	}

	/**
	 * Returns why the call is made.
	 * @return the trigger
	 */
	public Trigger getTrigger() {
		return this.trigger;
	}

	/**
	 * Returns the attempt.
	 * @return the attempt, {@code 1} for the first
	 */
	public int getAttempt() {
		return this.attempt;
	}

	/**
	 * Returns how long the key waited in the queue before the call.
	 * @return the nanoseconds, negative if not known
	 */
	public long getQueueWaitNanos() {
		return this.queueWaitNanos;
	}

	/**
	 * Returns how the call ended.
	 * @return the outcome, {@code null} while the call runs
	 */
	public HandlerObserver.Outcome getOutcome() {
		return this.outcome;
	}

	/**
	 * Sets how the call ended.
	 * @param outcome the outcome
	 */
	public void setOutcome(HandlerObserver.Outcome outcome) {
		this.outcome = outcome;
	}

}
