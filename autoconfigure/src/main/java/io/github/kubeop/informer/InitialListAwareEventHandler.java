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

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

/**
 * An event handler that tells the adds of the initial list from those of later changes,
 * as client-go's {@code OnAdd(obj, isInInitialList)} does. An add is in the initial list
 * when it comes from the first list of the informer (before it has synced), or from the
 * cached objects a handler added later is first told of. Such an add says that the object
 * exists, not that it was just created: a handler may treat it as work no change asked
 * for (low priority, no trace context to continue). An add from a later relist or a watch
 * is not in the initial list.
 * <p>
 * The handler is also told of the adds and changes a later relist finds (a list after a
 * watch broke, or its resource version expired), which no watch event told of: they come
 * from a list, not from the write that made them, so the writer is unknown. Unless
 * overridden, they are taken as a watch's.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
public interface InitialListAwareEventHandler<T extends KubernetesObject> extends ResourceEventHandler<T> {

	/**
	 * Called when an object is added to the cache.
	 * @param object the object
	 * @param inInitialList whether the add is part of the initial list
	 */
	void onAdd(T object, boolean inInitialList);

	@Override
	default void onAdd(T object) {
		onAdd(object, false);
	}

	/**
	 * Called when a relist finds an object the cache did not hold. It is not in the
	 * initial list: the object was created while no watch told of it.
	 * @param object the object
	 */
	default void onRelistAdd(T object) {
		onAdd(object, false);
	}

	/**
	 * Called when a relist finds a cached object changed.
	 * @param oldObject the cached state
	 * @param newObject the listed state
	 */
	default void onRelistUpdate(T oldObject, T newObject) {
		onUpdate(oldObject, newObject);
	}

	/**
	 * Tells a handler of an add, with whether it is in the initial list if the handler
	 * wants to know.
	 * @param <T> the Java type of the objects
	 * @param handler the handler
	 * @param object the added object
	 * @param inInitialList whether the add is part of the initial list
	 */
	static <T extends KubernetesObject> void onAdd(ResourceEventHandler<T> handler, T object, boolean inInitialList) {
		if (handler instanceof InitialListAwareEventHandler<T> aware) {
			aware.onAdd(object, inInitialList);
		}
		else {
			handler.onAdd(object);
		}
	}

	/**
	 * Tells a handler of an add a relist found, as one if the handler wants to know.
	 * @param <T> the Java type of the objects
	 * @param handler the handler
	 * @param object the added object
	 */
	static <T extends KubernetesObject> void onRelistAdd(ResourceEventHandler<T> handler, T object) {
		if (handler instanceof InitialListAwareEventHandler<T> aware) {
			aware.onRelistAdd(object);
		}
		else {
			handler.onAdd(object);
		}
	}

	/**
	 * Tells a handler of a change a relist found, as one if the handler wants to know.
	 * @param <T> the Java type of the objects
	 * @param handler the handler
	 * @param oldObject the cached state
	 * @param newObject the listed state
	 */
	static <T extends KubernetesObject> void onRelistUpdate(ResourceEventHandler<T> handler, T oldObject, T newObject) {
		if (handler instanceof InitialListAwareEventHandler<T> aware) {
			aware.onRelistUpdate(oldObject, newObject);
		}
		else {
			handler.onUpdate(oldObject, newObject);
		}
	}

}
