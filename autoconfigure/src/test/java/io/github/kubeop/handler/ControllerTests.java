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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.informer.InformerEvents;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.Priority;
import io.github.kubeop.queue.RateLimiters;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for what a {@link Controller} calls for the events of a relist, which a test
 * cannot provoke at will on a real API server: a {@link ResourceInformer} is fed the
 * lists and watch events directly.
 *
 * @author Kubeop authors
 */
class ControllerTests {

	private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	private final ResourceInformer<V1ConfigMap> informer = InformerEvents.informer(
			InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("a"),
			new ResourceKind("", "v1", "ConfigMap", "configmaps", true));

	private final List<String> calls = new CopyOnWriteArrayList<>();

	private volatile HandlerMethod.Invoker<V1ConfigMap> onAdd = (oldObject, object,
			context) -> record("add " + describe(object));

	private volatile HandlerMethod.Invoker<V1ConfigMap> onDelete = (oldObject, object, context) -> record(
			"delete " + describe(object) + (context.finalStateUnknown() ? " (final state unknown)" : ""));

	private final HoldingQueue queue = new HoldingQueue();

	private Controller<V1ConfigMap> controller;

	@BeforeEach
	void startController() {
		HandlerEndpoint endpoint = HandlerEndpoint.builder("recorder", V1ConfigMap.class)
			.on(HandlerMethod.Kind.ADD, false,
					(oldObject, object, context) -> this.onAdd.invoke(oldObject, object, context))
			.on(HandlerMethod.Kind.UPDATE, false,
					(oldObject, object, context) -> record("update " + describe(oldObject) + " -> " + describe(object)))
			.on(HandlerMethod.Kind.DELETE, false,
					(oldObject, object, context) -> this.onDelete.invoke(oldObject, object, context))
			.build();
		this.controller = new Controller<>(endpoint, this.informer, this.queue, 1, HandlerObserver.NONE);
		this.controller.startWorkers();
	}

	@AfterEach
	void stopController() {
		this.controller.queue().shutDown();
		this.controller.stopWorkers(Duration.ofSeconds(5));
	}

	@Test
	void deleteInferredOnARelistSaysItsFinalStateIsUnknown() {
		InformerEvents.relisted(this.informer, "a", List.of(configMap("one", "uid-1", "1")));
		awaitCall("add one@1 uid-1");
		InformerEvents.relisted(this.informer, "a", List.of());
		awaitCall("delete one@1 uid-1 (final state unknown)");
		InformerEvents.watched(this.informer, configMap("two", "uid-2", "2"));
		awaitCall("add two@2 uid-2");
		InformerEvents.watchedDelete(this.informer, configMap("two", "uid-2", "3"));
		awaitCall("delete two@3 uid-2");
		assertThat(this.calls).containsExactly("add one@1 uid-1", "delete one@1 uid-1 (final state unknown)",
				"add two@2 uid-2", "delete two@3 uid-2");
	}

