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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;

/**
 * The handler methods of one bean for one resource, with their filters: what a
 * {@link Controller} calls. Built by the annotation processor, or by hand for the
 * programmatic {@link HandlerRegistrar}.
 *
 * @param name the handler name, used for its queue, threads, metrics and properties
 * @param informerName the informer to listen to, or {@code null} to pick it by type
 * @param resourceType the resource type
 * @param methods the methods, in declaration order
 * @param namespaces namespaces to handle, empty for all
 * @param labelSelector label selector objects must match, or {@code null}
 * @param owned owned types whose changes re-trigger their owner, by informer name (empty
 * for by type)
 * @author Kubeop authors
 */
public record HandlerEndpoint(String name, String informerName, Class<? extends KubernetesObject> resourceType,
		List<HandlerMethod> methods, Set<String> namespaces, String labelSelector,
		Map<Class<? extends KubernetesObject>, String> owned) {

	public HandlerEndpoint {
		methods = List.copyOf(methods);
		namespaces = Set.copyOf(namespaces);
		owned = Map.copyOf(owned);
		labelSelector = (labelSelector == null || labelSelector.isBlank()) ? null : labelSelector;
	}

	List<HandlerMethod> methods(HandlerMethod.Kind kind) {
		List<HandlerMethod> selected = new ArrayList<>();
		for (HandlerMethod method : this.methods) {
			if (method.kind() == kind) {
				selected.add(method);
			}
		}
		return selected;
	}

	boolean wantsResync() {
		return this.methods.stream().anyMatch(HandlerMethod::wantsResync);
	}

}
