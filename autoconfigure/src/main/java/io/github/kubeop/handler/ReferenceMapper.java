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

import java.util.Collection;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Maps an object to the primaries it concerns, as controller-runtime's
 * {@code EnqueueRequestsFromMapFunc} and the Java Operator SDK's
 * {@code SecondaryToPrimaryMapper} do: for a relation a path in the primary cannot say (a
 * label on the Secret naming its consumer, a name pattern, a lookup elsewhere). On an
 * update both the old and the new state are mapped and the keys joined, so a primary the
 * object moved away from is called too. Runs on the informer's delivery thread: it must
 * be quick and must not block. One that throws is counted and logged once per object, and
 * the object's other mappings still run.
 *
 * @param <S> the type of the referenced object
 * @author Kubeop authors
 */
@FunctionalInterface
public interface ReferenceMapper<S extends KubernetesObject> {

	/**
	 * Returns the keys of the primaries an object concerns.
	 * @param object the object, in one of its states
	 * @return keys of primaries, {@code namespace/name} ({@code name} for cluster-scoped
	 * primaries); empty for none
	 */
	Collection<String> primaries(S object);

}
