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
import io.github.kubeop.resource.KubernetesResource;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import jakarta.validation.constraints.Size;

/**
 * A resource with a field of each kind of schema, for validation rules to be placed on.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "probe.kubeop.test", version = "v1")
public class Probe extends CustomResource<Probe.Spec, Void> {

	/**
	 * The spec.
	 *
	 * @param name a bounded string
	 * @param count an integer
	 * @param ratio a number
	 * @param enabled a boolean
	 * @param when a date-time
	 * @param memory a quantity
	 * @param port an int-or-string
	 * @param hosts a bounded list of bounded strings
	 * @param tags an unbounded list of unbounded strings
	 * @param labels a bounded map of bounded strings
	 * @param ports a bounded list of integers
	 * @param members an atomic list of objects
	 * @param namespace a field whose name CEL reserves
	 * @param limits an object
	 */
	public record Spec(@Size(max = 63) String name, Integer count, Double ratio, Boolean enabled, OffsetDateTime when,
			Quantity memory, IntOrString port, @Size(max = 8) List<@Size(max = 253) String> hosts, List<String> tags,
			@Size(max = 8) Map<String, @Size(max = 63) String> labels, @Size(max = 16) List<Integer> ports,
			@Size(max = 4) List<Member> members, @Size(max = 63) String namespace, Limits limits) {
	}

	/**
	 * An item of an atomic list.
	 *
	 * @param name its name
	 */
	public record Member(@Size(max = 63) String name) {
	}

	/**
	 * An object.
	 *
	 * @param minimum the least
	 * @param maximum the most
	 */
	public record Limits(Integer minimum, Integer maximum) {
	}

}