	@Test
	void keyNarrowedAwayIsNotHandledNorDeletedAndComesBackAsAnAdd() {
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add one@1 uid-1");
		// the key moved to another replica: its changes and its leaving are not this
		// replica's business
		this.controller.narrowKeys((key) -> !key.equals("a/one"));
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "2"));
		InformerEvents.watched(this.informer, configMap("two", "uid-2", "3"));
		awaitCall("add two@3 uid-2");
		assertThat(this.calls).containsExactly("add one@1 uid-1", "add two@3 uid-2");
		// and back: nothing is remembered of it, so its cached state is an add
		this.controller.widenKeys((key) -> true);
		awaitCall("add one@2 uid-1");
		assertThat(this.calls).containsExactly("add one@1 uid-1", "add two@3 uid-2", "add one@2 uid-1");
	}

	@Test
	void writeStillUnseenWhenTheDeleteArrivesIsForgottenWithTheKey() {
		this.onAdd = (oldObject, object, context) -> wroteUnseen(object);
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add one@1 uid-1");
		// the delivered state, the write, and the call's writes as its own: the
		// bookkeeping follows the call
		await().atMost(Duration.ofSeconds(10)).until(() -> this.controller.retainedKeys() == 3);
		InformerEvents.watchedDelete(this.informer, configMap("one", "uid-1", "2"));
		awaitCall("delete one@2 uid-1");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.controller.retainedKeys()).as("per-key entries held").isZero());
	}

	@Test
	void writeOfADeleteThatFailsTerminallyIsForgottenWithTheKey() {
		this.onDelete = (oldObject, object, context) -> {
			wroteUnseen(object);
			throw new TerminalException("the delete fails for good");
		};
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add one@1 uid-1");
		awaitDone("a/one");
		this.queue.done.remove("a/one");
		InformerEvents.watchedDelete(this.informer, configMap("one", "uid-1", "2"));
		awaitCall("add one@2 uid-1");
		// the key's turn, with its bookkeeping, is over once the queue is told it is done
		awaitDone("a/one");
		assertThat(this.controller.retainedKeys()).as("per-key entries held").isZero();
	}

	@Test
	void writeOfACallThatOutlivesAStopIsNotKeptAfterTheReset() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		this.onAdd = (oldObject, object, context) -> {
			record("started " + describe(object));
			// a graceful stop lets the call go on: it ends after the stop gave up on it
			while (!release.await(10, TimeUnit.SECONDS)) {
				// wait on
			}
			return wroteUnseen(object);
		};
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("started one@1 uid-1");
		assertThat(this.controller.stopWorkers(Duration.ofMillis(100))).as("stopped with the call running").isFalse();
		assertThat(this.controller.retainedKeys()).as("per-key entries held after the reset").isZero();
		release.countDown();
		awaitCall("add one@1 uid-1");
		awaitDone("a/one");
		assertThat(this.controller.retainedKeys()).as("per-key entries held after the call ended").isZero();
	}

	@Test
	void writeStillUnseenOfAKeyNarrowedAwayIsForgotten() {
		this.onAdd = (oldObject, object, context) -> wroteUnseen(object);
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add one@1 uid-1");
		// the delivered state, the write, and the call's writes as its own
		await().atMost(Duration.ofSeconds(10)).until(() -> this.controller.retainedKeys() == 3);
		this.controller.narrowKeys((key) -> !key.equals("a/one"));
		assertThat(this.controller.retainedKeys()).as("per-key entries held").isZero();
	}

	@Test
	void addOfTheInitialListThatArrivesAfterTheWorkersStartedContinuesNoTrace() {
		ResourceInformer<V1ConfigMap> informer = InformerEvents.informer(
				InformerSpec.of("traced", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("a"),
				new ResourceKind("", "v1", "ConfigMap", "configmaps", true));
		Map<String, String> continued = new ConcurrentHashMap<>();
		HandlerTracing tracing = (handler, key, resource, trigger, attempt, traceContext) -> {
			continued.put(key, (traceContext != null) ? traceContext : "none");
			return HandlerTracing.Traced.NONE;
		};
		HandlerEndpoint endpoint = HandlerEndpoint.builder("traced", V1ConfigMap.class)
			.on(HandlerMethod.Kind.ADD, false, (oldObject, object, context) -> null)
			.build();
		Controller<V1ConfigMap> controller = new Controller<>(endpoint, informer,
				new DefaultRateLimitingQueue<>("traced", RateLimiters.defaultControllerRateLimiter()), 1,
				HandlerObserver.NONE, null, true, CallTimeout.NONE, null, tracing);
		// the workers start before the informer's first list reaches the handler, as
		// when the listener's thread is behind: the warm-up found the cache empty
		controller.startWorkers();
		try {
			InformerEvents.listedFirst(informer, "a", List.of(traced(configMap("listed", "uid-1", "1"))));
			InformerEvents.watched(informer, traced(configMap("created", "uid-2", "2")));
			await().atMost(Duration.ofSeconds(10)).until(() -> continued.size() == 2);
			// the list says the object exists, not who wrote it last: only the watch's
			// add is the writer's change
			assertThat(continued).containsExactlyInAnyOrderEntriesOf(Map.of("a/listed", "none", "a/created", TRACE));
		}
		finally {
			controller.queue().shutDown();
			controller.stopWorkers(Duration.ofSeconds(5));
		}
	}

	@Test
	void addAndChangeFoundByARelistContinueNoTraceAtNormalPriority() {
		ResourceInformer<V1ConfigMap> informer = InformerEvents.informer(
				InformerSpec.of("traced", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("a"),
				new ResourceKind("", "v1", "ConfigMap", "configmaps", true));
		List<String> continued = new CopyOnWriteArrayList<>();
		HandlerTracing tracing = (handler, key, resource, trigger, attempt, traceContext) -> {
			continued.add(key + " " + trigger + " continues " + ((traceContext != null) ? traceContext : "none"));
			return HandlerTracing.Traced.NONE;
		};
		List<String> queued = new CopyOnWriteArrayList<>();
		DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>("traced",
				RateLimiters.defaultControllerRateLimiter()) {

			@Override
			public void add(String key, int priority) {
				queued.add(key + " at " + priority);
				super.add(key, priority);
			}

		};
		HandlerEndpoint endpoint = HandlerEndpoint.builder("traced", V1ConfigMap.class)
			.on(HandlerMethod.Kind.ADD, false, (oldObject, object, context) -> null)
			.on(HandlerMethod.Kind.UPDATE, false, (oldObject, object, context) -> null)
			.build();
		Controller<V1ConfigMap> controller = new Controller<>(endpoint, informer, queue, 1, HandlerObserver.NONE, null,
				true, CallTimeout.NONE, null, tracing);
		controller.startWorkers();
		try {
			InformerEvents.listedFirst(informer, "a",
					List.of(configMap("relist-changed", "uid-1", "1"), configMap("watch-changed", "uid-2", "2")));
			await().atMost(Duration.ofSeconds(10)).until(() -> continued.size() == 2);
			// the watch broke; the relist finds a change and a new object, both written
			// with a trace context while no watch told of them
			InformerEvents.relisted(informer, "a", List.of(changed(traced(configMap("relist-changed", "uid-1", "3"))),
					configMap("watch-changed", "uid-2", "2"), traced(configMap("relist-added", "uid-3", "4"))));
			// the watch again: its change and add are the writer's
			InformerEvents.watched(informer, changed(traced(configMap("watch-changed", "uid-2", "5"))));
			InformerEvents.watched(informer, traced(configMap("watch-added", "uid-4", "6")));
			await().atMost(Duration.ofSeconds(10)).until(() -> continued.size() == 6);
			// a relist found the changes, not who wrote them, nor after how many writes
			assertThat(continued).containsExactlyInAnyOrder("a/relist-changed ADDED continues none",
					"a/watch-changed ADDED continues none", "a/relist-changed CHANGED continues none",
					"a/relist-added ADDED continues none", "a/watch-changed CHANGED continues " + TRACE,
					"a/watch-added ADDED continues " + TRACE);
			// still changes: no lower priority than a watch's
			assertThat(queued).containsSubsequence("a/relist-changed at " + Priority.NORMAL,
					"a/relist-added at " + Priority.NORMAL);
		}
		finally {
			controller.queue().shutDown();
			controller.stopWorkers(Duration.ofSeconds(5));
		}
	}

	@Test
	void retriesContinueTheTraceContextOfTheFirstFailedAttemptOnlyUntilTheKeySettles() {
		ResourceInformer<V1ConfigMap> informer = InformerEvents.informer(
				InformerSpec.of("retried", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces("a"),
				new ResourceKind("", "v1", "ConfigMap", "configmaps", true));
		List<String> continued = new CopyOnWriteArrayList<>();
		AtomicInteger spans = new AtomicInteger();
		// each call's span has a trace context of its own, told when asked
		HandlerTracing tracing = (handler, key, resource, trigger, attempt, traceContext) -> {
			String span = "span-" + spans.incrementAndGet();
			continued.add(key + " " + span + " continues " + traceContext);
			return new HandlerTracing.Traced() {

				@Override
				public void end(HandlerObserver.Outcome outcome, Throwable error) {
				}

				@Override
				public String traceContext() {
					return span;
				}

			};
		};
		// "one" fails twice, "two" until it is deleted
		AtomicInteger failuresOfOne = new AtomicInteger(2);
		HandlerMethod.Invoker<V1ConfigMap> failing = (oldObject, object, context) -> {
			String name = object.getMetadata().getName();
			if (name.equals("two") || (name.equals("one") && failuresOfOne.getAndDecrement() > 0)) {
				throw new IllegalStateException("attempt fails");
			}
			return null;
		};
		HandlerEndpoint endpoint = HandlerEndpoint.builder("retried", V1ConfigMap.class)
			.on(HandlerMethod.Kind.ADD, false, failing)
			.on(HandlerMethod.Kind.UPDATE, false, failing)
			.build();
		Controller<V1ConfigMap> controller = new Controller<>(endpoint, informer,
				new DefaultRateLimitingQueue<>("retried", RateLimiters.defaultControllerRateLimiter()), 1,
				HandlerObserver.NONE, null, true, CallTimeout.NONE, null, tracing);
		controller.startWorkers();
		try {
			InformerEvents.watched(informer, configMap("one", "uid-1", "1"));
			await().atMost(Duration.ofSeconds(10)).until(() -> continued.size() == 3);
			// settled by the third attempt: the key's next change is no retry
			InformerEvents.watched(informer, configMap("one", "uid-1", "2"));
			await().atMost(Duration.ofSeconds(10)).until(() -> continued.size() == 4);
			assertThat(continued).containsExactly("a/one span-1 continues null", "a/one span-2 continues span-1",
					"a/one span-3 continues span-1", "a/one span-4 continues null");
			// a key that fails until its object is deleted, and one deleted after it
			// succeeded: nothing of either stays
			InformerEvents.watched(informer, configMap("two", "uid-2", "3"));
			await().atMost(Duration.ofSeconds(10)).until(() -> continued.contains("a/two span-6 continues span-5"));
			InformerEvents.watchedDelete(informer, configMap("two", "uid-2", "4"));
			InformerEvents.watchedDelete(informer, configMap("one", "uid-1", "5"));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(controller.retainedKeys()).as("per-key entries held").isZero());
		}
		finally {
			controller.queue().shutDown();
			controller.stopWorkers(Duration.ofSeconds(5));
		}
	}

	@Test
	void objectReplacedUnderItsNameWithinOneRelistIsADeleteAndAnAdd() {
		InformerEvents.relisted(this.informer, "a", List.of(configMap("one", "uid-1", "1")));
		awaitCall("add one@1 uid-1");
		// deleted and created again while the watch was down: the relist sees one update
		InformerEvents.relisted(this.informer, "a", List.of(configMap("one", "uid-2", "5")));
		awaitCall("add one@5 uid-2");
		assertThat(this.calls).containsExactly("add one@1 uid-1", "delete one@1 uid-1 (final state unknown)",
				"add one@5 uid-2");
	}

	@Test
	void workerThatFindsTheObjectGoneBeforeItsDeleteArrivesWaitsForTheFinalState() throws Exception {
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add one@1 uid-1");
		// the handler's informer callback is held in the queue: the cache moves on, the
		// delete it tells of is still on its way
		this.queue.holdAddOf("a/gate");
		InformerEvents.watched(this.informer, configMap("gate", "uid-gate", "2"));
		assertThat(this.queue.held.await(10, TimeUnit.SECONDS)).isTrue();
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "3"));
		InformerEvents.watchedDelete(this.informer, configMap("one", "uid-1", "4"));
		// queued by an earlier event, the key reaches the worker now
		this.queue.addAndAwaitDone("a/one");
		this.queue.release.countDown();
		awaitCall("delete one@4 uid-1");
		awaitCall("add gate@2 uid-gate");
		assertThat(this.calls).filteredOn((call) -> call.contains("one@"))
			.containsExactly("add one@1 uid-1", "delete one@4 uid-1");
	}

	@Test
	void deleteOfAnObjectThatLeftTheFilterWhileItsAddRanIsDelivered() throws Exception {
		CountDownLatch addRunning = new CountDownLatch(1);
		CountDownLatch releaseAdd = new CountDownLatch(1);
		List<String> filtered = new CopyOnWriteArrayList<>();
		HandlerEndpoint endpoint = HandlerEndpoint.builder("filtered", V1ConfigMap.class)
			.labelSelector("tier=web")
			.on(HandlerMethod.Kind.ADD, false, (oldObject, object, context) -> {
				filtered.add("add " + describe(object));
				if (object.getMetadata().getName().equals("one")) {
					addRunning.countDown();
					releaseAdd.await();
				}
				return null;
			})
			.on(HandlerMethod.Kind.DELETE, false, (oldObject, object, context) -> {
				filtered.add("delete " + describe(object));
				return null;
			})
			.build();
		HoldingQueue queue = new HoldingQueue();
		Controller<V1ConfigMap> controller = new Controller<>(endpoint, this.informer, queue, 1, HandlerObserver.NONE);
		controller.startWorkers();
		try {
			InformerEvents.watched(this.informer, web(configMap("one", "uid-1", "1")));
			assertThat(addRunning.await(10, TimeUnit.SECONDS)).isTrue();
			// while its add runs, the object leaves the filter and is deleted: the final
			// state no longer matches, and nothing was delivered yet
			InformerEvents.watched(this.informer, configMap("one", "uid-1", "2"));
			InformerEvents.watchedDelete(this.informer, configMap("one", "uid-1", "3"));
			InformerEvents.watched(this.informer, web(configMap("sentinel", "uid-s", "4")));
			// the callback queues the sentinel after it has seen the delete
			await().atMost(Duration.ofSeconds(10)).until(() -> queue.added.contains("a/sentinel"));
			releaseAdd.countDown();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(filtered).contains("add sentinel@4 uid-s", "delete one@3 uid-1"));
			assertThat(filtered).filteredOn((call) -> call.contains("one@"))
				.containsExactly("add one@1 uid-1", "delete one@3 uid-1");
		}
		finally {
			controller.queue().shutDown();
			controller.stopWorkers(Duration.ofSeconds(5));
		}
	}

	@Test
	void finalStateOfTheDeliveredObjectOutlivesASameNamedObjectDeletedBeforeTheWorkerRuns() throws Exception {
		CountDownLatch busy = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.onAdd = (oldObject, object, context) -> {
			record("add " + describe(object));
			if (object.getMetadata().getName().equals("busy")) {
				busy.countDown();
				release.await();
			}
			return null;
		};
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add one@1 uid-1");
		// the one worker is held while the delivered object is deleted, and another of
		// the same name is created and deleted
		InformerEvents.watched(this.informer, configMap("busy", "uid-busy", "2"));
		assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
		InformerEvents.watchedDelete(this.informer, configMap("one", "uid-1", "3"));
		InformerEvents.watched(this.informer, configMap("one", "uid-2", "4"));
		InformerEvents.watchedDelete(this.informer, configMap("one", "uid-2", "5"));
		InformerEvents.watched(this.informer, configMap("sentinel", "uid-s", "6"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.queue.added.contains("a/sentinel"));
		release.countDown();
		// queued before the sentinel, the key of "one" is handled first
		awaitCall("add sentinel@6 uid-s");
		assertThat(this.calls).filteredOn((call) -> call.contains("one@"))
			.containsExactly("add one@1 uid-1", "delete one@3 uid-1");
	}

	@Test
	void failedCallAfterARequeueWithoutDelayIsRetried() {
		this.onAdd = (oldObject, object, context) -> {
			String call = "add " + context.trigger() + " attempt " + context.attempt();
			if (context.trigger() == Trigger.ADDED) {
				record(call);
				return Duration.ZERO;
			}
			if (context.attempt() == 2) {
				record(call + " failed");
				throw new IllegalStateException("the requeued call fails once");
			}
			return record(call);
		};
		InformerEvents.watched(this.informer, configMap("one", "uid-1", "1"));
		awaitCall("add REQUEUE attempt 3");
		assertThat(this.calls).containsExactly("add ADDED attempt 1", "add REQUEUE attempt 2 failed",
				"add REQUEUE attempt 3");
	}

	/**
	 * A real queue that can hold the informer callback's add of one key, as a busy
	 * callback thread would, and tell when a worker is done with a key.
	 */
	private static final class HoldingQueue extends DefaultRateLimitingQueue<String> {

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		private final Set<String> done = ConcurrentHashMap.newKeySet();

		private final Set<String> added = ConcurrentHashMap.newKeySet();

		private volatile String holding;

		HoldingQueue() {
			super("recorder", RateLimiters.defaultControllerRateLimiter());
		}

		void holdAddOf(String key) {
			this.holding = key;
		}

		void addAndAwaitDone(String key) {
			this.done.remove(key);
			super.add(key, Priority.NORMAL);
			await().atMost(Duration.ofSeconds(10)).until(() -> this.done.contains(key));
		}

		@Override
		public void add(String key, int priority) {
			if (key.equals(this.holding)) {
				this.holding = null;
				this.held.countDown();
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			this.added.add(key);
			super.add(key, priority);
		}

		@Override
		public void done(String key) {
			super.done(key);
			this.done.add(key);
		}

	}

	private Duration record(String call) {
		this.calls.add(call);
		return null;
	}

	/**
	 * Records the call and a write of its object that the informer never shows: the key's
	 * next call would wait for it.
	 */
	private Duration wroteUnseen(V1ConfigMap object) {
		HandlerCall.current()
			.wrote(this.informer, configMap(object.getMetadata().getName(), object.getMetadata().getUid(), "99"));
		return record("add " + describe(object));
	}

	private void awaitDone(String key) {
		await().atMost(Duration.ofSeconds(10)).until(() -> this.queue.done.contains(key));
	}

	private void awaitCall(String call) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(this.calls).contains(call));
	}

	private static V1ConfigMap configMap(String name, String uid, String resourceVersion) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("a").name(name).uid(uid).resourceVersion(resourceVersion));
	}

	private static V1ConfigMap traced(V1ConfigMap configMap) {
		configMap.getMetadata().annotations(Map.of(TraceContextAnnotation.NAME, TRACE));
		return configMap;
	}

	/** A change of the data: a trace context alone is no change to handle. */
	private static V1ConfigMap changed(V1ConfigMap configMap) {
		return configMap.data(Map.of("changed", "yes"));
	}

	private static V1ConfigMap web(V1ConfigMap configMap) {
		configMap.getMetadata().labels(Map.of("tier", "web"));
		return configMap;
	}

	private static String describe(V1ConfigMap configMap) {
		return configMap.getMetadata().getName() + "@" + configMap.getMetadata().getResourceVersion() + " "
				+ configMap.getMetadata().getUid();
	}

}
