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

package io.github.kubeop.autoconfigure;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.HandlersLifecycle;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.leader.LeaderElectionConfig;
import io.github.kubeop.leader.LeaderElector;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link LeaderElectionLifecycle} with {@code exit-on-loss} against a real API server:
 * when the lease is taken, running calls are interrupted first, then the exit runs, once;
 * the replica never leads again, and a shutdown is no loss.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class LeaderElectionLifecycleTests {

	@Test
	void exitOnLossRunsAfterRunningCallsEndedAndTheReplicaNeverLeadsAgain(ApiClient client, TestNamespace namespace)
			throws Exception {
		AtomicLong callEnded = new AtomicLong();
		AtomicInteger calls = new AtomicInteger();
		AtomicInteger exits = new AtomicInteger();
		AtomicLong exitedAt = new AtomicLong();
		InformerRegistry informers = new InformerRegistry(client);
		HandlerRegistrar registrar = new HandlerRegistrar(informers, List.of(namespace.name()), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> 1, HandlerObserver.NONE);
		Controller<?> controller = registrar
			.register(HandlerEndpoint.builder("slow", V1ConfigMap.class).onAdd((configMap) -> {
				calls.incrementAndGet();
				try {
					Thread.sleep(30_000);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					callEnded.set(System.nanoTime());
				}
			}).build());
		HandlersLifecycle handlers = new HandlersLifecycle(registrar, Duration.ofSeconds(1), false);
		LeaderElectionConfig config = new LeaderElectionConfig(namespace.name(), "exiting", "exiting",
				Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500));
		LeaderElectionLifecycle lifecycle = new LeaderElectionLifecycle(
				(callbacks) -> new LeaderElector(config, client, callbacks), handlers, () -> {
					exitedAt.set(System.nanoTime());
					exits.incrementAndGet();
				});
		informers.start();
		try {
			informers.awaitSync(Duration.ofSeconds(30));
			handlers.start();
			lifecycle.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> lifecycle.elector().isLeader());
			new CoreV1Api(client)
				.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("slow")).data(Map.of("k", "v")))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> calls.get() == 1);
			CoordinationV1Api leases = new CoordinationV1Api(client);
			V1Lease lease = leases.readNamespacedLease("exiting", namespace.name()).execute();
			OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
			lease.getSpec().holderIdentity("intruder").renewTime(now).acquireTime(now).leaseDurationSeconds(2);
			leases.replaceNamespacedLease("exiting", namespace.name(), lease).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> exits.get() == 1);
			assertThat(callEnded.get()).as("when the running call ended").isNotZero().isLessThan(exitedAt.get());
			// the intruder's lease runs out: the elector takes it again, but a replica
			// on its way out starts no worker
			await().atMost(Duration.ofSeconds(15)).until(() -> lifecycle.elector().isLeader());
			assertThat(controller.workersStarted()).isFalse();
			lifecycle.stop();
			assertThat(exits.get()).as("exits, the shutdown included").isEqualTo(1);
		}
		finally {
			lifecycle.stop();
			handlers.stop();
			informers.stop();
		}
	}

}
