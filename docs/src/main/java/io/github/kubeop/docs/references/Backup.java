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

package io.github.kubeop.docs.references;

// tag::resource[]
import java.util.List;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;

/**
 * A backup of some ConfigMaps to a bucket, with the bucket's credentials in a Secret.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "docs.kubeop.io", version = "v1")
public class Backup extends CustomResource<Backup.Spec, Backup.Status> {

	/**
	 * What to back up, and where.
	 *
	 * @param bucket the bucket's URL
	 * @param credentialsSecret the name of the Secret holding the bucket's credentials,
	 * in the Backup's namespace
	 * @param sources the ConfigMaps to back up
	 */
	public record Spec(String bucket, String credentialsSecret, List<Source> sources) {
	}

	/**
	 * One ConfigMap to back up.
	 *
	 * @param configMap the ConfigMap's name
	 * @param namespace its namespace; the Backup's if empty
	 */
	public record Source(String configMap, String namespace) {
	}

	/**
	 * What the operator last did.
	 *
	 * @param message what happened
	 */
	public record Status(String message) {
	}

}
// end::resource[]
