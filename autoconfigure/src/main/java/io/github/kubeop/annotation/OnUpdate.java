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
 * Marks a method called when an object changed: its resourceVersion differs from the
 * state last delivered for its key. Changes between two calls coalesce into one call with
 * the oldest delivered and the newest state. The object's type picks the resource.
 * <p>
 * Accepted parameters, in any order: the old and the new object (or the new object alone)
 * and an optional {@link io.github.kubeop.handler.HandlerContext}. It is also called,
 * with old and new the same, when an owned object changed, when a requeue was asked for,
 * and on resync if {@link #resync()} is set. The method may return {@code void}, a
 * {@link java.time.Duration} or a {@link io.github.kubeop.handler.Result} to be called
 * again later. An exception retries the call with back-off; a
 * {@link io.github.kubeop.handler.TerminalException} does not.
 *
 * @author Kubeop authors
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OnUpdate {

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

	/**
	 * Whether periodic resyncs call this method with an unchanged object. Off by default:
	 * client-go calls every handler on resync, which is mostly noise.
	 * @return whether resyncs are delivered
	 */
	boolean resync() default false;

	/**
	 * Whether only changes of {@code metadata.generation} (the spec, for most resources)
	 * call this method; status and metadata changes are then skipped.
	 * @return whether to react to generation changes only
	 */
	boolean generationChanged() default false;

	/**
	 * Whether a change that only this handler's own writes made (through
	 * {@code KubernetesTemplate}: the handled object's status or metadata, an owned
	 * object it applied) calls this method again. Off by default: a handler's own write
	 * comes back as a watch event, and calling the handler for it only repeats the call
	 * that made it. A change anyone else made is always delivered, one that lands between
	 * two own writes included.
	 * @return whether own writes call this method again
	 */
	boolean ownWrites() default false;

}
