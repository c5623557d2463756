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

/**
 * Resources with validation rules the API server would reject, and one with rules that
 * use the function libraries of its CEL environment.
 *
 * @author Kubeop authors
 */
final class BadRules {

	private BadRules() {
	}

	record Limits(int minimum, int maximum) {
	}

	@ValidationRule(value = "self.minimum <= self.maximum", fieldPath = ".maximum2")
	record LimitsWithBadPath(int minimum, int maximum) {
	}

	record Named(@ValidationRule("self == oldSelf") String name) {
	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class UnknownField extends CustomResource<UnknownField.Spec, Void> {

		record Spec(@ValidationRule("self.minimum <= self.maximun") Limits limits) {
		}

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class NotBool extends CustomResource<NotBool.Spec, Void> {

		record Spec(@ValidationRule("size(self)") String name) {
		}

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class WrongTypes extends CustomResource<WrongTypes.Spec, Void> {

		record Spec(@ValidationRule("self > 3") String name) {
		}

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class TransitionInList extends CustomResource<TransitionInList.Spec, Void> {

		record Spec(List<Named> items) {
		}

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class OptionalWithoutOldSelf extends CustomResource<OptionalWithoutOldSelf.Spec, Void> {

		record Spec(@ValidationRule(value = "self > 0", optionalOldSelf = true) int count) {
		}

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class BadFieldPath extends CustomResource<LimitsWithBadPath, Void> {

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class MultiLineMessage extends CustomResource<MultiLineMessage.Spec, Void> {

		record Spec(@ValidationRule(value = "self > 0", message = "must be\npositive") int count) {
		}

	}

	@KubernetesResource(group = "rules.kubeop.test", version = "v1")
	static class KubernetesFunctions extends CustomResource<KubernetesFunctions.Spec, Void> {

		@ValidationRule("isQuantity(self.memory) && quantity(self.memory).isLessThan(quantity('1Gi'))")
		@ValidationRule("isURL(self.endpoint) && url(self.endpoint).getScheme() == 'https'")
		@ValidationRule("self.ports.isSorted() && self.ports.sum() < 100000 && self.ports.indexOf(80) < 5")
		@ValidationRule("self.host.find('[a-z]+') != '' && self.host.findAll('[0-9]').size() < 4")
		@ValidationRule("isIP(self.address) && ip(self.address).family() == 4")
		@ValidationRule("isCIDR(self.network) && cidr(self.network).containsIP(self.address)")
		@ValidationRule("!format.dns1123Label().validate(self.host).hasValue()")
		@ValidationRule("isSemver(self.release) && semver(self.release).major() >= 1")
		@ValidationRule("self.host.lowerAscii().split('.').size() <= 4 && sets.contains(self.ports, [80])")
		@ValidationRule("self.?release.orValue('') != 'v0' && self.ports.all(i, port, port > i)")
		record Spec(String memory, String endpoint, List<Integer> ports, String host, String address, String network,
				String release) {
		}

	}

}
