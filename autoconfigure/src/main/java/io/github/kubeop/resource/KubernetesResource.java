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
 * Declares a Java class as a Kubernetes custom resource: its group, version, kind and
 * everything else its CustomResourceDefinition needs. The class usually extends
 * {@link CustomResource} with its spec and status types; Kubeop reads and writes it as it
 * does a generated model, and its CRD is generated from it at build time.
 *
 * <pre class="code">
 * &#64;KubernetesResource(group = "sample.kubeop.io", version = "v1", shortNames = "site")
 * public class StaticSite extends CustomResource&lt;StaticSite.Spec, StaticSite.Status&gt; {
 *     public record Spec(&#64;NotNull String image, &#64;Min(1) int replicas) { }
 *     public record Status(Long observedGeneration, List&lt;V1Condition&gt; conditions) { }
 * }
 * </pre>
 *
 * @author Kubeop authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface KubernetesResource {

	/**
	 * The API group, such as {@code sample.kubeop.io}.
	 * @return the group
	 */
	String group();

	/**
	 * The version, such as {@code v1}.
	 * @return the version
	 */
	String version();

	/**
	 * The kind; empty for the class's simple name.
	 * @return the kind
	 */
	String kind() default "";

	/**
	 * The plural resource name used in URLs; empty for the lower-case kind made plural by
	 * the English rules Kubernetes tooling uses ({@code StaticSite} becomes
	 * {@code staticsites}, {@code Policy} becomes {@code policies}).
	 * @return the plural
	 */
	String plural() default "";

	/**
	 * The singular resource name; empty for the lower-case kind.
	 * @return the singular
	 */
	String singular() default "";

	/**
	 * Whether objects live in a namespace or in the cluster.
	 * @return the scope
	 */
	Scope scope() default Scope.NAMESPACED;

	/**
	 * Short names for {@code kubectl}, such as {@code site}.
	 * @return the short names
	 */
	String[] shortNames() default {};

	/**
	 * Categories the resource belongs to, such as {@code all}.
	 * @return the categories
	 */
	String[] categories() default {};

	/**
	 * Extra columns {@code kubectl get} prints.
	 * @return the printer columns
	 */
	PrinterColumn[] printerColumns() default {};

	/**
	 * The scale subresource, at most one; none for no scale subresource.
	 * @return the scale subresource
	 */
	Scale[] scale() default {};

	/**
	 * Whether this version is the one the API server stores. Needed only when several
	 * classes declare versions of one kind (one group and kind, one class per version):
	 * exactly one of them must be the storage version, and the build fails naming the
	 * classes otherwise. A kind with one class is stored in its version.
	 * @return whether this is the storage version
	 */
	boolean storage() default false;

	/**
	 * Whether the API server serves this version. A version no longer served can stay
	 * declared while objects stored in it are migrated.
	 * @return whether the version is served
	 */
	boolean served() default true;

	/**
	 * Whether this version is deprecated: the API server then answers requests for it
	 * with a warning.
	 * @return whether the version is deprecated
	 */
	boolean deprecated() default false;

	/**
	 * The scope of a custom resource.
	 */
	enum Scope {

		/**
		 * Objects live in a namespace.
		 */
		NAMESPACED,

		/**
		 * Objects live in the cluster, outside namespaces.
		 */
		CLUSTER

	}

	/**
	 * A column {@code kubectl get} prints for the resource
	 * ({@code additionalPrinterColumns}).
	 */
	@Target({})
	@Retention(RetentionPolicy.RUNTIME)
	@interface PrinterColumn {

		/**
		 * The column's header.
		 * @return the name
		 */
		String name();

		/**
		 * The JSON path of the value, such as {@code .spec.replicas}.
		 * @return the JSON path
		 */
		String jsonPath();

		/**
		 * The OpenAPI type: {@code string}, {@code integer}, {@code number},
		 * {@code boolean} or {@code date}.
		 * @return the type
		 */
		String type() default "string";

		/**
		 * A description of the column.
		 * @return the description
		 */
		String description() default "";

		/**
		 * The priority; columns above zero show only with {@code -o wide}.
		 * @return the priority
		 */
		int priority() default 0;

	}

	/**
	 * The scale subresource of a resource.
	 */
	@Target({})
	@Retention(RetentionPolicy.RUNTIME)
	@interface Scale {

		/**
		 * The JSON path of the desired replicas, such as {@code .spec.replicas}.
		 * @return the path
		 */
		String specReplicasPath();

		/**
		 * The JSON path of the observed replicas, such as {@code .status.replicas}.
		 * @return the path
		 */
		String statusReplicasPath();

		/**
		 * The JSON path of the label selector in serialized form; empty for none.
		 * @return the path
		 */
		String labelSelectorPath() default "";

	}

}
