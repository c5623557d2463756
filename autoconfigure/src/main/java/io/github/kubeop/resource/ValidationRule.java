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
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL validation rule the API server checks on every write of a typed custom resource,
 * so that validation beyond what Jakarta Validation says needs no webhook. It becomes an
 * entry of {@code x-kubernetes-validations} in the generated CustomResourceDefinition: on
 * a field (or record component), {@code self} is the field's value; on the spec or status
 * class, the object; on the resource class, the whole resource (of its metadata only
 * {@code name} and {@code generateName} can be read).
 * <p>
 * A rule that reads {@code oldSelf} is a transition rule: it is checked on updates only,
 * with {@code oldSelf} the value before the update, and it may not sit under a list whose
 * items the API server cannot correlate (a plain list of objects). The build fails,
 * naming the class and the field, for a rule that does not compile against the field's
 * schema.
 *
 * <pre class="code">
 * public record Spec(
 *     &#64;ValidationRule(value = "self == oldSelf", message = "is immutable") String storageClass,
 *     &#64;ValidationRule(value = "self.all(h, h.endsWith('.example.com'))",
 *             message = "hosts must end with .example.com") List&lt;String&gt; hosts) { }
 * </pre>
 *
 * @author Kubeop authors
 * @see <a href=
 * "https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation-rules">Validation
 * rules</a>
 */
@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.RECORD_COMPONENT })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ValidationRule.List.class)
public @interface ValidationRule {

	/**
	 * The CEL expression, which must evaluate to {@code true} for a valid value, such as
	 * {@code self.minReplicas <= self.maxReplicas}.
	 * @return the rule
	 */
	String value();

	/**
	 * The message the API server answers when the rule fails; empty for the server's
	 * default ({@code failed rule: <rule>}).
	 * @return the message
	 */
	String message() default "";

	/**
	 * A CEL expression that evaluates to the message, such as
	 * {@code "replicas " + string(self.replicas) + " exceeds " + string(self.max)}; it
	 * takes precedence over {@link #message()}.
	 * @return the message expression
	 */
	String messageExpression() default "";

	/**
	 * The reason the API server reports, and with it the HTTP status of the rejection.
	 * @return the reason
	 */
	Reason reason() default Reason.UNSPECIFIED;

	/**
	 * The path, relative to {@code self}, of the field the failure is reported on, such
	 * as {@code .replicas} or {@code ['labels']}; empty for {@code self}.
	 * @return the field path
	 */
	String fieldPath() default "";

	/**
	 * Whether a transition rule is also checked when there is no old value (on create, or
	 * when the field was absent), with {@code oldSelf} an optional that is empty then.
	 * @return whether {@code oldSelf} is optional
	 */
	boolean optionalOldSelf() default false;

	/**
	 * The reason of a failed rule ({@code x-kubernetes-validations[].reason}).
	 */
	enum Reason {

		/**
		 * No reason given: the API server reports {@code FieldValueInvalid}.
		 */
		UNSPECIFIED(""),

		/**
		 * {@code FieldValueInvalid}: HTTP 422.
		 */
		FIELD_VALUE_INVALID("FieldValueInvalid"),

		/**
		 * {@code FieldValueForbidden}: HTTP 422, the field may not be set or changed.
		 */
		FIELD_VALUE_FORBIDDEN("FieldValueForbidden"),

		/**
		 * {@code FieldValueRequired}: HTTP 422, a value is missing.
		 */
		FIELD_VALUE_REQUIRED("FieldValueRequired"),

		/**
		 * {@code FieldValueDuplicate}: HTTP 422, a value occurs twice.
		 */
		FIELD_VALUE_DUPLICATE("FieldValueDuplicate");

		private final String apiValue;

		Reason(String apiValue) {
			this.apiValue = apiValue;
		}

		/**
		 * Returns the value written into the CustomResourceDefinition.
		 * @return the value, empty for {@link #UNSPECIFIED}
		 */
		public String apiValue() {
			return this.apiValue;
		}

	}

	/**
	 * Holds repeated {@link ValidationRule} annotations.
	 */
	@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.RECORD_COMPONENT })
	@Retention(RetentionPolicy.RUNTIME)
	@Documented
	@interface List {

		/**
		 * The rules.
		 * @return the rules
		 */
		ValidationRule[] value();

	}

}
