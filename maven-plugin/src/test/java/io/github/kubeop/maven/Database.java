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
import java.util.Map;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.ValidationRule;
import io.github.kubeop.resource.ValidationRule.Reason;
import jakarta.validation.constraints.Size;

/**
 * A typed custom resource validated by CEL rules on the resource class, on its spec class
 * and on fields, transition rules among them.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "crdgen.kubeop.test", version = "v1")
@ValidationRule(value = "self.metadata.name.startsWith('db-')", message = "the name must start with db-")
public class Database extends CustomResource<Database.Spec, Database.Status> {

	/**
	 * The spec.
	 *
	 * @param storageClass the storage class, which never changes once set
	 * @param minReplicas the least replicas
	 * @param maxReplicas the most replicas
	 * @param sizeGi the volume size, which may grow but never shrink
	 * @param hosts at most four host names under {@code example.com}
	 * @param labels labels outside the kubernetes.io/ prefix
	 */
	@ValidationRule(value = "self.minReplicas <= self.maxReplicas", message = "minReplicas must not exceed maxReplicas",
			fieldPath = ".minReplicas")
	public record Spec(
			@ValidationRule(value = "self == oldSelf",
					messageExpression = "'storageClass is immutable, it stays ' + oldSelf",
					reason = Reason.FIELD_VALUE_FORBIDDEN) @Size(max = 63) String storageClass,
			int minReplicas, int maxReplicas,
			@ValidationRule(value = "!oldSelf.hasValue() || self >= oldSelf.value()", optionalOldSelf = true,
					message = "sizeGi may not shrink") Integer sizeGi,
			@Size(max = 4) @ValidationRule(value = "self.all(host, host.endsWith('.example.com'))",
					message = "hosts must be under example.com") List<@Size(max = 253) String> hosts,
			@Size(max = 16) @ValidationRule(value = "self.all(key, !key.startsWith('kubernetes.io/'))",
					message = "labels may not use the kubernetes.io/ prefix") Map<@Size(max = 63) String, @Size(
							max = 63) String> labels) {
	}

	/**
	 * The status.
	 *
	 * @param phase the phase
	 */
	public record Status(String phase) {
	}

}
