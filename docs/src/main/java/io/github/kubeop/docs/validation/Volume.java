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

package io.github.kubeop.docs.validation;

// tag::example[]
import java.util.List;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.ValidationRule;
import io.github.kubeop.resource.ValidationRule.Reason;
import jakarta.validation.constraints.Size;

/**
 * A volume whose CustomResourceDefinition carries CEL validation rules.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "docs.kubeop.io", version = "v1")
@ValidationRule(value = "self.metadata.name.size() <= 40", message = "volume names have at most 40 characters")
public class Volume extends CustomResource<Volume.Spec, Void> {

	/**
	 * What the user asks for.
	 *
	 * @param storageClass the storage class, fixed once set
	 * @param sizeGi the size, which may grow but never shrink
	 * @param minReplicas the least replicas
	 * @param maxReplicas the most replicas
	 * @param mountPaths where the volume is mounted
	 */
	@ValidationRule(value = "self.minReplicas <= self.maxReplicas", fieldPath = ".minReplicas",
			message = "minReplicas must not exceed maxReplicas")
	public record Spec(@ValidationRule(value = "self == oldSelf", reason = Reason.FIELD_VALUE_FORBIDDEN,
			messageExpression = "'storageClass is immutable, it stays ' + oldSelf") @Size(max = 63) String storageClass,
			@ValidationRule(value = "!oldSelf.hasValue() || self >= oldSelf.value()", optionalOldSelf = true,
					message = "sizeGi may not shrink") Integer sizeGi,
			int minReplicas, int maxReplicas,
			@Size(max = 8) @ValidationRule(value = "self.all(path, path.startsWith('/'))",
					message = "mount paths are absolute") List<@Size(max = 256) String> mountPaths) {
	}

}
// end::example[]
