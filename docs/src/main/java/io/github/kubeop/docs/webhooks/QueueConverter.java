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

package io.github.kubeop.docs.webhooks;

// tag::example[]
import io.github.kubeop.webhook.VersionConverter;

import org.springframework.stereotype.Component;

/**
 * Converts {@code v1alpha1} queues to and from the hub {@code v1}.
 *
 * @author Kubeop authors
 */
@Component
public class QueueConverter implements VersionConverter<QueueV1alpha1, Queue> {

	@Override
	public Queue toHub(QueueV1alpha1 old) {
		Queue queue = new Queue();
		queue.setSpec(new Queue.Spec(old.getSpec().size()));
		return queue; // <1>
	}

	@Override
	public QueueV1alpha1 fromHub(Queue queue) {
		QueueV1alpha1 old = new QueueV1alpha1();
		old.setSpec(new QueueV1alpha1.Spec(queue.getSpec().capacity()));
		return old;
	}

}
// end::example[]
