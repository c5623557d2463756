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

package io.github.kubeop.docs.crds;

// tag::example[]
import java.util.List;
import java.util.Map;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.Default;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.KubernetesResource.PrinterColumn;
import io.github.kubeop.resource.PreserveUnknownFields;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A website served by the operator, whose CustomResourceDefinition the Kubeop Maven
 * plugin generates.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "docs.kubeop.io", version = "v1", shortNames = "site",
		printerColumns = @PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas"))
public class Website extends CustomResource<Website.Spec, Website.Status> {

	/**
	 * What the user asks for.
	 *
	 * @param host the host name
	 * @param replicas how many servers, 1 to 10
	 * @param tier the service tier
	 * @param memory the memory of each server
	 * @param labels labels to copy onto the servers
	 * @param aliases other host names
	 * @param theme free-form settings of the site's theme
	 */
	public record Spec(@NotBlank @Pattern(regexp = "^[a-z0-9.-]+$") String host,
			@Min(1) @Max(10) @Default("2") Integer replicas, Tier tier, Quantity memory, Map<String, String> labels,
			@Size(max = 5) List<String> aliases, @PreserveUnknownFields Object theme) {
	}

	/**
	 * What the operator observed.
	 *
	 * @param observedGeneration the generation last handled
	 * @param conditions the conditions
	 */
	public record Status(Long observedGeneration, List<V1Condition> conditions) {
	}

	/**
	 * A service tier.
	 */
	public enum Tier {

		/**
		 * Shared servers.
		 */
		STANDARD,

		/**
		 * Dedicated servers.
		 */
		DEDICATED

	}

}
// end::example[]
