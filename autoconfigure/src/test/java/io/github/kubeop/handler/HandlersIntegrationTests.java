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

package io.github.kubeop.handler;

// tag::imports[]
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.QueueMetricsFactory;
import io.github.kubeop.reliability.CompactingControlPlane;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;
// end::imports[]

/**
 * The handler semantics of the design, one test each, against a real API server.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class HandlersIntegrationTests {

	private static ApiClient client;

	private static CoreV1Api api;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@BeforeAll
	static void client(ApiClient apiClient) {
		client = apiClient;
		api = new CoreV1Api(apiClient);
	}

	private ApplicationContextRunner runner(ControlPlane controlPlane, TestNamespace namespace, String... properties) {
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withPropertyValues(properties);
	}

	@Test
	void burstOfUpdatesCoalescesIntoFewCallsWhoseLastSeesTheFinalState(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		SlowRecorder recorder = new SlowRecorder("burst");
		runner(controlPlane, namespace).withBean(SlowRecorder.class, () -> recorder).run((context) -> {
			assertThat(context).hasNotFailed();
			create(namespace, "burst", Map.of("n", "0"));
			for (int i = 1; i <= 100; i++) {
				V1ConfigMap current = api.readNamespacedConfigMap("burst", namespace.name()).execute();
				current.setData(Map.of("n", Integer.toString(i)));
				api.replaceNamespacedConfigMap("burst", namespace.name(), current).execute();
			}
			await().atMost(Duration.ofSeconds(30))
				.until(() -> !recorder.updates.isEmpty()
						&& "100".equals(recorder.updates.get(recorder.updates.size() - 1)[1]));
			// a later change that must be handled: the burst's calls all came before it
			V1ConfigMap sentinel = api.readNamespacedConfigMap("burst", namespace.name()).execute();
			sentinel.setData(Map.of("n", "sentinel"));
			api.replaceNamespacedConfigMap("burst", namespace.name(), sentinel).execute();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "sentinel".equals(recorder.updates.get(recorder.updates.size() - 1)[1]));
			List<String[]> updates = List.copyOf(recorder.updates).subList(0, recorder.updates.size() - 1);
			assertThat(recorder.updates.get(recorder.updates.size() - 1)[0]).as("old state of the sentinel call")
				.isEqualTo("100");
			assertThat(updates.size()).as("calls for 100 updates").isLessThan(30);
			assertThat(updates.get(updates.size() - 1)[1]).isEqualTo("100");
			for (int i = 1; i < updates.size(); i++) {
				assertThat(updates.get(i)[0]).as("old state of call %d is the state call %d delivered", i, i - 1)
					.isEqualTo(updates.get(i - 1)[1]);
			}
		});
	}

	@Test
	void eightWorkersNeverHandleOneKeyTwiceAtOnce(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ConcurrencyRecorder recorder = new ConcurrencyRecorder();
		runner(controlPlane, namespace, "kubeop.handlers.workers=8").withBean(ConcurrencyRecorder.class, () -> recorder)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				for (int i = 0; i < 50; i++) {
					create(namespace, "key-" + i, Map.of("round", "0"));
				}
				for (int round = 1; round <= 3; round++) {
					for (int i = 0; i < 50; i++) {
						V1ConfigMap current = api.readNamespacedConfigMap("key-" + i, namespace.name()).execute();
						current.setData(Map.of("round", Integer.toString(round)));
						api.replaceNamespacedConfigMap("key-" + i, namespace.name(), current).execute();
					}
				}
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(recorder.lastRound).hasSize(50)
						.allSatisfy((key, round) -> assertThat(round).isEqualTo("3")));
				assertThat(recorder.overlap).as("a key handled by two workers at once").isFalse();
				assertThat(recorder.maxParallel.get()).as("keys handled in parallel").isGreaterThan(1);
			});
	}

	// tag::retries[]
	@Test
	void failingHandlerIsRetriedWithGrowingDelaysUntilItSucceeds(ControlPlane controlPlane, TestNamespace namespace) {
		FlakyHandler handler = new FlakyHandler("flaky", 3);
		runner(controlPlane, namespace, "kubeop.handlers.rate-limiter.base-delay=100ms")
			.withBean(FlakyHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace, "flaky", Map.of());
				await().atMost(Duration.ofSeconds(20)).until(() -> handler.calls.size() == 4);
				// a later change that must be handled: had the success not settled
				// the key, it would come as a fifth add, not as an update
				V1ConfigMap changed = api.readNamespacedConfigMap("flaky", namespace.name()).execute();
				changed.setData(Map.of("changed", "true"));
				api.replaceNamespacedConfigMap("flaky", namespace.name(), changed).execute();
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.updates.get() == 1);
				assertThat(handler.calls).hasSize(4);
				assertThat(handler.attempts).containsExactly(1, 2, 3, 4);
				assertBacksOffFrom100Ms(handler.calls);
			});
	}
	// end::retries[]

	@Test
	void terminalExceptionStopsRetriesUntilTheObjectChanges(ControlPlane controlPlane, TestNamespace namespace) {
		FlakyHandler handler = new FlakyHandler("doomed", Integer.MAX_VALUE);
		handler.terminal = true;
		runner(controlPlane, namespace, "kubeop.handlers.rate-limiter.base-delay=10ms")
			.withBean(FlakyHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace, "doomed", Map.of());
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.size() == 1);
				// the change that must be handled: a retried add would come before
				// it, and would keep it from ever being an update
				V1ConfigMap current = api.readNamespacedConfigMap("doomed", namespace.name()).execute();
				current.setData(Map.of("fixed", "true"));
				api.replaceNamespacedConfigMap("doomed", namespace.name(), current).execute();
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.updates.get() == 1);
				assertThat(handler.calls).hasSize(1);
			});
	}

	@Test
	void resyncCallsOnlyHandlersThatOptIn(ControlPlane controlPlane, TestNamespace namespace) {
		ResyncRecorder recorder = new ResyncRecorder();
		PlainRecorder plain = new PlainRecorder();
		runner(controlPlane, namespace, "kubeop.informers.resync-period=1s")
			.withBean(ResyncRecorder.class, () -> recorder)
			.withBean(PlainRecorder.class, () -> plain)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace, "resynced", Map.of());
				await().atMost(Duration.ofSeconds(15)).until(() -> recorder.optedIn.size() >= 2);
				assertThat(recorder.optedIn).allSatisfy((call) -> {
					assertThat(call.trigger()).isEqualTo(Trigger.RESYNC);
				});
				assertThat(plain.updates).as("updates of a handler that did not opt in to resync").isEmpty();
				assertThat(plain.adds).hasValue(1);
			});
	}

	@Test
	void changeOfAnOwnedObjectCallsTheOwnersHandler(ControlPlane controlPlane, TestNamespace namespace) {
		OwnerHandler handler = new OwnerHandler();
		runner(controlPlane, namespace).withBean(OwnerHandler.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			V1Secret owner = api
				.createNamespacedSecret(namespace.name(),
						new V1Secret().metadata(new V1ObjectMeta().name("owner")).stringData(Map.of("k", "v")))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.adds.get() == 1);
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().name("owned")
							.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1")
								.kind("Secret")
								.name("owner")
								.uid(owner.getMetadata().getUid())
								.controller(true)))
						.data(Map.of("drift", "0")))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.ownerTriggers.get() >= 1);
			int before = handler.ownerTriggers.get();
			V1ConfigMap owned = api.readNamespacedConfigMap("owned", namespace.name()).execute();
			owned.setData(Map.of("drift", "1"));
			api.replaceNamespacedConfigMap("owned", namespace.name(), owned).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.ownerTriggers.get() > before);
		});
	}

	@Test
	void deleteDeliversTheFinalStateNotTheStateLastDelivered(ControlPlane controlPlane, TestNamespace namespace) {
		CallRecorder handler = new CallRecorder();
		runner(controlPlane, namespace, "kubeop.handlers.workers=1").withBean(CallRecorder.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitCachedObjectsHandled(context, handler);
				create(namespace, "goner", Map.of("v", "first"));
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add goner v=first"));
				// the one worker is held on another key while goner changes and goes
				handler.block("blocker-final");
				create(namespace, "blocker-final", Map.of("v", "1"));
				handler.awaitBlocked();
				update(namespace, "goner", "last words");
				api.deleteNamespacedConfigMap("goner", namespace.name()).execute();
				awaitQueued(context, namespace, "sentinel-final", 2);
				handler.release();
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add sentinel-final v=1"));
				assertThat(handler.callsFor("goner")).containsExactly("add goner v=first",
						"delete goner v=last words (final state known)");
			});
	}

	@Test
	void deleteDuringAnUpdateCallDeliversTheFinalState(ControlPlane controlPlane, TestNamespace namespace) {
		CallRecorder handler = new CallRecorder();
		runner(controlPlane, namespace, "kubeop.handlers.workers=1").withBean(CallRecorder.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitCachedObjectsHandled(context, handler);
				create(namespace, "inflight", Map.of("v", "1"));
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add inflight v=1"));
				handler.block("inflight");
				update(namespace, "inflight", "2");
				handler.awaitBlocked();
				// while @OnUpdate(1, 2) runs, the object changes once more and is deleted
				update(namespace, "inflight", "3");
				api.deleteNamespacedConfigMap("inflight", namespace.name()).execute();
				// the running key waits apart from the queue: only the sentinel is in
				awaitQueued(context, namespace, "sentinel-inflight", 1);
				handler.release();
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.deleted("inflight"));
				assertThat(handler.callsFor("inflight")).containsExactly("add inflight v=1", "update inflight v=1 -> 2",
						"delete inflight v=3 (final state known)");
			});
	}

	@Test
	void deleteDuringTheAddOfARecreatedObjectDeliversTheNewFinalState(ControlPlane controlPlane,
			TestNamespace namespace) {
		CallRecorder handler = new CallRecorder();
		runner(controlPlane, namespace, "kubeop.handlers.workers=1").withBean(CallRecorder.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitCachedObjectsHandled(context, handler);
				handler.block("blocker-twice");
				create(namespace, "blocker-twice", Map.of("v", "1"));
				handler.awaitBlocked();
				// created and deleted before any call: its final state waits for the key
				create(namespace, "twice", Map.of("v", "first"));
				api.deleteNamespacedConfigMap("twice", namespace.name()).execute();
				create(namespace, "twice", Map.of("v", "second"));
				awaitQueued(context, namespace, "sentinel-twice-1", 2);
				handler.block("twice");
				handler.release();
				handler.awaitBlocked();
				// while the add of the second object runs, it changes and is deleted
				update(namespace, "twice", "third");
				api.deleteNamespacedConfigMap("twice", namespace.name()).execute();
				awaitQueued(context, namespace, "sentinel-twice-2", 2);
				handler.release();
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.deleted("twice"));
				assertThat(handler.callsFor("twice")).containsExactly("add twice v=second",
						"delete twice v=third (final state known)");
			});
	}

	@Test
	void deleteAndRecreateWhileTheKeyWaitsAreADeleteAndAnAddNeverAnUpdate(ControlPlane controlPlane,
			TestNamespace namespace) {
		CallRecorder handler = new CallRecorder();
		handler.failDeletesOnce = true;
		runner(controlPlane, namespace, "kubeop.handlers.workers=1", "kubeop.handlers.rate-limiter.base-delay=10ms")
			.withBean(CallRecorder.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitCachedObjectsHandled(context, handler);
				create(namespace, "phoenix", Map.of("v", "old"));
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add phoenix v=old"));
				String oldUid = api.readNamespacedConfigMap("phoenix", namespace.name())
					.execute()
					.getMetadata()
					.getUid();
				handler.block("blocker-recreate");
				create(namespace, "blocker-recreate", Map.of("v", "1"));
				handler.awaitBlocked();
				api.deleteNamespacedConfigMap("phoenix", namespace.name()).execute();
				create(namespace, "phoenix", Map.of("v", "new"));
				awaitQueued(context, namespace, "sentinel-recreate", 2);
				handler.release();
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add sentinel-recreate v=1"));
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add phoenix v=new"));
				// the failed delete is retried before the add, and the add is not lost
				assertThat(handler.callsFor("phoenix")).containsExactly("add phoenix v=old",
						"delete phoenix v=old (final state known) failed", "delete phoenix v=old (final state known)",
						"add phoenix v=new");
				assertThat(handler.uids.get("delete phoenix")).isEqualTo(oldUid);
				assertThat(handler.uids.get("add phoenix")).isNotEqualTo(oldUid);
			});
	}

	@Test
	void deleteInferredOnARelistIsToldAsFinalStateUnknown(ControlPlane shared) throws Exception {
		assumeThat(shared).isInstanceOf(LocalControlPlane.class);
		// a control plane of its own: without the watch cache a resumed watch reaches
		// etcd, which compacts old revisions away (410 Gone), so the informer relists
		try (LocalControlPlane controlPlane = CompactingControlPlane.start();
				FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			CoreV1Api direct = new CoreV1Api(controlPlane.apiClient());
			direct.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("relisted"))).execute();
			for (String name : List.of("seen-away", "relisted-away")) {
				direct
					.createNamespacedConfigMap("relisted",
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", "1")))
					.execute();
			}
			CallRecorder handler = new CallRecorder();
			this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientVia(proxy.url()))
				.withPropertyValues("kubeop.informers.namespaces=relisted")
				.withBean(CallRecorder.class, () -> handler)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					await().atMost(Duration.ofSeconds(10))
						.until(() -> handler.calls.containsAll(List.of("add seen-away v=1", "add relisted-away v=1")));
					direct.deleteNamespacedConfigMap("seen-away", "relisted").execute();
					await().atMost(Duration.ofSeconds(10)).until(() -> handler.deleted("seen-away"));
					ResourceInformer<?> informer = context.getBean(HandlerRegistrar.class)
						.controllers()
						.iterator()
						.next()
						.informer();
					long relists = informer.status().relists();
					proxy.cut();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> informer.status().state() == WatchState.RECONNECTING);
					// nothing the informer saw is newer than this revision
					long seen = Long.parseLong(
							direct.listNamespacedConfigMap("relisted").execute().getMetadata().getResourceVersion());
					direct.deleteNamespacedConfigMap("relisted-away", "relisted").execute();
					// once etcd has compacted past it, the watch cannot resume: 410,
					// relist
					await().atMost(Duration.ofSeconds(30))
						.until(() -> CompactingControlPlane.isCompacted(controlPlane.apiClient(), "relisted",
								Long.toString(seen + 1)));
					proxy.restore();
					await().atMost(Duration.ofSeconds(60)).until(() -> handler.deleted("relisted-away"));
					assertThat(informer.status().relists()).as("relists after the cut").isGreaterThan(relists);
					assertThat(handler.callsFor("seen-away")).containsExactly("add seen-away v=1",
							"delete seen-away v=1 (final state known)");
					assertThat(handler.callsFor("relisted-away")).containsExactly("add relisted-away v=1",
							"delete relisted-away v=1 (final state unknown)");
				});
		}
	}

	@Test
	void requeueWithoutDelayIsRateLimited(ControlPlane controlPlane, TestNamespace namespace) {
		RequeueingHandler handler = new RequeueingHandler(4);
		runner(controlPlane, namespace, "kubeop.handlers.rate-limiter.base-delay=100ms")
			.withBean(RequeueingHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace, "again", Map.of());
				await().atMost(Duration.ofSeconds(20)).until(() -> handler.calls.size() == 4);
				assertThat(handler.attempts).containsExactly(1, 2, 3, 4);
				assertBacksOffFrom100Ms(handler.calls);
			});
	}

	@Test
	void reconcilesCountCallsNotEvents(ControlPlane controlPlane, TestNamespace namespace) {
		AddOnlyHandler handler = new AddOnlyHandler();
		CountingObserver observer = new CountingObserver();
		runner(controlPlane, namespace).withBean(AddOnlyHandler.class, () -> handler)
			.withBean(CountingObserver.class, () -> observer)
			.withBean(QueueMetricsFactory.class, () -> (name) -> observer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace, "counted", Map.of("v", "0"));
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.added.contains("counted"));
				for (int i = 1; i <= 5; i++) {
					update(namespace, "counted", Integer.toString(i));
				}
				api.deleteNamespacedConfigMap("counted", namespace.name()).execute();
				create(namespace, "sentinel-counted", Map.of());
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.added.contains("sentinel-counted"));
				assertThat(observer.handled.get()).as("reconciles counted").isEqualTo(handler.added.size());
				// every add, and the delete, queued only to forget what was delivered
				assertThat(observer.queued.get()).as("keys queued").isEqualTo(handler.added.size() + 1);
			});
	}

	@Test
	void handlerWithoutOnUpdateIsToldWhenAnObjectLeavesItsFilter(ControlPlane controlPlane, TestNamespace namespace) {
		AddDeleteHandler handler = new AddDeleteHandler();
		runner(controlPlane, namespace).withBean(AddDeleteHandler.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("leaving").labels(Map.of("tier", "web"))))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("add leaving"));
			V1ConfigMap relabelled = api.readNamespacedConfigMap("leaving", namespace.name()).execute();
			relabelled.getMetadata().setLabels(Map.of("tier", "db"));
			api.replaceNamespacedConfigMap("leaving", namespace.name(), relabelled).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.calls.contains("delete leaving"));
			assertThat(handler.calls).containsExactly("add leaving", "delete leaving");
		});
	}

	@Test
	void blockedHandlerDoesNotStallOtherKeysOrTheCache(ControlPlane controlPlane, TestNamespace namespace) {
		BlockingHandler handler = new BlockingHandler();
		runner(controlPlane, namespace, "kubeop.handlers.workers=2", "kubeop.handlers.shutdown-timeout=1s")
			.withBean(BlockingHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace, "stuck", Map.of());
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.blocked.get());
				for (int i = 0; i < 5; i++) {
					create(namespace, "free-" + i, Map.of());
				}
				// a change to the very object whose handler call blocks
				V1ConfigMap stuck = api.readNamespacedConfigMap("stuck", namespace.name()).execute();
				stuck.setData(Map.of("changed", "while blocked"));
				String changed = api.replaceNamespacedConfigMap("stuck", namespace.name(), stuck)
					.execute()
					.getMetadata()
					.getResourceVersion();
				ResourceInformer<?> informer = context.getBean(InformerRegistry.class)
					.informers()
					.stream()
					.filter((candidate) -> candidate.spec().type() == V1ConfigMap.class)
					.findFirst()
					.orElseThrow();
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					assertThat(informer.lister().namespace(namespace.name()).get("stuck"))
						.as("cached state of the object whose handler blocks")
						.extracting((cached) -> cached.getMetadata().getResourceVersion())
						.isEqualTo(changed);
					for (int i = 0; i < 5; i++) {
						assertThat(informer.lister().namespace(namespace.name()).get("free-" + i)).isNotNull();
					}
				});
				await().atMost(Duration.ofSeconds(10)).until(() -> handler.handled.size() == 5);
				handler.release.set(true);
			});
	}

	@Test
	void generationChangedSkipsMetadataOnlyUpdates(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		SpecWatcher handler = new SpecWatcher();
		runner(controlPlane, namespace).withBean(SpecWatcher.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			AppsV1Api apps = new AppsV1Api(client);
			apps.createNamespacedDeployment(namespace.name(), deployment("web", 1)).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.adds.get() == 1);
			V1Deployment labelled = apps.readNamespacedDeployment("web", namespace.name()).execute();
			labelled.getMetadata().putLabelsItem("touched", "yes");
			apps.replaceNamespacedDeployment("web", namespace.name(), labelled).execute();
			// the label change reaches the plain @OnUpdate of this handler in the
			// call that decides on the generationChanged one
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.touched.get() >= 1);
			assertThat(handler.specChanges).isEmpty();
			V1Deployment scaled = apps.readNamespacedDeployment("web", namespace.name()).execute();
			scaled.getSpec().setReplicas(3);
			apps.replaceNamespacedDeployment("web", namespace.name(), scaled).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> handler.specChanges.size() == 1);
			assertThat(handler.specChanges.get(0)).isEqualTo("1->3");
		});
	}

	@Test
	void programmaticRegistrationWorksWithoutAnnotations(ControlPlane controlPlane, TestNamespace namespace) {
		runner(controlPlane, namespace).run((context) -> {
			assertThat(context).hasNotFailed();
			List<String> added = new CopyOnWriteArrayList<>();
			List<String> deleted = new CopyOnWriteArrayList<>();
			context.getBean(HandlerRegistrar.class)
				.register(HandlerEndpoint.builder("programmatic", V1ConfigMap.class)
					.labelSelector("made-by=code")
					.onAdd((configMap) -> added.add(configMap.getMetadata().getName()))
					.onDelete((configMap) -> deleted.add(configMap.getMetadata().getName()))
					.build());
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("coded").labels(Map.of("made-by", "code"))))
				.execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> added.contains("coded"));
			api.deleteNamespacedConfigMap("coded", namespace.name()).execute();
			await().atMost(Duration.ofSeconds(10)).until(() -> deleted.contains("coded"));
			assertThat(added).containsExactly("coded");
		});
	}

	private static V1Deployment deployment(String name, int replicas) {
		Map<String, String> labels = Map.of("app", name);
		V1PodSpec pod = new V1PodSpec().addContainersItem(new V1Container().name("main").image("busybox"))
			.overhead(null);
		return new V1Deployment().metadata(new V1ObjectMeta().name(name))
			.spec(new V1DeploymentSpec().replicas(replicas)
				.selector(new V1LabelSelector().matchLabels(labels))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels)).spec(pod)));
	}

	/**
	 * Asserts that the gaps between the first four calls are at least 100, 200 and 400
	 * ms: the per-item limiter's doubling from a base delay of 100 ms.
	 */
	private static void assertBacksOffFrom100Ms(List<Long> callNanos) {
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < callNanos.size(); i++) {
			gaps.add(callNanos.get(i) - callNanos.get(i - 1));
		}
		assertThat(gaps.get(0)).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
		assertThat(gaps.get(1)).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
		assertThat(gaps.get(2)).isGreaterThanOrEqualTo(Duration.ofMillis(400).toNanos());
	}

	private static void create(TestNamespace namespace, String name, Map<String, String> data) throws ApiException {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(data))
			.execute();
	}

	private static void update(TestNamespace namespace, String name, String value) throws ApiException {
		V1ConfigMap current = api.readNamespacedConfigMap(name, namespace.name()).execute();
		current.setData(Map.of("v", value));
		api.replaceNamespacedConfigMap(name, namespace.name(), current).execute();
	}

	/**
	 * Waits until the handler was called for every object the namespace held when it
	 * started (earlier tests' objects), so that the queue the test counts holds only the
	 * test's keys: the initial list's keys wait at low priority, behind every key the
	 * test queues.
	 */
	private static void awaitCachedObjectsHandled(AssertableApplicationContext context, CallRecorder handler) {
		Controller<?> controller = context.getBean(HandlerRegistrar.class).controllers().iterator().next();
		List<String> cached = controller.informer()
			.indexer()
			.list()
			.stream()
			.map((object) -> object.getMetadata().getName())
			.filter((name) -> !name.startsWith("kube-"))
			.toList();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> cached.stream().noneMatch((name) -> handler.callsFor(name).isEmpty()));
	}

	/**
	 * Creates a sentinel object and waits until the handler's queue holds as many keys as
	 * expected with it: the events written before the sentinel have then reached the
	 * handler, whose informer delivers them in order.
	 */
	private static void awaitQueued(AssertableApplicationContext context, TestNamespace namespace, String sentinel,
			int expectedLength) throws ApiException {
		Controller<?> controller = context.getBean(HandlerRegistrar.class).controllers().iterator().next();
		create(namespace, sentinel, Map.of("v", "1"));
		await().atMost(Duration.ofSeconds(10)).until(() -> controller.queue().length() == expectedLength);
	}

	/**
	 * Records every call as text, can hold the worker in one call, and can fail the first
	 * attempt of every delete.
	 */
	static class CallRecorder {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final Map<String, String> uids = new ConcurrentHashMap<>();

		volatile boolean failDeletesOnce;

		private volatile CountDownLatch blocked = new CountDownLatch(1);

		private volatile CountDownLatch released = new CountDownLatch(1);

		private volatile CountDownLatch holding = new CountDownLatch(1);

		private volatile String blockOn;

		void block(String name) {
			this.blocked = new CountDownLatch(1);
			this.released = new CountDownLatch(1);
			this.blockOn = name;
		}

		void awaitBlocked() throws InterruptedException {
			assertThat(this.blocked.await(10, TimeUnit.SECONDS)).as("handler blocked").isTrue();
		}

		void release() {
			this.holding.countDown();
		}

		boolean deleted(String name) {
			return callsFor(name).stream().anyMatch((call) -> call.startsWith("delete "));
		}

		List<String> callsFor(String name) {
			return this.calls.stream().filter((call) -> call.split(" ")[1].equals(name)).toList();
		}

		@OnAdd
		void added(V1ConfigMap configMap) throws InterruptedException {
			record("add " + describe(configMap), configMap);
		}

		@OnUpdate
		void changed(V1ConfigMap oldObject, V1ConfigMap newObject) throws InterruptedException {
			record("update " + describe(oldObject) + " -> " + newObject.getData().get("v"), newObject);
		}

		@OnDelete
		void removed(V1ConfigMap configMap, HandlerContext context) throws InterruptedException {
			String call = "delete " + describe(configMap) + " (final state "
					+ (context.finalStateUnknown() ? "unknown" : "known") + ")";
			if (this.failDeletesOnce && context.attempt() == 1) {
				this.calls.add(call + " failed");
				throw new IllegalStateException("first delete attempt fails");
			}
			record(call, configMap);
		}

		private void record(String call, V1ConfigMap configMap) throws InterruptedException {
			String name = configMap.getMetadata().getName();
			if (name.startsWith("kube-")) {
				return;
			}
			this.calls.add(call);
			this.uids.put(call.split(" ")[0] + " " + name, configMap.getMetadata().getUid());
			if (name.equals(this.blockOn)) {
				CountDownLatch release = this.released;
				this.holding = release;
				this.blockOn = null;
				this.blocked.countDown();
				assertThat(release.await(30, TimeUnit.SECONDS)).as("released").isTrue();
			}
		}

		private static String describe(V1ConfigMap configMap) {
			return configMap.getMetadata().getName() + " v="
					+ ((configMap.getData() != null) ? configMap.getData().get("v") : null);
		}

	}

	static class RequeueingHandler {

		final List<Long> calls = new CopyOnWriteArrayList<>();

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		private final int times;

		RequeueingHandler(int times) {
			this.times = times;
		}

		@OnAdd
		Result added(V1ConfigMap configMap, HandlerContext context) {
			if (!configMap.getMetadata().getName().equals("again")) {
				return Result.done();
			}
			this.calls.add(System.nanoTime());
			this.attempts.add(context.attempt());
			return (this.calls.size() < this.times) ? Result.requeueAfter(Duration.ZERO) : Result.done();
		}

	}

	static class AddOnlyHandler {

		final List<String> added = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1ConfigMap configMap) {
			this.added.add(configMap.getMetadata().getName());
		}

	}

	static class CountingObserver implements HandlerObserver, QueueMetrics {

		final AtomicInteger handled = new AtomicInteger();

		final AtomicInteger queued = new AtomicInteger();

		@Override
		public void handled(String handler, Outcome outcome, long nanos) {
			this.handled.incrementAndGet();
		}

		@Override
		public void added(int priority) {
			this.queued.incrementAndGet();
		}

	}

	static class AddDeleteHandler {

		final List<String> calls = new CopyOnWriteArrayList<>();

		@OnAdd(labelSelector = "tier=web")
		void added(V1ConfigMap configMap) {
			record("add", configMap);
		}

		@OnDelete
		void removed(V1ConfigMap configMap) {
			record("delete", configMap);
		}

		private void record(String kind, V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().equals("leaving")) {
				this.calls.add(kind + " leaving");
			}
		}

	}

	static class SlowRecorder {

		final List<String[]> updates = new CopyOnWriteArrayList<>();

		private final String name;

		SlowRecorder(String name) {
			this.name = name;
		}

		@OnUpdate
		void changed(V1ConfigMap oldObject, V1ConfigMap newObject) throws InterruptedException {
			if (newObject.getMetadata().getName().equals(this.name)) {
				this.updates.add(new String[] { oldObject.getData().get("n"), newObject.getData().get("n") });
				Thread.sleep(200);
			}
		}

	}

	static class ConcurrencyRecorder {

		final Map<String, String> lastRound = new ConcurrentHashMap<>();

		final AtomicInteger maxParallel = new AtomicInteger();

		volatile boolean overlap;

		private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

		private final AtomicInteger parallel = new AtomicInteger();

		@OnAdd
		void added(V1ConfigMap configMap) throws InterruptedException {
			handle(configMap);
		}

		@OnUpdate
		void changed(V1ConfigMap configMap) throws InterruptedException {
			handle(configMap);
		}

		private void handle(V1ConfigMap configMap) throws InterruptedException {
			String key = configMap.getMetadata().getName();
			if (!key.startsWith("key-")) {
				return;
			}
			AtomicInteger running = this.inFlight.computeIfAbsent(key, (k) -> new AtomicInteger());
			if (running.incrementAndGet() > 1) {
				this.overlap = true;
			}
			this.maxParallel.accumulateAndGet(this.parallel.incrementAndGet(), Math::max);
			try {
				Thread.sleep(20);
				this.lastRound.put(key, configMap.getData().get("round"));
			}
			finally {
				this.parallel.decrementAndGet();
				running.decrementAndGet();
			}
		}

	}

	// tag::flaky-handler[]
	static class FlakyHandler {

		final List<Long> calls = new CopyOnWriteArrayList<>();

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		final AtomicInteger updates = new AtomicInteger();

		volatile boolean terminal;

		private final String name;

		private final int failures;

		FlakyHandler(String name, int failures) {
			this.name = name;
			this.failures = failures;
		}

		@OnAdd
		void added(V1ConfigMap configMap, HandlerContext context) {
			if (!configMap.getMetadata().getName().equals(this.name)) {
				return;
			}
			this.calls.add(System.nanoTime());
			this.attempts.add(context.attempt());
			if (this.calls.size() <= this.failures) {
				if (this.terminal) {
					throw new TerminalException("spec can never work");
				}
				throw new IllegalStateException("failure " + this.calls.size());
			}
		}

		@OnUpdate
		void changed(V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().equals(this.name)) {
				this.updates.incrementAndGet();
			}
		}

	}
	// end::flaky-handler[]

	static class ResyncRecorder {

		final List<HandlerContext> optedIn = new CopyOnWriteArrayList<>();

		@OnUpdate(resync = true)
		void resynced(V1ConfigMap oldObject, V1ConfigMap newObject, HandlerContext context) {
			if (newObject.getMetadata().getName().equals("resynced")) {
				assertThat(oldObject.getMetadata().getResourceVersion())
					.isEqualTo(newObject.getMetadata().getResourceVersion());
				this.optedIn.add(context);
			}
		}

	}

	static class SpecWatcher {

		final AtomicInteger adds = new AtomicInteger();

		final List<String> specChanges = new CopyOnWriteArrayList<>();

		final AtomicInteger touched = new AtomicInteger();

		@OnAdd
		void added(V1Deployment deployment) {
			this.adds.incrementAndGet();
		}

		@OnUpdate
		void anyChange(V1Deployment deployment) {
			if ("yes".equals(deployment.getMetadata().getLabels().get("touched"))) {
				this.touched.incrementAndGet();
			}
		}

		@OnUpdate(generationChanged = true)
		void specChanged(V1Deployment oldDeployment, V1Deployment newDeployment) {
			this.specChanges.add(oldDeployment.getSpec().getReplicas() + "->" + newDeployment.getSpec().getReplicas());
		}

	}

	static class PlainRecorder {

		final AtomicInteger adds = new AtomicInteger();

		final List<HandlerContext> updates = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().equals("resynced")) {
				this.adds.incrementAndGet();
			}
		}

		@OnUpdate
		void changed(V1ConfigMap configMap, HandlerContext context) {
			if (configMap.getMetadata().getName().equals("resynced")) {
				this.updates.add(context);
			}
		}

	}

	@Owns(V1ConfigMap.class)
	static class OwnerHandler {

		final AtomicInteger adds = new AtomicInteger();

		final AtomicInteger ownerTriggers = new AtomicInteger();

		@OnAdd
		void added(V1Secret secret) {
			this.adds.incrementAndGet();
		}

		@OnUpdate
		void changed(V1Secret secret, HandlerContext context) {
			if (context.trigger() == Trigger.OWNER) {
				this.ownerTriggers.incrementAndGet();
			}
		}

	}

	static class BlockingHandler {

		final AtomicBoolean blocked = new AtomicBoolean();

		final AtomicBoolean release = new AtomicBoolean();

		final List<String> handled = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1ConfigMap configMap) throws InterruptedException {
			if (configMap.getMetadata().getName().equals("stuck")) {
				this.blocked.set(true);
				while (!this.release.get()) {
					Thread.sleep(10);
				}
				return;
			}
			if (configMap.getMetadata().getName().startsWith("free-")) {
				this.handled.add(configMap.getMetadata().getName());
			}
		}

	}

}
