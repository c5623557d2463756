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

package io.github.kubeop.maven;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.Default;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.KubernetesResource.PrinterColumn;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * A typed custom resource with one field of each kind the generator maps.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "crdgen.kubeop.test", version = "v1", shortNames = "gw", categories = "kubeop",
		printerColumns = { @PrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = "integer"),
				@PrinterColumn(name = "Tier", jsonPath = ".spec.tier", priority = 1) })
public class Gateway extends CustomResource<Gateway.Spec, Gateway.Status> {

	/**
	 * The spec.
	 *
	 * @param host the host name, required
	 * @param replicas the replicas, 1 to 5, default 2
	 * @param tier the tier
	 * @param port a port number or name
	 * @param memory a memory quantity
	 * @param labels labels to copy
	 * @param aliases at most two aliases
	 */
	public record Spec(@NotBlank @Pattern(regexp = "^[a-z.]+$") String host,
			@Min(1) @Max(5) @Default("2") Integer replicas, Tier tier, IntOrString port, Quantity memory,
			Map<String, String> labels, @Size(max = 2) List<String> aliases) {
	}

	/**
	 * The status.
	 *
	 * @param observedGeneration the generation last handled
	 * @param lastUpdate when the status last changed
	 * @param conditions the conditions
	 */
	public record Status(Long observedGeneration, OffsetDateTime lastUpdate, List<V1Condition> conditions) {
	}

	/**
	 * A tier.
	 */
	public enum Tier {

		/**
		 * Cheap.
		 */
		BASIC,

		/**
		 * Expensive.
		 */
		PREMIUM

	}

}
