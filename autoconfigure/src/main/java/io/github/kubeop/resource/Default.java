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

package io.github.kubeop.resource;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The default the API server fills in when a field of a typed custom resource is absent,
 * written as JSON ({@code "3"}, {@code "true"}, {@code "\"nginx\""}); a value that is not
 * JSON is taken as a string. It becomes the field's {@code default} in the generated
 * CustomResourceDefinition; Jakarta Validation has no word for it.
 *
 * @author Kubeop authors
 */
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Default {

	/**
	 * The default as JSON.
	 * @return the default
	 */
	String value();

}
