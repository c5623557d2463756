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

package io.github.kubeop.docs.writing;

import java.util.Map;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import org.springframework.stereotype.Component;

/**
 * Moves a ConfigMap through its phases one write at a time, so it asks to be called for
 * its own writes.
 *
 * @author Kubeop authors
 */
@Component
public class ProgressReporter {

	private final KubernetesTemplate kubernetes;

	ProgressReporter(KubernetesTemplate kubernetes) {
		this.kubernetes = kubernetes;
	}

	// tag::example[]
	@Reconcile(labelSelector = "example.kubeop.io/phased", ownWrites = true)
	void reconcile(V1ConfigMap object) throws ApiException {
		// each call takes one step, and its own write calls it for the next
		String phase = (object.getMetadata().getAnnotations() != null)
				? object.getMetadata().getAnnotations().get("example.kubeop.io/phase") : null;
		String next = (phase == null) ? "Pending" : phase.equals("Pending") ? "Running" : "Done";
		if (!next.equals(phase) && !"Done".equals(phase)) {
			this.kubernetes.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(object.getMetadata().getName())
				.namespace(object.getMetadata().getNamespace())
				.annotations(Map.of("example.kubeop.io/phase", next))));
		}
	}
	// end::example[]

}
