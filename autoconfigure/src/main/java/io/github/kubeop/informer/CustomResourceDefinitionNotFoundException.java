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

package io.github.kubeop.informer;

import io.github.kubeop.resource.ResourceType;

/**
 * Thrown when the API server does not serve the resource of a typed custom resource
 * class, usually because its CustomResourceDefinition is not installed.
 *
 * @author Kubeop authors
 */
public class CustomResourceDefinitionNotFoundException extends UnknownResourceException {

	private final Class<?> type;

	private final String crdName;

	/**
	 * Creates an exception for a class whose resource the server does not serve.
	 * @param type the class annotated with
	 * {@link io.github.kubeop.resource.KubernetesResource}
	 * @param cause why discovery did not find the resource
	 */
	public CustomResourceDefinitionNotFoundException(Class<?> type, UnknownResourceException cause) {
		this(type, ResourceType.of(type), cause);
	}

	private CustomResourceDefinitionNotFoundException(Class<?> type, ResourceType resource,
			UnknownResourceException cause) {
		super(resource.apiVersion(), resource.kind(),
				type.getName() + " is " + resource.kind() + " in " + resource.apiVersion()
						+ ", which the API server does not serve: its CustomResourceDefinition '" + resource.crdName()
						+ "' is not installed (" + cause.getMessage() + ")");
		this.type = type;
		this.crdName = resource.crdName();
	}

	/**
	 * Returns the typed custom resource class.
	 * @return the class
	 */
	public Class<?> getType() {
		return this.type;
	}

	/**
	 * Returns the name of the CustomResourceDefinition that serves the class, such as
	 * {@code staticsites.sample.kubeop.io}.
	 * @return the CRD name
	 */
	public String getCrdName() {
		return this.crdName;
	}

}
