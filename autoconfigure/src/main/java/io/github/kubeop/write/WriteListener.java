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
 * Told of every request {@link KubernetesTemplate} makes, for meters.
 *
 * @author Kubeop authors
 */
public interface WriteListener {

	/**
	 * Called after the API server answered a request, or after it failed without an
	 * answer.
	 * @param resource the resource
	 * @param verb {@code get}, {@code list}, {@code create}, {@code apply},
	 * {@code patch}, {@code update} or {@code delete}
	 * @param code the HTTP status code, {@code 0} if there was no answer
	 */
	void requested(ResourceKind resource, String verb, int code);

	/**
	 * Called when an apply was not sent because the live object already has its state.
	 * @param resource the resource
	 * @param verb {@code apply} or {@code apply-status}
	 */
	void unchanged(ResourceKind resource, String verb);

}
