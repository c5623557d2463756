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

package io.github.kubeop.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method called when an object is gone, with its final state, or the last state
 * known when the delete itself was missed during a watch outage. Only objects whose add
 * was delivered get a delete. The object's type picks the resource.
 * <p>
 * Accepted parameters, in any order: the object (a generated model such as {@code V1Pod},
 * or {@code DynamicKubernetesObject} with {@link #informer()} set) and an optional
 * {@link io.github.kubeop.handler.HandlerContext}. The method may return {@code void}, a
 * {@link java.time.Duration} or a {@link io.github.kubeop.handler.Result} to be called
 * again later. An exception retries the call with back-off; a
 * {@link io.github.kubeop.handler.TerminalException} does not.
 *
 * @author Kubeop authors
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OnDelete {

	/**
	 * The informer to listen to, by its name in {@code kubeop.informers.resources}.
	 * Needed when several informers hold the parameter's type, and for dynamic objects.
	 * @return the informer name, or empty to pick the informer by parameter type
	 */
	String informer() default "";

	/**
	 * Namespaces to handle; objects elsewhere are ignored. Empty for all that the
	 * informer watches. Not allowed for cluster-scoped kinds, whose objects have no
	 * namespace: that fails startup.
	 * @return the namespaces
	 */
	String[] namespaces() default {};

	/**
	 * A label selector objects must match, in Kubernetes' string form, such as
	 * {@code app=web,tier notin (cache)}; as on the API server, {@code notin} and
	 * {@code !=} match objects without the key. An object that stops matching is, for
	 * this handler, deleted.
	 * @return the selector, or empty for all objects
	 */
	String labelSelector() default "";

}
