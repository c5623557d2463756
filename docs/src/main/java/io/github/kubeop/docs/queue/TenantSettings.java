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

package io.github.kubeop.docs.queue;

// tag::example[]
import java.time.Duration;

import io.github.kubeop.annotation.HandlerQueue;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.handler.QueueSettings.Fairness;
import io.github.kubeop.handler.Result;
import io.github.kubeop.queue.Priority;
import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.stereotype.Component;

@Component
@HandlerQueue(fairness = Fairness.LABEL, partitionLabel = "example.com/tenant") // <1>
public class TenantSettings {

	@Reconcile
	Result reconcile(V1ConfigMap settings) {
		if (settings.getData() == null) {
			// look again in a minute, behind every real change
			return Result.requeueAfter(Duration.ofMinutes(1)).withPriority(Priority.LOW); // <2>
		}
		return Result.done();
	}

}
// end::example[]
