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

// tag::example[]
import java.util.Map;

import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

import org.springframework.stereotype.Component;

/**
 * Applies a Secret for each consumer a ConfigMap lists; a consumer removed from the list
 * takes its Secret with it.
 *
 * @author Kubeop authors
 */
@Component
@Owns(V1Secret.class)
public class ConsumerSecrets {

	private final KubernetesTemplate kubernetes;

	ConsumerSecrets(KubernetesTemplate kubernetes) {
		this.kubernetes = kubernetes;
	}

	@Reconcile(labelSelector = "example.kubeop.io/consumers", prune = true)
	void reconcile(V1ConfigMap consumers) throws ApiException {
		// the whole desired state, on every call: what it no longer applies is deleted
		for (Map.Entry<String, String> consumer : consumers.getData().entrySet()) {
			this.kubernetes.apply(new V1Secret()
				.metadata(new V1ObjectMeta().name(consumers.getMetadata().getName() + "-" + consumer.getKey())
					.namespace(consumers.getMetadata().getNamespace()))
				.stringData(Map.of("user", consumer.getValue())));
		}
	}

}
// end::example[]
