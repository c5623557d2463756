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
 * Attaches an {@link io.github.kubeop.informer.IndexFunction} bean to informers, as
 * listing its bean name in {@code kubeop.informers.resources.<name>.indexers} does. The
 * bean name is the index name.
 *
 * <pre class="code">
 * &#64;Bean
 * &#64;InformerIndex("pods")
 * IndexFunction&lt;V1Pod&gt; podsByIp() {
 *     return (pod) -&gt; List.of(pod.getStatus().getPodIP());
 * }
 * </pre>
 *
 * @author Kubeop authors
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface InformerIndex {

	/**
	 * The names of the informers to index, as in {@code kubeop.informers.resources}.
	 * @return the informer names
	 */
	String[] value();

}
