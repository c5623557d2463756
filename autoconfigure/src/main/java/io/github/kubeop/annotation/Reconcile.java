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
 * Marks a level-based method: called with the current object whenever it appears or
 * changes (and when the handler asks to be called again, and on resyncs if
 * {@link #resync()} is set), never for a delete. The method looks at the object as it is
 * now and makes the world match it; it need not know which edge brought it there, though
 * {@link io.github.kubeop.handler.HandlerContext#trigger()} tells.
 * <p>
 * A bean may not combine {@code @Reconcile} with {@link OnAdd} or {@link OnUpdate} for
 * the same resource (that fails startup): they would be called for the same changes. It
 * may have an {@link OnDelete} method for objects that are gone.
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
public @interface Reconcile {

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
	 * {@code app=web,tier notin (cache)}. An object that stops matching is, for this
	 * handler, deleted: it is not reconciled any more.
	 * @return the selector, or empty for all objects
	 */
	String labelSelector() default "";

	/**
	 * Whether periodic resyncs call this method with an unchanged object.
	 * @return whether resyncs are delivered
	 */
	boolean resync() default false;

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

	/**
	 * Whether objects this handler owns that a call no longer applies are deleted after
	 * the call returned normally (a consumer removed from a list takes its Secret or its
	 * Deployment with it). An object is deleted only if all of these hold: its type is
	 * declared with {@link Owns} on the handler's class; its controller owner reference
	 * names the handled object (by UID); the operator's field manager manages some of its
	 * fields; and the call, which returned without an exception, did not apply it. It is
	 * deleted with preconditions on the UID and resourceVersion that were checked, in the
	 * background, so an object that changed meanwhile is kept until the next reconcile.
	 * Off by default. Whatever the handled object owns is still deleted by the garbage
	 * collector when the handled object goes.
	 * @return whether owned objects no longer applied are deleted
	 */
	boolean prune() default false;

}
