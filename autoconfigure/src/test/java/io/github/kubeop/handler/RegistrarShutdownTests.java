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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A graceful stop of the handlers waits for running calls without holding the registrar's
 * lock: sharding's narrow, drain check, widen and interrupt, and leader election's
 * interrupt, go on while it waits.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class RegistrarShutdownTests {

	private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * Well under the shutdown timeout: what must not wait for the shutdown is given this.
	 */
	private static final Duration PROMPTLY = Duration.ofSeconds(10);

	private final CountDownLatch release = new CountDownLatch(1);

	private InformerRegistry informers;

	private HandlerRegistrar registrar;

	@AfterEach
	void stop() {
		this.release.countDown();
		if (this.registrar != null) {
			this.registrar.shutdown(Duration.ofSeconds(1));
		}
		if (this.informers != null) {
			this.informers.stop();
		}
	}

	@Test
	void keysNarrowWidenAndDrainWhileAShutdownWaitsForACall(ApiClient client, TestNamespace namespace)
			throws Exception {
		CountDownLatch called = new CountDownLatch(1);
		Controller<?> controller = start(client, namespace, (configMap) -> {
			if (configMap.getMetadata().getName().equals("slow-narrowed")) {
				called.countDown();
				awaitUninterruptibly(this.release);
			}
		});
		create(client, namespace, "slow-narrowed");
		assertThat(called.await(30, TimeUnit.SECONDS)).as("the slow call started").isTrue();
		CompletableFuture<Boolean> shutdown = CompletableFuture
			.supplyAsync(() -> this.registrar.shutdown(SHUTDOWN_TIMEOUT));
		await().atMost(PROMPTLY).until(() -> !controller.workersStarted());
		// what a shard member does on a ring change, while the shutdown waits
		Predicate<String> others = (key) -> !key.endsWith("/slow-narrowed");
		CompletableFuture<Boolean> moves = CompletableFuture.supplyAsync(() -> {
			this.registrar.narrowKeys(others);
			boolean drained = this.registrar.drained(others);
			this.registrar.widenKeys((key) -> true);
			return drained;
		});
		assertThat(moves.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("drained while the slow call runs").isFalse();
		assertThat(shutdown).as("shutdown while the slow call runs").isNotDone();
		this.release.countDown();
		assertThat(shutdown.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("stopped in time").isTrue();
	}

	@Test
	void lostLeadershipInterruptsACallAGracefulStopWaitsFor(ApiClient client, TestNamespace namespace)
			throws Exception {
		CountDownLatch called = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		Controller<?> controller = start(client, namespace, (configMap) -> {
			if (!configMap.getMetadata().getName().equals("slow-interrupted")) {
				return;
			}
			called.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				Thread.currentThread().interrupt();
			}
		});
		create(client, namespace, "slow-interrupted");
		assertThat(called.await(30, TimeUnit.SECONDS)).as("the slow call started").isTrue();
		CompletableFuture<Boolean> graceful = CompletableFuture
			.supplyAsync(() -> this.registrar.stopWorkers(SHUTDOWN_TIMEOUT));
		await().atMost(PROMPTLY).until(() -> !controller.workersStarted());
		// leadership lost while the graceful stop waits: the call is interrupted now
		CompletableFuture<Boolean> interrupt = CompletableFuture
			.supplyAsync(() -> this.registrar.interruptWorkers(PROMPTLY));
		assertThat(interrupt.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("stopped by the interrupt").isTrue();
		assertThat(interrupted).as("the call saw the interrupt").isTrue();
		assertThat(graceful.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).as("the graceful stop ended too").isTrue();
	}

	@Test
	void aStartNoLongerWantedStartsNoFurtherHandler(ApiClient client, TestNamespace namespace) {
		this.informers = new InformerRegistry(client);
		this.registrar = new HandlerRegistrar(this.informers, List.of(namespace.name()), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> 1, HandlerObserver.NONE);
		Controller<?> first = this.registrar
			.register(HandlerEndpoint.builder("first", V1ConfigMap.class).onAdd((configMap) -> {
			}).build());
		Controller<?> second = this.registrar
			.register(HandlerEndpoint.builder("second", V1ConfigMap.class).onAdd((configMap) -> {
			}).build());
		this.informers.start();
		this.informers.awaitSync(Duration.ofSeconds(30));
		// leadership lost as soon as the first handler has started
		this.registrar.startWorkers(() -> !first.workersStarted());
		assertThat(first.workersStarted()).as("first handler started").isTrue();
		assertThat(second.workersStarted()).as("second handler started after the loss").isFalse();
		assertThat(this.registrar.interruptWorkers(PROMPTLY)).isTrue();
		assertThat(first.workersStarted()).as("first handler after the loss's stop").isFalse();
	}

	private Controller<?> start(ApiClient client, TestNamespace namespace, Consumer<V1ConfigMap> handler) {
		this.informers = new InformerRegistry(client);
		this.registrar = new HandlerRegistrar(this.informers, List.of(namespace.name()), Duration.ZERO,
				(name) -> new DefaultRateLimitingQueue<>(name, RateLimiters.defaultControllerRateLimiter()),
				(name) -> 1, HandlerObserver.NONE);
		Controller<?> controller = this.registrar
			.register(HandlerEndpoint.builder("slow", V1ConfigMap.class).onAdd(handler).build());
		this.informers.start();
		this.informers.awaitSync(Duration.ofSeconds(30));
		this.registrar.startWorkers();
		return controller;
	}

	private static void create(ApiClient client, TestNamespace namespace, String name) throws Exception {
		new CoreV1Api(client)
			.createNamespacedConfigMap(namespace.name(),
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
