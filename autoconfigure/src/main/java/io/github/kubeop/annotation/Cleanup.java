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
 * Marks the method that cleans up after an object being deleted, guarded by a finalizer
 * that Kubeop manages, as controller-runtime's {@code controllerutil.AddFinalizer} /
 * {@code RemoveFinalizer} pattern and the Java Operator SDK's {@code Cleaner} do:
 * <ul>
 * <li>before the bean's {@link Reconcile}, {@link OnAdd} or {@link OnUpdate} method is
 * called for an object that is not being deleted and lacks the {@link #finalizer()},
 * Kubeop adds it (a merge patch that carries the object's {@code resourceVersion} as a
 * precondition, so no other finalizer is lost) and calls the method with the object as
 * the API server returned it;</li>
 * <li>once the object is being deleted ({@code metadata.deletionTimestamp} set) and still
 * holds the finalizer, this method is called instead of the others; after it returns
 * normally, Kubeop removes the finalizer (same precondition) and the API server completes
 * the delete. An exception retries the call with the handler's back-off while the object
 * stays; returning a {@link java.time.Duration} or a
 * {@link io.github.kubeop.handler.Result} that asks to be called again keeps the
 * finalizer and calls again (for cleanup that waits for something else);</li>
 * <li>an object being deleted without this finalizer gets no cleanup and no other call;
 * {@link OnDelete} is still called once the object is gone from the cache;</li>
 * <li>a conflict (HTTP 409) on a finalizer write is retried, rate-limited, without
 * counting as a failure.</li>
 * </ul>
 * The method may be called more than once for one delete, so it must be idempotent, as in
 * controller-runtime: after its own failure, and when the workers start anew (a restart,
 * leadership or the key moving to another replica) before the finalizer was removed. A
 * removal that fails after the method returned is retried alone. An object that leaves
 * the handler's filters keeps the finalizer, and its delete waits until someone removes
 * it.
 * <p>
 * A bean may have one cleanup method per resource, and only next to a {@link Reconcile},
 * {@link OnAdd} or {@link OnUpdate} method for the same resource (who else would add the
 * finalizer); otherwise startup fails. At startup Kubeop also asks the API server (a
 * {@code SelfSubjectAccessReview}) whether it may {@code patch} the resource, and fails
 * naming the missing permission if not.
 * <p>
 * Accepted parameters, in any order: the object and an optional
 * {@link io.github.kubeop.handler.HandlerContext}, whose
 * {@link io.github.kubeop.handler.HandlerContext#trigger() trigger} is
 * {@link io.github.kubeop.handler.Trigger#DELETING}.
 *
 * @author Kubeop authors
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Cleanup {

	/**
	 * The finalizer that holds a deleted object until this method has returned: a
	 * qualified name such as {@code sample.kubeop.io/cleanup}, as Kubernetes asks of
	 * finalizers that are not its own. A name without a {@code /} fails startup.
	 * @return the finalizer
	 */
	String finalizer();

	/**
	 * The informer to listen to, by its name in {@code kubeop.informers.resources}.
	 * Needed when several informers hold the parameter's type, and for dynamic objects.
	 * @return the informer name, or empty to pick the informer by parameter type
	 */
	String informer() default "";

}
