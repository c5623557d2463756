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

import java.util.Set;
import java.util.function.Predicate;

import io.github.kubeop.informer.ResourceKind;
import io.kubernetes.client.common.KubernetesObject;

/**
 * The filters of one handler: its namespaces and its label selector. An object that stops
 * matching is, for that handler, deleted; one that starts matching is added.
 * <p>
 * A namespace filter on a handler of a cluster-scoped kind is a startup error: such
 * objects have no namespace, so the filter could only let every object through (the
 * opposite of what its author asked) or none (a handler that is never called). Either
 * would hide a mistake, so the registration fails naming the attribute to remove.
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
final class HandlerFilter<T extends KubernetesObject> implements Predicate<T> {

	private final Set<String> namespaces;

	private final LabelSelector labels;

	private HandlerFilter(Set<String> namespaces, LabelSelector labels) {
		this.namespaces = namespaces;
		this.labels = labels;
	}

	/**
	 * Builds the filter of a handler.
	 * @param <T> the resource type
	 * @param endpoint the handler
	 * @param resource the kind the handler's informer holds
	 * @return the filter
	 * @throws IllegalStateException if the handler filters a cluster-scoped kind by
	 * namespace
	 */
	static <T extends KubernetesObject> HandlerFilter<T> of(HandlerEndpoint endpoint, ResourceKind resource) {
		if (!endpoint.namespaces().isEmpty() && !resource.namespaced()) {
			throw new IllegalStateException("Handler '" + endpoint.name() + "' is limited to namespaces "
					+ endpoint.namespaces() + ", but " + resource.kind() + " (" + resource
					+ ") is cluster-scoped: its objects have no namespace. Remove the 'namespaces' attribute of "
					+ "its @OnAdd, @OnUpdate and @OnDelete methods (or HandlerEndpoint.Builder.namespaces), and "
					+ "select objects with a label selector instead.");
		}
		return new HandlerFilter<>(endpoint.namespaces(), LabelSelector.parse(endpoint.labelSelector()));
	}

	@Override
	public boolean test(T object) {
		return inNamespaces(object.getMetadata().getNamespace()) && this.labels.test(object.getMetadata().getLabels());
	}

	private boolean inNamespaces(String namespace) {
		// Set.copyOf's contains(null) throws
		return this.namespaces.isEmpty() || (namespace != null && this.namespaces.contains(namespace));
	}

}
