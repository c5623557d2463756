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

import java.util.Map;

import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;

import org.springframework.util.StringUtils;

/**
 * Whether an informer's cache holds an object: the informer watches its resource, a
 * namespace it is in, and its labels match the informer's label selector. A field
 * selector is evaluated by the API server only, on fields this side cannot always see: an
 * informer with one never says {@link #CACHED} or {@link #NOT_CACHED}.
 *
 * @author Kubeop authors
 */
public enum InformerView {

	/**
	 * The informer caches the object.
	 */
	CACHED,

	/**
	 * The informer does not cache the object: another resource, another namespace, or
	 * labels its selector does not match.
	 */
	NOT_CACHED,

	/**
	 * The informer has a field selector on the object's resource: whether it caches the
	 * object cannot be told.
	 */
	UNDECIDED;

	/**
	 * Returns whether an informer caches an object.
	 * @param informer the informer
	 * @param resource the object's resource
	 * @param namespace the object's namespace, {@code null} if cluster-scoped
	 * @param labels the object's labels, may be {@code null}
	 * @return the view
	 */
	public static InformerView of(ResourceInformer<?> informer, ResourceKind resource, String namespace,
			Map<String, String> labels) {
		InformerSpec<?> spec = informer.spec();
		if (!sameResource(informer, resource)) {
			return NOT_CACHED;
		}
		boolean inNamespace = !resource.namespaced() || spec.namespaces().isEmpty()
				|| spec.namespaces().contains(namespace);
		boolean selected = !StringUtils.hasText(spec.labelSelector())
				|| LabelSelector.parse(spec.labelSelector()).test((labels != null) ? labels : Map.of());
		if (!inNamespace || !selected) {
			return NOT_CACHED;
		}
		return StringUtils.hasText(spec.fieldSelector()) ? UNDECIDED : CACHED;
	}

	/**
	 * Returns whether an informer lists and watches a resource, whatever its scope.
	 * @param informer the informer
	 * @param resource the resource
	 * @return whether the informer's resource is that resource
	 */
	public static boolean sameResource(ResourceInformer<?> informer, ResourceKind resource) {
		return informer.resource().group().equals(resource.group())
				&& informer.resource().plural().equals(resource.plural());
	}

}
