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

package io.github.kubeop.sample;

import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for how {@link StaticSiteReconciler} tells from its Deployment whether a site is
 * {@code Ready}.
 *
 * @author Kubeop authors
 */
class StaticSiteReadinessTests {

	@Test
	void deploymentWithoutStatusYetIsNotReady() {
		assertThat(StaticSiteReconciler.ready(2, new V1Deployment().metadata(new V1ObjectMeta().generation(1L))))
			.extracting(V1Condition::getType, V1Condition::getStatus, V1Condition::getReason, V1Condition::getMessage)
			.containsExactly("Ready", "False", "ReplicasUnavailable", "0 of 2 replicas available");
	}

	@Test
	void siteIsReadyOnceTheDesiredReplicasAreAvailable() {
		assertThat(StaticSiteReconciler.ready(2, deployment(3, 3, 2, 1)))
			.extracting(V1Condition::getStatus, V1Condition::getReason, V1Condition::getMessage)
			.containsExactly("False", "ReplicasUnavailable", "1 of 2 replicas available");
		assertThat(StaticSiteReconciler.ready(2, deployment(3, 3, 2, 2)))
			.extracting(V1Condition::getStatus, V1Condition::getReason, V1Condition::getMessage,
					V1Condition::getObservedGeneration)
			.containsExactly("True", "ReplicasAvailable", "2 of 2 replicas available", 3L);
	}

	@Test
	void availableReplicasOfAnOlderGenerationDoNotMakeTheSiteReady() {
		// scaled from 2 to 3: the Deployment controller has not seen generation 4 yet
		assertThat(StaticSiteReconciler.ready(3, deployment(4, 3, 3, 3)).getStatus()).isEqualTo("False");
		// seen, but the new pods are not all updated yet
		assertThat(StaticSiteReconciler.ready(3, deployment(4, 4, 2, 3)).getStatus()).isEqualTo("False");
		assertThat(StaticSiteReconciler.ready(3, deployment(4, 4, 3, 3)).getStatus()).isEqualTo("True");
	}

	private static V1Deployment deployment(long generation, long observedGeneration, int updated, int available) {
		return new V1Deployment().metadata(new V1ObjectMeta().generation(generation))
			.status(new V1DeploymentStatus().observedGeneration(observedGeneration)
				.updatedReplicas(updated)
				.availableReplicas(available));
	}

}
