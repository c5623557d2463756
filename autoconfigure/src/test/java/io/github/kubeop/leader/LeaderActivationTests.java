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

package io.github.kubeop.leader;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A new leader's start runs beside its renewals, as client-go runs
 * {@code OnStartedLeading} in a goroutine of its own: a slow start (every cache walked)
 * does not let the lease lapse.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class LeaderActivationTests {

	@Test
	void renewalsGoOnWhileASlowStartRuns(ApiClient client, TestNamespace namespace) throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<Duration> stopped = new CopyOnWriteArrayList<>();
		LeaderElector elector = new LeaderElector(new LeaderElectionConfig(namespace.name(), "activation",
				"slow-starter", Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofMillis(500)), client,
				new LeaderCallbacks() {

					@Override
					public void startedLeading() {
						started.countDown();
						try {
							// as a start that walks a large cache for every handler
							release.await(60, TimeUnit.SECONDS);
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
					}

					@Override
					public void stoppedLeading(Duration timeLeft) {
						stopped.add(timeLeft);
					}

				});
		CoordinationV1Api api = new CoordinationV1Api(client);
		elector.start();
		try {
			assertThat(started.await(30, TimeUnit.SECONDS)).as("became leader").isTrue();
			OffsetDateTime first = api.readNamespacedLease("activation", namespace.name())
				.execute()
				.getSpec()
				.getRenewTime();
			// several renewals (one every half second) while the start still runs, and
			// still the leader: before, the first came only once the start returned
			for (int i = 0; i < 3; i++) {
				OffsetDateTime before = api.readNamespacedLease("activation", namespace.name())
					.execute()
					.getSpec()
					.getRenewTime();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> api.readNamespacedLease("activation", namespace.name())
						.execute()
						.getSpec()
						.getRenewTime()
						.isAfter(before));
			}
			assertThat(api.readNamespacedLease("activation", namespace.name()).execute().getSpec().getRenewTime())
				.isAfter(first);
			assertThat(elector.isLeader()).as("leader while its start runs").isTrue();
			assertThat(stopped).as("leadership lost while the start ran").isEmpty();
		}
		finally {
			release.countDown();
			elector.stop();
		}
	}

}
