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
package io.github.kubeop.typed;

import java.util.List;
import java.util.Map;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Condition;

/**
 * A typed custom resource whose spec and status use every shape users write: records,
 * primitives and boxed numbers, enums, maps, lists, nested records and the client's own
 * types.
 *
 * @author Kubeop authors
 */
// tag::resource[]
@KubernetesResource(group = "typed.kubeop.test", version = "v1")
public class Gadget extends CustomResource<Gadget.Spec, Gadget.Status> {

	/**
	 * The desired state.
	 *
	 * @param title a string
	 * @param replicas a primitive
	 * @param limit a boxed number that may be absent
	 * @param tier an enum
	 * @param labels a map
	 * @param parts a list of nested records
	 * @param memory a quantity
	 * @param port an int-or-string
	 * @param enabled a primitive boolean
	 */
	public record Spec(String title, int replicas, Integer limit, Tier tier, Map<String, String> labels,
			List<Part> parts, Quantity memory, IntOrString port, boolean enabled) {
	}

	/**
	 * A nested record.
	 *
	 * @param name the name
	 * @param weight the weight
	 * @param tags the tags
	 */
	public record Part(String name, double weight, List<String> tags) {
	}

	/**
	 * An enum.
	 */
	public enum Tier {

		/**
		 * The first tier.
		 */
		BRONZE,

		/**
		 * The second tier.
		 */
		GOLD

	}

	/**
	 * The observed state.
	 *
	 * @param observedGeneration a boxed long
	 * @param conditions the client's condition model, with its timestamp
	 */
	public record Status(Long observedGeneration, List<V1Condition> conditions) {
	}

}
// end::resource[]
