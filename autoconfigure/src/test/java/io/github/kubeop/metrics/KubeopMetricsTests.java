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

package io.github.kubeop.metrics;

import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeopMetrics} on the registry an application with Actuator alone
 * gets.
 *
 * @author Kubeop authors
 */
class KubeopMetricsTests {

	@Test
	void everyWorkQueueBucketIsAGaugeOfItsOwnOnTheSimpleRegistry() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new KubeopMetrics(registry).queueMetrics("sites");
		for (String timer : List.of("workqueue.queue.duration", "workqueue.work.duration")) {
			List<String> bounds = registry.find(timer + ".histogram")
				.meters()
				.stream()
				.map(Meter::getId)
				.map((id) -> id.getTag("le"))
				.toList();
			// the simple registry keeps one gauge of a bound (and warns): each bucket
			// must come out as a bound of its own
			assertThat(bounds).as(timer).hasSize(10).doesNotContain("0");
		}
	}

}
