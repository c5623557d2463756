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
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Computes the index values of an object, such as a pod's IP addresses, so that the cache
 * can be looked up by them. Declared as a bean and attached by its bean name in
 * {@code kubeop.informers.resources.<name>.indexers}; the bean name is the index name.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
@FunctionalInterface
public interface IndexFunction<T extends KubernetesObject> extends Function<T, List<String>> {

}
