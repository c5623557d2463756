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

import io.github.kubeop.handler.QueueSettings.Fairness;

/**
 * Declares, on a handler bean, how its queue orders keys. Without it, the queue has
 * priorities and no fairness ({@code kubeop.handlers.priorities},
 * {@code kubeop.handlers.fairness}); {@code kubeop.handlers.controllers.<name>.*}
 * properties override what is declared here.
 * <p>
 * With priorities, every cached object queued because the handler started, was activated
 * (it became leader or gained shard keys) or resynced waits behind every real change, so
 * that a user's new object is handled within a few calls, not after the whole backlog
 * (controller-runtime's priority queue). With fairness, keys take turns across namespaces
 * (or the values of a label): a namespace with 10,000 waiting keys delays another
 * namespace's key by at most one key per worker. Priorities hold across lanes: the
 * highest priority waiting is served first, its lanes taking turns.
 *
 * @author Kubeop authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HandlerQueue {

	/**
	 * Whether keys are queued at priorities (real changes first).
	 * @return whether priorities are on
	 */
	boolean priorities() default true;

	/**
	 * How keys take turns.
	 * @return the fairness
	 */
	Fairness fairness() default Fairness.NONE;

	/**
	 * The label whose values are the lanes, with {@link Fairness#LABEL}, such as
	 * {@code example.com/tenant}.
	 * @return the label key
	 */
	String partitionLabel() default "";

}
