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

import io.github.kubeop.informer.ResourceKind;

/**
 * Traces the writes {@link KubernetesTemplate} sends: told when a write request starts
 * and what the API server answered, on the thread that writes, so that a write made in a
 * handler call is traced inside that call. Reads are not traced. Implementations must be
 * fast, thread-safe, and must not throw.
 *
 * @author Kubeop authors
 */
public interface WriteTracing {

	/**
	 * Tracing that does nothing.
	 */
	WriteTracing NONE = (resource, verb, namespace, name, subresource) -> Traced.NONE;

	/**
	 * A write request starts on the current thread.
	 * @param resource the resource written
	 * @param verb {@code create}, {@code apply}, {@code patch}, {@code update} or
	 * {@code delete}
	 * @param namespace the object's namespace, {@code null} if cluster-scoped
	 * @param name the object's name, {@code null} for its collection
	 * @param subresource the subresource path, such as {@code /status}, or an empty
	 * string
	 * @return what to tell of the request's end, {@link Traced#NONE} when nothing is
	 * traced
	 */
	Traced start(ResourceKind resource, String verb, String namespace, String name, String subresource);

	/**
	 * A traced write request, ended once, on the thread that started it.
	 */
	interface Traced {

		/**
		 * A request nothing traces.
		 */
		Traced NONE = (code, error) -> {
		};

		/**
		 * Returns the trace context to carry on the written object, as the value of
		 * {@code io.github.kubeop.handler.TraceContextAnnotation}: the W3C
		 * {@code traceparent} of this write's span.
		 * @return the value, or {@code null} to carry nothing
		 */
		default String traceContext() {
			return null;
		}

		/**
		 * The request ended.
		 * @param code the HTTP status code, {@code 0} if there was no answer
		 * @param error the exception it failed with, or {@code null}
		 */
		void end(int code, Throwable error);

	}

}
