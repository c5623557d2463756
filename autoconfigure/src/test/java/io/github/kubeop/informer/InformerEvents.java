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

package io.github.kubeop.informer;

import java.util.List;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;

/**
 * Feeds a {@link ResourceInformer} from a test as its list-and-watch loops would, without
 * an API server, for tests of what consumes its events.
 *
 * @author Kubeop authors
 */
public final class InformerEvents {

	private InformerEvents() {
	}

	/**
	 * Creates an informer whose loops are never started; its handlers are called as the
	 * events below come.
	 * @param <T> the resource type
	 * @param spec the spec
	 * @param resource the resource
	 * @return the informer
	 */
	public static <T extends KubernetesObject> ResourceInformer<T> informer(InformerSpec<T> spec,
			ResourceKind resource) {
		ResourceInformer<T> informer = new ResourceInformer<>(spec, resource, new ApiClient());
		informer.startDelivery();
		return informer;
	}

	/**
	 * Fills one namespace's part of the cache as a loop's first list does: its adds are
	 * the initial list's.
	 * @param <T> the resource type
	 * @param informer the informer
	 * @param namespace the namespace the list covers
	 * @param objects the objects listed
	 */
	public static <T extends KubernetesObject> void listedFirst(ResourceInformer<T> informer, String namespace,
			List<T> objects) {
		ResourceInformer<T>.Relist list = informer.startRelist(namespace, true);
		objects.forEach(list::listed);
		list.finish();
	}

	/**
	 * Replaces one namespace's part of the cache as a relist does: objects no longer
	 * listed are reported deleted with their final state unknown.
	 * @param <T> the resource type
	 * @param informer the informer
	 * @param namespace the namespace the relist covers
	 * @param objects the objects listed
	 */
	public static <T extends KubernetesObject> void relisted(ResourceInformer<T> informer, String namespace,
			List<T> objects) {
		informer.replace(namespace, objects, Set.of());
	}

	/**
	 * Applies a watch's {@code ADDED} or {@code MODIFIED} event.
	 * @param <T> the resource type
	 * @param informer the informer
	 * @param object the object
	 */
	public static <T extends KubernetesObject> void watched(ResourceInformer<T> informer, T object) {
		informer.upsert(object);
	}

	/**
	 * Applies a watch's {@code DELETED} event.
	 * @param <T> the resource type
	 * @param informer the informer
	 * @param finalState the object's final state
	 */
	public static <T extends KubernetesObject> void watchedDelete(ResourceInformer<T> informer, T finalState) {
		informer.delete(finalState);
	}

}
