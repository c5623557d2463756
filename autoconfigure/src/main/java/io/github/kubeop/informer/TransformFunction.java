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

import java.util.function.UnaryOperator;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Changes an object before it enters an informer's cache, as client-go's
 * {@code SharedInformer.SetTransform}: typically to drop what the application never reads
 * (large annotations, parts of the spec), so that the cache is smaller. Applied to every
 * listed object (the initial list and every relist) and to every watched one, on the
 * informer's list-and-watch thread; the cache, the {@code Lister} and {@code Indexer}
 * beans and the handlers see only transformed objects. It may change the object it is
 * given and return it, or return another object of the same type; it must keep the name,
 * namespace, uid and resourceVersion (the cache and the handlers rely on them), be quick
 * and not block.
 * <p>
 * Declared as a bean and attached by its bean name in
 * {@code kubeop.informers.resources.<name>.transforms}, or with
 * {@link io.github.kubeop.annotation.InformerTransform @InformerTransform}. A transform
 * that throws for an object is logged and the object is skipped as one whose JSON does
 * not fit the Java type is: its last state stays cached and the informer goes on.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
@FunctionalInterface
public interface TransformFunction<T extends KubernetesObject> extends UnaryOperator<T> {

}
