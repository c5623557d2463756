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
 * Attaches a {@link io.github.kubeop.informer.TransformFunction} bean to informers, as
 * listing its bean name in {@code kubeop.informers.resources.<name>.transforms} does.
 * Transforms attached this way run after those the property lists.
 *
 * <pre class="code">
 * &#64;Bean
 * &#64;InformerTransform("pods")
 * TransformFunction&lt;V1Pod&gt; dropEnv() {
 *     return (pod) -&gt; {
 *         pod.getSpec().getContainers().forEach((container) -&gt; container.setEnv(null));
 *         return pod;
 *     };
 * }
 * </pre>
 *
 * @author Kubeop authors
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface InformerTransform {

	/**
	 * The names of the informers to transform the objects of, as in
	 * {@code kubeop.informers.resources}.
	 * @return the informer names
	 */
	String[] value();

}
