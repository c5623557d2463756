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

package io.github.kubeop.informer;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ProcessorListener}'s hand-off between the informer and the listener's
 * thread.
 *
 * @author Kubeop authors
 */
class ProcessorListenerTests {

	private static final Duration BOUND = Duration.ofSeconds(30);

	@Test
	void aNotificationAddedWhileTheListenerGoesToParkIsDelivered() throws Exception {
		// one notification at a time, the next added a little after the last was
		// handled, a different little each time: the listener's thread is then on its
		// way to park, where an add that it does not see and that does not wake it
		// would be left behind for good
		AtomicInteger handled = new AtomicInteger();
		ProcessorListener<V1ConfigMap> listener = new ProcessorListener<>(
				new Recording((name) -> handled.incrementAndGet()), "test-listener");
		listener.start();
		try {
			V1ConfigMap object = configMap("a");
			Random random = new Random(30);
			for (int i = 1; i <= 20_000; i++) {
				for (int spin = random.nextInt(64); spin > 0; spin--) {
					Thread.onSpinWait();
				}
				listener.add((handler) -> handler.onAdd(object));
				long deadline = System.nanoTime() + BOUND.toNanos();
				while (handled.get() < i) {
					assertThat(System.nanoTime()).as("notification %d delivered", i).isLessThan(deadline);
					Thread.onSpinWait();
				}
			}
		}
		finally {
			listener.stop();
		}
	}

	@Test
	void aListenerStoppedAndStartedAgainDeliversOnItsNewThreadOnly() throws Exception {
		CountDownLatch firstCallEntered = new CountDownLatch(1);
		CountDownLatch releaseFirstCall = new CountDownLatch(1);
		List<String> calls = new CopyOnWriteArrayList<>();
		AtomicReference<Thread> firstThread = new AtomicReference<>();
		ProcessorListener<V1ConfigMap> listener = new ProcessorListener<>(new Recording((name) -> {
			calls.add(name + "@" + Thread.currentThread().getId());
			if (name.equals("a")) {
				firstThread.set(Thread.currentThread());
				firstCallEntered.countDown();
				try {
					releaseFirstCall.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}), "test-listener");
		listener.start();
		try {
			listener.add((handler) -> handler.onAdd(configMap("a")));
			assertThat(firstCallEntered.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
			listener.add((handler) -> handler.onAdd(configMap("dropped")));
			listener.stop();
			listener.start();
			listener.add((handler) -> handler.onAdd(configMap("b")));
			await().atMost(BOUND).until(() -> calls.size() == 2);
			releaseFirstCall.countDown();
			// the replaced thread ends once its running call returns, and delivers
			// nothing more
			firstThread.get().join(BOUND.toMillis());
			assertThat(firstThread.get().isAlive()).as("the replaced thread ended").isFalse();
			listener.add((handler) -> handler.onAdd(configMap("c")));
			await().atMost(BOUND).until(() -> calls.size() == 3);
			long first = firstThread.get().getId();
			assertThat(calls).hasSize(3);
			assertThat(calls.get(0)).isEqualTo("a@" + first);
			assertThat(calls.get(1)).startsWith("b@").isNotEqualTo("b@" + first);
			assertThat(calls.get(2)).startsWith("c@").isNotEqualTo("c@" + first);
		}
		finally {
			releaseFirstCall.countDown();
			listener.stop();
		}
	}

	private static V1ConfigMap configMap(String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace("default"));
	}

	/**
	 * A handler that records the names of the objects it is told of.
	 */
	private static final class Recording implements ResourceEventHandler<V1ConfigMap> {

		private final java.util.function.Consumer<String> calls;

		Recording(java.util.function.Consumer<String> calls) {
			this.calls = calls;
		}

		@Override
		public void onAdd(V1ConfigMap object) {
			this.calls.accept(object.getMetadata().getName());
		}

		@Override
		public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
			this.calls.accept(newObject.getMetadata().getName());
		}

		@Override
		public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
			this.calls.accept(object.getMetadata().getName());
		}

	}

}
