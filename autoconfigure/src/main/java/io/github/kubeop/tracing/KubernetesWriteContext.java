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

import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.handler.TraceContextAnnotation;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;

/**
 * What an observation of a write request knows: the verb, the resource and object, and
 * the API server's answer. Never the object's contents. A sender context whose carrier
 * takes the W3C {@code traceparent} a propagating tracing handler injects (Spring Boot
 * registers one with a tracing bridge): the trace context the write carries on the
 * object, see {@link TraceContextAnnotation}. Only that field: no {@code tracestate} and
 * no baggage reach an object.
 *
 * @author Kubeop authors
 */
public class KubernetesWriteContext extends SenderContext<KubernetesWriteContext> {

	private final ResourceKind resource;

	private final String verb;

	private final String namespace;

	private final String name;

	private final String subresource;

	private int statusCode;

	private String traceContext;

	/**
	 * Creates a context.
	 * @param resource the resource written
	 * @param verb the verb
	 * @param namespace the object's namespace, {@code null} if cluster-scoped
	 * @param name the object's name, {@code null} for a collection
	 * @param subresource the subresource path, such as {@code /status}, or an empty
	 * string
	 */
	public KubernetesWriteContext(ResourceKind resource, String verb, String namespace, String name,
			String subresource) {
		super((carrier, field, value) -> {
			if (carrier != null && HandlerCallContext.TRACEPARENT.equals(field)
					&& TraceContextAnnotation.isWellFormed(value)) {
				carrier.traceContext = value;
			}
		}, Kind.CLIENT);
		setCarrier(this);
		this.resource = resource;
		this.verb = verb;
		this.namespace = namespace;
		this.name = name;
		this.subresource = subresource;
	}

	/**
	 * Returns the resource written.
	 * @return the resource
	 */
	public ResourceKind getResource() {
		return this.resource;
	}

	/**
	 * Returns the verb.
	 * @return {@code create}, {@code apply}, {@code patch}, {@code update} or
	 * {@code delete}
	 */
	public String getVerb() {
		return this.verb;
	}

	/**
	 * Returns the written object's namespace.
	 * @return the namespace, or {@code null} if cluster-scoped
	 */
	public String getNamespace() {
		return this.namespace;
	}

	/**
	 * Returns the written object's name.
	 * @return the name, or {@code null} for a collection
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns the subresource written.
	 * @return the path, such as {@code /status}, or an empty string
	 */
	public String getSubresource() {
		return this.subresource;
	}

	/**
	 * Returns the trace context injected for the written object to carry.
	 * @return the W3C {@code traceparent} of the write's span, or {@code null} if no
	 * propagating handler injected one
	 */
	public String getTraceContext() {
		return this.traceContext;
	}

	/**
	 * Returns the HTTP status code the API server answered.
	 * @return the code, {@code 0} without an answer or before it
	 */
	public int getStatusCode() {
		return this.statusCode;
	}

	/**
	 * Sets the HTTP status code the API server answered.
	 * @param statusCode the code, {@code 0} without an answer
	 */
	public void setStatusCode(int statusCode) {
		this.statusCode = statusCode;
	}

}
