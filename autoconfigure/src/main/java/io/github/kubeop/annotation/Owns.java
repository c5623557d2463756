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
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Declares, on a handler bean, a type of object the handler creates and owns: a change to
 * such an object whose controller owner reference points at a handled object calls the
 * owner's {@link OnUpdate} method, so that drift is repaired (controller-runtime's
 * {@code Owns}). The reference is matched by group and kind, not version; on an update
 * the owners of both the old and the new state are called, so an owner whose reference
 * moved away hears of it.
 *
 * @author Kubeop authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(Owns.List.class)
public @interface Owns {

	/**
	 * The owned type, such as {@code V1Deployment}.
	 * @return the owned type
	 */
	Class<? extends KubernetesObject> value();

	/**
	 * The informer of owned objects, by name; empty to pick it by type.
	 * @return the informer name
	 */
	String informer() default "";

	/**
	 * Several {@link Owns}.
	 */
	@Target(ElementType.TYPE)
	@Retention(RetentionPolicy.RUNTIME)
	@Documented
	@interface List {

		Owns[] value();

	}

}
