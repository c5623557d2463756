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

package io.github.kubeop.docs.events;

// tag::example[]
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.event.EventRecorder;
import io.kubernetes.client.openapi.models.V1Deployment;

import org.springframework.stereotype.Component;

/**
 * Tells, through Kubernetes Events, what a handler saw of a Deployment.
 *
 * @author Kubeop authors
 */
@Component
public class DeploymentEvents {

	private final EventRecorder events;

	DeploymentEvents(EventRecorder events) {
		this.events = events;
	}

	@Reconcile
	void reconcile(V1Deployment deployment) {
		Integer wanted = deployment.getSpec().getReplicas();
		Integer ready = (deployment.getStatus() != null) ? deployment.getStatus().getReadyReplicas() : null;
		if (wanted != null && wanted > 0 && ready == null) {
			// returns at once; repeats become one Event whose series counts them
			this.events.warning(deployment, "NoReplicaReady", "Reconcile",
					"None of " + wanted + " replicas is ready yet");
		}
		else {
			this.events.normal(deployment, "Reconciled", "Reconcile", null);
		}
	}

}
// end::example[]
