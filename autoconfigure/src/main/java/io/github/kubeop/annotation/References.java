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
 * Declares, on a handler bean, a type of object that handled objects (the primaries)
 * reference: a change to such an object calls the {@link OnUpdate} or {@link Reconcile}
 * method of every primary that references it, with trigger
 * {@link io.github.kubeop.handler.Trigger#REFERENCE REFERENCE}. An object referenced
 * before it exists calls its primaries when it appears.
 * <p>
 * Either by a {@link #path() path} in the primary, indexed on the primary's informer so
 * that a change finds its primaries without a scan:
 *
 * <pre class="code">
 * &#64;References(value = V1Secret.class, path = "spec.credentialsSecret")
 * &#64;References(value = V1ConfigMap.class, path = "spec.consumers[].configRef.name")
 * </pre>
 *
 * or by a {@link io.github.kubeop.handler.ReferenceMapper mapping function}, a bean named
 * in {@link #mapper()}, for anything else. Both the old and the new state of a changed
 * object are mapped, so a primary whose object moved away hears of it too.
 *
 * @author Kubeop authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(References.List.class)
public @interface References {

	/**
	 * The referenced type, such as {@code V1Secret}.
	 * @return the referenced type
	 */
	Class<? extends KubernetesObject> value();

	/**
	 * The path in the primary of the referenced object's name, dot-separated from the
	 * object's root by JSON field names: {@code spec.credentialsSecret},
	 * {@code spec.configRef.name}; {@code []} after a list field takes each element
	 * ({@code spec.consumers[].secretRef.name}), and the last field may be a list of
	 * names. The field must exist on the primary's class and hold a string or a list of
	 * strings, or startup fails. Empty when a {@link #mapper()} maps.
	 * @return the path of the name
	 */
	String path() default "";

	/**
	 * The path in the primary of the referenced object's namespace, beside
	 * {@link #path()} (the same list elements:
	 * {@code spec.consumers[].secretRef.namespace}); empty for the primary's own
	 * namespace. Ignored for cluster-scoped referenced types.
	 * @return the path of the namespace
	 */
	String namespacePath() default "";

	/**
	 * The name of a {@link io.github.kubeop.handler.ReferenceMapper} bean that returns
	 * the keys of the primaries an object concerns; empty when a {@link #path()} maps.
	 * @return the mapper's bean name
	 */
	String mapper() default "";

	/**
	 * The informer of referenced objects, by name; empty to pick it by type.
	 * @return the informer name
	 */
	String informer() default "";

	/**
	 * Whether the informer of referenced objects keeps only the objects some primary
	 * references by path, instead of every object it watches: memory then follows the
	 * references, not the cluster. It still lists and watches the whole type (the same
	 * RBAC, {@code list} and {@code watch}); what no primary references is dropped before
	 * the cache, and an object that becomes referenced is loaded at once by a list of its
	 * name. A named {@link #informer()} is narrowed for every reader of it; without a
	 * name, a separate informer is created for referenced objects of the type. Needs a
	 * {@link #path()}: a mapping function cannot say ahead which objects it wants.
	 * @return whether only referenced objects are cached
	 */
	boolean referencedOnly() default false;

	/**
	 * Several {@link References}.
	 */
	@Target(ElementType.TYPE)
	@Retention(RetentionPolicy.RUNTIME)
	@Documented
	@interface List {

		References[] value();

	}

}
