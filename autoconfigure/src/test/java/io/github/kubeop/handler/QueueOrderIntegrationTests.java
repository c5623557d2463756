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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.Priority;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.queue.Ticker;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The order in which a handler's queue hands out keys, against a real API server: a
 * user's new object goes before the backlog that a start queued, and with fairness a
 * tenant's object goes before another tenant's backlog. Each test holds the first call,
 * so that the backlog is certainly queued when the new object arrives, and then reads the
 * order of the calls: no timing is asserted.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class QueueOrderIntegrationTests {

	private static final int BACKLOG = 40;

	private InformerRegistry informers;

	private HandlerRegistrar registrar;

	private CoreV1Api api;

	private TestNamespace namespace;

	/**
	 * The objects of one test: its handler lists only those.
	 */
	private String run;

	@AfterEach
	void stop() {
		if (this.registrar != null) {
			this.registrar.shutdown(Duration.ofSeconds(1));
		}
		if (this.informers != null) {
			this.informers.stop();
		}
	}

	@Test
	void aNewObjectIsHandledBeforeTheBacklogTheStartQueued(ApiClient client, TestNamespace namespace) throws Exception {
		List<String> calls = run(client, namespace, QueueSettings.DEFAULTS, false);
		assertThat(calls.indexOf("new")).as("calls before the new object's, of %s", calls).isEqualTo(1);
	}

	@Test
	void withoutPrioritiesTheNewObjectWaitsBehindTheBacklog(ApiClient client, TestNamespace namespace)
			throws Exception {
		List<String> calls = run(client, namespace, new QueueSettings(false, QueueSettings.Fairness.NONE, null), false);
		assertThat(calls.indexOf("new")).isEqualTo(BACKLOG);
	}

	@Test
	void withFairnessByLabelATenantsObjectGoesBeforeAnotherTenantsChanges(ApiClient client, TestNamespace namespace)
			throws Exception {
		// every object of tenant a changes while the first call is held: a backlog of
		// real changes at normal priority, which priorities alone do not help with
		List<String> calls = run(client, namespace,
				new QueueSettings(true, QueueSettings.Fairness.LABEL, "example.com/tenant"), true);
		// the held call, at most one of tenant a's changes, then tenant b's turn
		assertThat(calls.indexOf("new")).as("calls before tenant b's new object, of %s", calls).isLessThanOrEqualTo(2);
	}

	@Test
	void objectsOfTheInitialListsOfTheHandlerAndOfItsOwnedTypeQueueAtLowPriority(ApiClient client,
			TestNamespace namespace) throws Exception {
		this.api = new CoreV1Api(client);
		this.namespace = namespace;
		this.run = "run-" + System.nanoTime();
		for (int i = 0; i < BACKLOG; i++) {
			V1ConfigMap owner = create("owner-" + i, "a");
			createOwned("owned-" + i, owner);
		}
		this.informers = new InformerRegistry(client);
		Map<String, List<Integer>> priorities = new ConcurrentHashMap<>();
		this.registrar = new HandlerRegistrar(this.informers, List.of(namespace.name()), Duration.ZERO,
				(name, lanes) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter(),
						QueueMetrics.NOOP, Ticker.system(), lanes) {

					@Override
					public void add(String item, int priority) {
						priorities.computeIfAbsent(item, (key) -> new CopyOnWriteArrayList<>()).add(priority);
						super.add(item, priority);
					}

				}, (name) -> 1, HandlerObserver.NONE, (name, declared) -> declared.orElse(QueueSettings.DEFAULTS));
		List<String> calls = new CopyOnWriteArrayList<>();
		this.registrar.register(HandlerEndpoint.builder("owning", V1ConfigMap.class)
			.onAdd((configMap) -> calls.add(configMap.getMetadata().getName()))
			.labelSelector("run=" + this.run)
			.owns(V1Secret.class)
			.build());
		// the workers first: every add of both initial lists reaches a running handler
		this.registrar.startWorkers();
		this.informers.start();
		this.informers.awaitSync(Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(60)).until(() -> calls.size() >= BACKLOG);
		// the sentinel: a new owned object's owner, queued by a watched add
		V1ConfigMap owner = create("owner-new", "b");
		createOwned("owned-new", owner);
		String sentinel = namespace.name() + "/" + owner.getMetadata().getName();
		await().atMost(Duration.ofSeconds(60)).until(() -> priorities.getOrDefault(sentinel, List.of()).size() >= 2);
		assertThat(priorities.get(sentinel)).as("the new object's and its owned object's adds")
			.containsOnly(Priority.NORMAL);
		priorities.remove(sentinel);
		assertThat(priorities).as("adds of listed owners, from both initial lists").hasSize(BACKLOG);
		assertThat(priorities.values()).allSatisfy((queued) -> assertThat(queued).containsOnly(Priority.LOW));
	}

	/**
	 * Starts a handler with one worker over a backlog of cached objects, holds its first
	 * call, creates the object "new" (and changes the backlog, if asked), waits until the
	 * queue holds them, releases the call, and returns the handled names in call order.
	 */
	private List<String> run(ApiClient client, TestNamespace namespace, QueueSettings settings, boolean changeBacklog)
			throws Exception {
		this.api = new CoreV1Api(client);
		this.namespace = namespace;
		this.run = "run-" + System.nanoTime();
		for (int i = 0; i < BACKLOG; i++) {
			create("backlog-" + i, "a");
		}
		this.informers = new InformerRegistry(client);
		this.registrar = new HandlerRegistrar(this.informers, List.of(namespace.name()), Duration.ZERO,
				(name, lanes) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter(),
						QueueMetrics.NOOP, Ticker.system(), lanes),
				(name) -> 1, HandlerObserver.NONE, (name, declared) -> declared.orElse(QueueSettings.DEFAULTS));
		List<String> calls = new CopyOnWriteArrayList<>();
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Consumer<V1ConfigMap> handler = (configMap) -> {
			calls.add(configMap.getMetadata().getName().substring(this.run.length() + 1));
			if (calls.size() == 1) {
				held.countDown();
				awaitUninterruptibly(release);
			}
		};
		Controller<?> controller = this.registrar.register(HandlerEndpoint.builder("ordered", V1ConfigMap.class)
			.onAdd(handler)
			.onUpdate((oldObject, newObject) -> handler.accept(newObject))
			.labelSelector("run=" + this.run)
			.queue(settings)
			.build());
		this.informers.start();
		this.informers.awaitSync(Duration.ofSeconds(30));
		this.registrar.startWorkers();
		assertThat(held.await(30, TimeUnit.SECONDS)).as("first call").isTrue();
		if (changeBacklog) {
			for (int i = 0; i < BACKLOG; i++) {
				String name = "backlog-" + i;
				if (!calls.contains(name)) {
					change(name);
				}
			}
		}
		create("new", "b");
		// the held call's key is processing; every other backlog key and the new one wait
		await().atMost(Duration.ofSeconds(30)).until(() -> controller.queue().length() == BACKLOG);
		release.countDown();
		// a changed key not called yet is called once, with its latest state
		await().atMost(Duration.ofSeconds(60)).until(() -> calls.size() >= BACKLOG + 1);
		return List.copyOf(calls);
	}

	private V1ConfigMap create(String name, String tenant) throws Exception {
		return this.api
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(this.run + "-" + name)
						.putLabelsItem("example.com/tenant", tenant)
						.putLabelsItem("run", this.run)).putDataItem("v", "1"))
			.execute();
	}

	/**
	 * Creates a Secret whose controller is the given ConfigMap.
	 */
	private void createOwned(String name, V1ConfigMap owner) throws Exception {
		this.api.createNamespacedSecret(this.namespace.name(),
				new V1Secret().metadata(new V1ObjectMeta().name(this.run + "-" + name)
					.addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1")
						.kind("ConfigMap")
						.name(owner.getMetadata().getName())
						.uid(owner.getMetadata().getUid())
						.controller(true))))
			.execute();
	}

	private void change(String name) throws Exception {
		String object = this.run + "-" + name;
		V1ConfigMap configMap = this.api.readNamespacedConfigMap(object, this.namespace.name()).execute();
		this.api.replaceNamespacedConfigMap(object, this.namespace.name(), configMap.putDataItem("v", "2")).execute();
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		try {
			latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
