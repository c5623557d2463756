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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.github.kubeop.health.HandlersHealthIndicator;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker lifecycle of a {@link Controller} against a real API server, driven step by
 * step: workers of an earlier start never take another key, and a worker survives
 * whatever is thrown while it handles a key.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ControllerWorkersTests {

	private InformerRegistry informers;

	private HandlerRegistrar registrar;

	private CoreV1Api api;

	private TestNamespace namespace;

	private HandlerRegistrar registrar(ApiClient client, TestNamespace namespace) {
		this.api = new CoreV1Api(client);
		this.namespace = namespace;
		this.informers = new InformerRegistry(client);
		this.registrar = new HandlerRegistrar(this.informers, List.of(namespace.name()), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> 1, HandlerObserver.NONE);
		return this.registrar;
	}

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
	void workerAbandonedByAStopNeverTakesAnotherKeyAfterARestart(ApiClient client, TestNamespace namespace)
			throws Exception {
		CountDownLatch releaseFirst = new CountDownLatch(1);
		CountDownLatch releaseSecond = new CountDownLatch(1);
		AtomicReference<Thread> abandoned = new AtomicReference<>();
		Map<String, Thread> started = new ConcurrentHashMap<>();
		Set<String> handled = ConcurrentHashMap.newKeySet();
		List<String> takenByAbandoned = new CopyOnWriteArrayList<>();
		Consumer<V1ConfigMap> handler = (configMap) -> {
			String name = configMap.getMetadata().getName();
			started.putIfAbsent(name, Thread.currentThread());
			if (Thread.currentThread() == abandoned.get()) {
				takenByAbandoned.add(name);
			}
			if (name.equals("first") && abandoned.compareAndSet(null, Thread.currentThread())) {
				awaitUninterruptibly(releaseFirst);
			}
			else if (name.equals("second")) {
				awaitUninterruptibly(releaseSecond);
			}
			handled.add(name);
		};
		HandlerRegistrar registrar = registrar(client, namespace);
		registrar.register(HandlerEndpoint.builder("abandoned", V1ConfigMap.class).onAdd(handler).build());
		this.informers.start();
		this.informers.awaitSync(Duration.ofSeconds(30));
		registrar.startWorkers();
		create("first");
		await().atMost(Duration.ofSeconds(10)).until(() -> abandoned.get() != null);
		// the call ignores interrupts: the stop gives up on it and leaves its worker
		// behind
		assertThat(registrar.stopWorkers(Duration.ofMillis(200))).isFalse();
		registrar.startWorkers();
		create("second");
		await().atMost(Duration.ofSeconds(10)).until(() -> started.containsKey("second"));
		releaseFirst.countDown();
		create("third");
		// the abandoned worker either ends, or (wrongly) takes "third" while the only
		// worker of the new start is busy with "second"
		await().atMost(Duration.ofSeconds(10)).until(() -> !abandoned.get().isAlive() || started.containsKey("third"));
		releaseSecond.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("third"));
		assertThat(takenByAbandoned).as("keys taken by the worker abandoned by the stop, after its call").isEmpty();
		assertThat(started.get("third")).as("thread that handled third").isNotSameAs(abandoned.get());
		await().atMost(Duration.ofSeconds(10)).until(() -> !abandoned.get().isAlive());
	}

	@Test
	void workerSurvivesAnErrorThrownByItsHandler(ApiClient client, TestNamespace namespace) throws Exception {
		Set<String> handled = ConcurrentHashMap.newKeySet();
		AtomicInteger poisonCalls = new AtomicInteger();
		Consumer<V1ConfigMap> handler = (configMap) -> {
			String name = configMap.getMetadata().getName();
			if (name.equals("poison") && poisonCalls.incrementAndGet() == 1) {
				throw new AssertionError("an Error, not an Exception");
			}
			handled.add(name);
		};
		HandlerRegistrar registrar = registrar(client, namespace);
		Controller<?> controller = registrar
			.register(HandlerEndpoint.builder("survivor", V1ConfigMap.class).onAdd(handler).build());
		this.informers.start();
		this.informers.awaitSync(Duration.ofSeconds(30));
		registrar.startWorkers();
		create("poison");
		await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> poisonCalls.get() >= 1);
		create("sentinel");
		// not failed by the Error itself reaching a thread's end: the sentinel tells
		await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("sentinel"));
		// the key whose call threw is retried with back-off, as any failure is
		await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("poison"));
		assertThat(controller.liveWorkers()).isEqualTo(1);
		assertThat(controller.workerFailures()).isEqualTo(1);
		Health health = new HandlersHealthIndicator(registrar).health(true);
		assertThat(health.getStatus()).as("health of a handler that lost no worker").isEqualTo(Status.UP);
		assertThat(health.getDetails()).extractingByKey("handlers")
			.isEqualTo(Map.of("survivor",
					Map.of("workersStarted", true, "liveWorkers", 1, "configuredWorkers", 1, "workerFailures", 1L)));
	}

	private void create(String name) throws Exception {
		this.api
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("k", "v")))
			.execute();
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
