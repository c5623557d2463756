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

package io.github.kubeop.benchmarks;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

/**
 * An event handler that does nothing, the handler every informer contender gets, so that
 * the figures are the informer's own.
 *
 * @param <T> the object type
 * @author Kubeop authors
 */
final class NoOpHandler<T extends KubernetesObject> implements ResourceEventHandler<T> {

	@Override
	public void onAdd(T obj) {
	}

	@Override
	public void onUpdate(T oldObj, T newObj) {
	}

	@Override
	public void onDelete(T obj, boolean deletedFinalStateUnknown) {
	}

}
