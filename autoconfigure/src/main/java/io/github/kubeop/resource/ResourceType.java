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

import java.util.List;
import java.util.Locale;

/**
 * The names and scope of a typed custom resource, read from its
 * {@link KubernetesResource} with the defaults filled in.
 *
 * @param group the API group
 * @param version the version
 * @param kind the kind
 * @param plural the plural resource name
 * @param singular the singular resource name
 * @param namespaced whether objects live in a namespace
 * @param shortNames the short names
 * @author Kubeop authors
 */
public record ResourceType(String group, String version, String kind, String plural, String singular,
		boolean namespaced, List<String> shortNames) {

	/**
	 * Reads the resource type of a class.
	 * @param type the class, annotated with {@link KubernetesResource}
	 * @return the resource type
	 * @throws IllegalArgumentException if the class is not annotated
	 */
	public static ResourceType of(Class<?> type) {
		KubernetesResource resource = type.getAnnotation(KubernetesResource.class);
		if (resource == null) {
			throw new IllegalArgumentException(type.getName() + " is not annotated with @"
					+ KubernetesResource.class.getSimpleName() + ": add it with the resource's group and version");
		}
		String kind = resource.kind().isEmpty() ? type.getSimpleName() : resource.kind();
		String singular = resource.singular().isEmpty() ? kind.toLowerCase(Locale.ROOT) : resource.singular();
		String plural = resource.plural().isEmpty() ? plural(kind.toLowerCase(Locale.ROOT)) : resource.plural();
		return new ResourceType(resource.group(), resource.version(), kind, plural, singular,
				resource.scope() == KubernetesResource.Scope.NAMESPACED, List.of(resource.shortNames()));
	}

	/**
	 * Returns whether a class is a typed custom resource.
	 * @param type the class
	 * @return whether it carries {@link KubernetesResource}
	 */
	public static boolean isCustomResource(Class<?> type) {
		return type.isAnnotationPresent(KubernetesResource.class);
	}

	/**
	 * Returns the API version, such as {@code sample.kubeop.io/v1}.
	 * @return the API version
	 */
	public String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

	/**
	 * Returns the name of the resource's CustomResourceDefinition, such as
	 * {@code staticsites.sample.kubeop.io}.
	 * @return the CRD name
	 */
	public String crdName() {
		return this.plural + "." + this.group;
	}

	/**
	 * Returns the plural resource name of a singular one by the rules of kubebuilder and
	 * the API server's default RESTMapper, such as {@code ingresses} for {@code ingress}.
	 * @param singular the lower-case singular name
	 * @return the plural name
	 */
	public static String plural(String singular) {
		if (singular.endsWith("s") || singular.endsWith("x") || singular.endsWith("z") || singular.endsWith("ch")
				|| singular.endsWith("sh")) {
			return singular + "es";
		}
		if (singular.endsWith("y") && singular.length() > 1
				&& "aeiou".indexOf(singular.charAt(singular.length() - 2)) < 0) {
			return singular.substring(0, singular.length() - 1) + "ies";
		}
		return singular + "s";
	}

}
