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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.informer.InformerEvents;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.RateLimiters;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a key's next call reads the cache only after the read-after-write gate: the
 * informer may show the call's write between a read of the cache and the gate's check,
 * and the call must then not be made with the state read before. The interleaving is
 * forced by a label selector that holds the worker while it tests the stale state.
 *
 * @author Kubeop authors
 */
class ReadAfterWriteOrderTests {

	private static final String WORKER_THREAD = "kubeop-handler-";

	private final ResourceInformer<V1ConfigMap> informer = InformerEvents.informer(
			InformerSpec.of("counters", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("a"),
			new ResourceKind("", "v1", "ConfigMap", "configmaps", true));

	private final List<String> calls = new CopyOnWriteArrayList<>();

	/** Counted down by a worker that tests the stale state's labels. */
	private final CountDownLatch staleStateTested = new CountDownLatch(1);

	/** Counted down when the gate puts the key back to wait for its write. */
	private final CountDownLatch deferred = new CountDownLatch(1);

	private final CountDownLatch written = new CountDownLatch(1);

	private volatile boolean holdStaleState;

	private Controller<V1ConfigMap> controller;

	@AfterEach
	void stopController() {
		this.written.countDown();
		if (this.controller != null) {
			this.controller.queue().shutDown();
			this.controller.stopWorkers(Duration.ofSeconds(5));
		}
	}

	@Test
	void callAfterAWriteReadsTheCacheOnlyOnceTheGateHasSeenTheWrite() throws Exception {
		HandlerEndpoint endpoint = HandlerEndpoint.builder("counter", V1ConfigMap.class)
			.labelSelector("role=counter")
			.on(HandlerMethod.Kind.ADD, false, (oldObject, object, context) -> {
				this.calls.add(object.getMetadata().getResourceVersion());
				if (this.calls.size() == 1) {
					// the write the next call must read; the informer shows it later
					HandlerCall.current().wrote(this.informer, counter("2", Map.of("role", "counter")));
					this.holdStaleState = true;
					return Duration.ZERO;
				}
				return null;
			})
			.build();
		this.controller = new Controller<>(endpoint, this.informer, new SignallingQueue(), 1, HandlerObserver.NONE);
		this.controller.startWorkers();
		InformerEvents.watched(this.informer, counter("1", new HeldLabels()));
		// either the worker read the cache before the gate (and is held testing that
		// state), or the gate put the key back: in both cases the write arrives now
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.staleStateTested.getCount() == 0 || this.deferred.getCount() == 0);
		InformerEvents.watched(this.informer, counter("2", Map.of("role", "counter")));
		this.written.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.calls.size() == 2);
		assertThat(this.calls).as("resourceVersions the calls were made with").containsExactly("1", "2");
	}

	private static V1ConfigMap counter(String resourceVersion, Map<String, String> labels) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("a")
			.name("counter")
			.uid("uid-1")
			.resourceVersion(resourceVersion)
			.labels(labels));
	}

	/**
	 * The labels of the state before the write: a worker that tests them after the call
	 * wrote is held there until the write is in the cache.
	 */
	private final class HeldLabels extends HashMap<String, String> {

		HeldLabels() {
			super(Map.of("role", "counter"));
		}

		@Override
		public String get(Object key) {
			holdWorker();
			return super.get(key);
		}

		@Override
		public boolean containsKey(Object key) {
			holdWorker();
			return super.containsKey(key);
		}

		private void holdWorker() {
			if (ReadAfterWriteOrderTests.this.holdStaleState
					&& Thread.currentThread().getName().startsWith(WORKER_THREAD)) {
				ReadAfterWriteOrderTests.this.staleStateTested.countDown();
				try {
					ReadAfterWriteOrderTests.this.written.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	private final class SignallingQueue extends DefaultRateLimitingQueue<String> {

		SignallingQueue() {
			super("counter", RateLimiters.defaultControllerRateLimiter());
		}

		@Override
		public void addAfter(String key, Duration delay, int priority) {
			if (delay.equals(ReadAfterWriteGate.RECHECK)) {
				ReadAfterWriteOrderTests.this.deferred.countDown();
			}
			super.addAfter(key, delay, priority);
		}

	}

}
