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

package io.github.kubeop.reliability;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.LeaderElectionLifecycle;
import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A standby (leader election on, another replica holds the lease) over 10,000 creates and
 * 10,000 deletes: it keeps its cache warm and nothing that grows with churn, and handles
 * every cached object once it wins the lease. The object count is
 * {@code -Dkubeop.reliability.standby-objects} (10,000).
 *
 * @author Kubeop authors
 */
@KubernetesTest
class StandbyTests {

	private static final int OBJECTS = Integer.getInteger("kubeop.reliability.standby-objects", 10_000);

	private static final int SURVIVORS = 100;

	private static final String PAYLOAD = "x".repeat(2048);

	@Test
	void standbyOverTwentyThousandWritesKeepsItsHeapFlatAndHandlesEveryCachedObjectOnWinning(ControlPlane controlPlane,
			ApiClient admin, TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		CoordinationV1Api leases = new CoordinationV1Api(admin);
		OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
		leases
			.createNamespacedLease(namespace.name(),
					new V1Lease().metadata(new V1ObjectMeta().name("standby"))
						.spec(new V1LeaseSpec().holderIdentity("elsewhere")
							.leaseDurationSeconds(3600)
							.acquireTime(now)
							.renewTime(now)))
			.execute();
		for (int i = 0; i < SURVIVORS; i++) {
			create(api, namespace, "survivor-" + i);
		}
		Set<String> added = ConcurrentHashMap.newKeySet();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
					KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(AddRecorder.class, () -> new AddRecorder(added))
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.leader-election.enabled=true", "kubeop.leader-election.lease-name=standby",
					"kubeop.leader-election.lease-namespace=" + namespace.name(),
					"kubeop.leader-election.identity=standby", "kubeop.leader-election.lease-duration=4s",
					"kubeop.leader-election.renew-deadline=3s", "kubeop.leader-election.retry-period=500ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Controller<?> controller = context.getBean(HandlerRegistrar.class).controllers().iterator().next();
				assertThat(context.getBean(LeaderElectionLifecycle.class).elector().isLeader()).isFalse();
				long heapBefore = Heap.retained();
				long started = System.nanoTime();
				Writers.parallel(OBJECTS, (i) -> create(api, namespace, "churn-" + i));
				Writers.parallel(OBJECTS,
						(i) -> api.deleteNamespacedConfigMap("churn-" + i, namespace.name()).execute());
				double seconds = (System.nanoTime() - started) / 1e9;
				// every create and delete has reached the cache once it holds the
				// survivors only and the last delete was seen
				await().atMost(Duration.ofSeconds(120))
					.until(() -> controller.informer().indexer().list().size() == SURVIVORS
							&& controller.informer().eventCount("deleted") >= OBJECTS);
				long heapAfter = Heap.retained();
				long growth = heapAfter - heapBefore;
				Figures.record("standby",
						(2 * OBJECTS) + " writes in " + String.format("%.1f", seconds) + " s ("
								+ Math.round(2 * OBJECTS / seconds) + " writes/s) on a standby: retained heap "
								+ Heap.signedMegabytes(growth) + ", per-key entries held " + controller.retainedKeys());
				assertThat(controller.queue().length()).as("keys queued on a standby").isZero();
				assertThat(controller.retainedKeys()).as("per-key entries held on a standby").isZero();
				assertThat(growth).as("retained heap growth in bytes over %d writes on a standby", 2 * OBJECTS)
					.isLessThan(8L << 20);
				// the other replica is gone: this one takes over and handles every cached
				// object
				leases.deleteNamespacedLease("standby", namespace.name()).execute();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> context.getBean(LeaderElectionLifecycle.class).elector().isLeader());
				await().atMost(Duration.ofSeconds(30)).until(() -> added.size() >= SURVIVORS);
				assertThat(added).allMatch((name) -> name.startsWith("survivor-") || name.equals("kube-root-ca.crt"));
			});
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name) throws Exception {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("payload", PAYLOAD)))
			.execute();
	}

	static class AddRecorder {

		private final Set<String> added;

		AddRecorder(Set<String> added) {
			this.added = added;
		}

		@OnAdd
		void added(V1ConfigMap configMap) {
			this.added.add(configMap.getMetadata().getName());
		}

	}

}
