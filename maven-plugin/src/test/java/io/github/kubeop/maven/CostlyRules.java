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

import java.util.List;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.ValidationRule;
import jakarta.validation.constraints.Size;

/**
 * Resources for the verification of CustomResourceDefinitions by an API server.
 *
 * @author Kubeop authors
 */
final class CostlyRules {

	private CostlyRules() {
	}

	/**
	 * A rule that compiles, and so passes cel-java, but that the API server refuses for
	 * its estimated cost: a regular expression matched against every item of an unbounded
	 * list of unbounded strings.
	 */
	@KubernetesResource(group = "verify.kubeop.test", version = "v1")
	static class Unbounded extends CustomResource<Unbounded.Spec, Void> {

		record Spec(@ValidationRule("self.all(t, t.matches('^[a-z]+$'))") List<String> tags) {
		}

	}

	/**
	 * The same rule over a bounded list of bounded strings, which the API server accepts.
	 */
	@KubernetesResource(group = "verify.kubeop.test", version = "v1")
	static class Bounded extends CustomResource<Bounded.Spec, Void> {

		record Spec(@ValidationRule("self.all(t, t.matches('^[a-z]+$'))") @Size(
				max = 16) List<@Size(max = 63) String> tags) {
		}

	}

	/**
	 * A definition installed for real before a changed version of it is verified.
	 */
	@KubernetesResource(group = "verify.kubeop.test", version = "v1", kind = "Installed")
	static class Installed extends CustomResource<Bounded.Spec, Void> {

	}

	/**
	 * The definition of {@link Installed} changed to the costly rule.
	 */
	@KubernetesResource(group = "verify.kubeop.test", version = "v1", kind = "Installed")
	static class InstalledUnbounded extends CustomResource<Unbounded.Spec, Void> {

	}

	/**
	 * A version whose schema differs from {@link VersionedV1}'s, so that the API server
	 * names the schema of each version apart.
	 */
	@KubernetesResource(group = "verify.kubeop.test", version = "v1alpha1", kind = "Versioned")
	static class VersionedV1alpha1 extends CustomResource<Bounded.Spec, Void> {

	}

	/**
	 * The storage version, with the costly rule.
	 */
	@KubernetesResource(group = "verify.kubeop.test", version = "v1", kind = "Versioned", storage = true)
	static class VersionedV1 extends CustomResource<Unbounded.Spec, Void> {

	}

}
