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

package io.github.kubeop.webhook;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method that changes objects before the API server validates and stores them,
 * such as to fill in defaults: it takes the object (a typed custom resource or a
 * generated model such as {@code V1Pod}), optionally the old object of an update (the
 * same type, {@code null} on create) and an {@link AdmissionRequest}, and returns the
 * changed object (or {@code void} after changing the object it was given). Kubeop answers
 * the API server with the JSON patch from the object it received to the one returned. For
 * example: <pre class="code">
 * &#64;MutatingWebhook
 * StaticSite setDefaults(StaticSite site) {
 *     if (site.getSpec().replicas() == null) {
 *         site.setSpec(site.getSpec().withReplicas(1));
 *     }
 *     return site;
 * }
 * </pre> An exception thrown by the method denies the request with a message that says
 * so, and is counted.
 * <p>
 * The webhook is served on {@code /mutate-<group>-<version>-<kind>} (dots of the group
 * replaced by dashes, as controller-runtime derives it) by the application's web server
 * over TLS, and described in the generated {@code MutatingWebhookConfiguration}.
 *
 * @author Kubeop authors
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface MutatingWebhook {

	/**
	 * The operations the API server asks about: create and update by default.
	 * @return the operations
	 */
	Operation[] operations() default { Operation.CREATE, Operation.UPDATE };

	/**
	 * What the API server does when the webhook cannot be reached or does not answer in
	 * time: {@link FailurePolicy#FAIL} by default, as in the API server.
	 * @return the failure policy
	 */
	FailurePolicy failurePolicy() default FailurePolicy.FAIL;

	/**
	 * Whether the webhook changes anything besides its answer: {@link SideEffects#NONE}
	 * by default.
	 * @return the side effects
	 */
	SideEffects sideEffects() default SideEffects.NONE;

	/**
	 * How long the API server waits for an answer, from 1 to 30 seconds: 10 by default,
	 * as in the API server.
	 * @return the timeout in seconds
	 */
	int timeoutSeconds() default 10;

	/**
	 * A label selector on the namespace of the object, such as
	 * {@code "environment in (prod,staging)"}: the webhook is called only for objects in
	 * matching namespaces. Every namespace by default.
	 * @return the namespace selector
	 */
	String namespaceSelector() default "";

	/**
	 * A label selector on the object (the new one, or the old one on delete), such as
	 * {@code "app.kubernetes.io/managed-by=kubeop"}. Every object by default.
	 * @return the object selector
	 */
	String objectSelector() default "";

	/**
	 * The path the webhook is served on: {@code /mutate-<group>-<version>-<kind>} by
	 * default. Two webhooks of one kind for the same type need a path of their own.
	 * @return the path
	 */
	String path() default "";

}
