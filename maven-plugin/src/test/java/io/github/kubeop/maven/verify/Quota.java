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

package io.github.kubeop.maven.verify;

import java.util.List;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.ValidationRule;

/**
 * The only resource class of its package, for the {@code verify-crds} goal to scan: its
 * rule compiles, and the API server refuses it for its estimated cost.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "mojo.kubeop.test", version = "v1")
public class Quota extends CustomResource<Quota.Spec, Void> {

	/**
	 * The spec.
	 *
	 * @param owners an unbounded list of unbounded strings
	 */
	public record Spec(@ValidationRule("self.all(o, o.matches('^[a-z]+@example[.]com$'))") List<String> owners) {
	}

}
