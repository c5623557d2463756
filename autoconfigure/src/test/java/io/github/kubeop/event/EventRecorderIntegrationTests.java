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

package io.github.kubeop.event;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import io.github.kubeop.event.DefaultEventRecorder.Outcome;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.github.kubeop.typed.Gadget;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests of {@link DefaultEventRecorder} against a real API server: repeats become one
 * Event's series, an object's burst is cut down to its bucket, and a server that cannot
 * be reached costs Events, never the caller's time.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class EventRecorderIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(30);

	@Test
	void repeatsBecomeOneEventWhoseSeriesCountsThemAndAnotherReasonIsAnotherEvent(ApiClient client,
			TestNamespace namespace) throws ApiException {
		V1ConfigMap repeated = configMap(client, namespace, "repeated");
		try (DefaultEventRecorder recorder = recorder(client, 1000)) {
			for (int i = 0; i < 10; i++) {
				recorder.normal(repeated, "Synced", "Sync", "attempt " + i);
			}
			await().atMost(BOUND)
				.untilAsserted(() -> assertThat(events(client, namespace, "repeated"))
					.extracting(EventRecorderIntegrationTests::seriesCount)
					.containsExactly(10));
			recorder.warning(repeated, "Failed", "Sync", "something else");
			await().atMost(BOUND).until(() -> events(client, namespace, "repeated").size() == 2);
			assertThat(events(client, namespace, "repeated"))
				.extracting(EventsV1Event::getReason, EventsV1Event::getType,
						EventRecorderIntegrationTests::seriesCount)
				.containsExactlyInAnyOrder(tuple("Synced", "Normal", 10), tuple("Failed", "Warning", 1));
			assertThat(recorder.count(Outcome.CREATED)).isEqualTo(2);
			assertThat(recorder.count(Outcome.SERIES)).isEqualTo(9);
			assertThat(recorder.count(Outcome.DROPPED)).isZero();
			assertThat(recorder.count(Outcome.FAILED)).isZero();
		}
	}

	@Test
	void burstBeyondAnObjectsBucketIsCutDownToTheBucketAndCountedAsDropped(ApiClient client, TestNamespace namespace)
			throws ApiException {
		V1ConfigMap bursty = configMap(client, namespace, "bursty");
		V1ConfigMap sentinel = configMap(client, namespace, "burst-sentinel");
		try (DefaultEventRecorder recorder = recorder(client, 1000)) {
			for (int i = 1; i <= 30; i++) {
				recorder.normal(bursty, "Burst" + i, "Sync", null);
			}
			recorder.normal(sentinel, "Sentinel", "Sync", null);
			// one sender writes in order: once the sentinel is there, the burst is done
			await().atMost(BOUND).until(() -> events(client, namespace, "burst-sentinel").size() == 1);
			assertThat(events(client, namespace, "bursty")).extracting(EventsV1Event::getReason)
				.containsExactlyInAnyOrderElementsOf(
						IntStream.rangeClosed(1, 25).mapToObj((i) -> "Burst" + i).toList());
			assertThat(recorder.count(Outcome.DROPPED)).isEqualTo(5);
			assertThat(recorder.count(Outcome.CREATED)).isEqualTo(26);
		}
	}

	@Test
	void recordReturnsWhileTheServerCannotBeReachedAndEventsArriveOnceItCanAgain(ControlPlane controlPlane,
			ApiClient client, TestNamespace namespace) throws Exception {
		assumeThat(controlPlane).isInstanceOf(LocalControlPlane.class);
		V1ConfigMap stalled = configMap(client, namespace, "while-stalled");
		V1ConfigMap recovered = configMap(client, namespace, "after-recovery");
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort());
				DefaultEventRecorder recorder = new DefaultEventRecorder(controlPlane.apiClientVia(proxy.url()),
						"kubeop-tests", "kubeop-tests-stalled", 5, Duration.ofSeconds(2))) {
			proxy.stall();
			// a hang guard only: the calls return at once
			assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
				for (int i = 0; i < 50; i++) {
					recorder.warning(stalled, "Stalled" + i, "Sync", null);
				}
			});
			// nothing reaches the server: every Event is dropped at the full queue or
			// fails
			// when its request is cut off
			await().atMost(BOUND).until(() -> recorder.count(Outcome.DROPPED) + recorder.count(Outcome.FAILED) == 50);
			assertThat(recorder.count(Outcome.DROPPED)).isPositive();
			assertThat(recorder.count(Outcome.CREATED)).isZero();
			proxy.restore();
			recorder.normal(recovered, "Recovered", "Sync", null);
			await().atMost(BOUND).until(() -> events(client, namespace, "after-recovery").size() == 1);
			assertThat(events(client, namespace, "while-stalled")).isEmpty();
		}
	}

	@Test
	void regardingNamesTheObjectAlsoWhenTheModelCarriesNoKind(ApiClient client, TestNamespace namespace)
			throws ApiException {
		V1ConfigMap configMap = configMap(client, namespace, "referenced");
		V1Deployment deployment = new AppsV1Api(client)
			.createNamespacedDeployment(namespace.name(), new V1Deployment()
				.metadata(new V1ObjectMeta().name("referenced"))
				.spec(new V1DeploymentSpec().selector(new V1LabelSelector().matchLabels(Map.of("app", "referenced")))
					.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", "referenced")))
						.spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("nginx")))))))
			.execute();
		V1Namespace cluster = new CoreV1Api(client).readNamespace(namespace.name()).execute();
		// objects read from a list carry no apiVersion and kind
		configMap.apiVersion(null).kind(null);
		deployment.apiVersion(null).kind(null);
		cluster.apiVersion(null).kind(null);
		Gadget gadget = new Gadget();
		gadget.setMetadata(new V1ObjectMeta().name("referenced").namespace(namespace.name()).uid("gadget-uid"));
		gadget.setApiVersion(null);
		gadget.setKind(null);
		DynamicKubernetesObject widget = new DynamicKubernetesObject();
		widget.setApiVersion("example.com/v1");
		widget.setKind("Widget");
		widget.setMetadata(new V1ObjectMeta().name("referenced").namespace(namespace.name()).uid("widget-uid"));
		try (DefaultEventRecorder recorder = recorder(client, 1000)) {
			recorder.normal(configMap, "Referenced", "Sync", "a config map");
			recorder.normal(deployment, "Referenced", "Sync", "a deployment");
			recorder.normal(cluster, "Referenced", "Sync", "a namespace");
			recorder.normal(gadget, "Referenced", "Sync", "a typed custom resource");
			recorder.normal(widget, "Referenced", "Sync", "a dynamic object");
			await().atMost(BOUND).until(() -> events(client, namespace, "referenced").size() == 4);
			assertThat(events(client, namespace, "referenced")).extracting(EventsV1Event::getRegarding)
				.extracting(V1ObjectReference::getApiVersion, V1ObjectReference::getKind,
						V1ObjectReference::getNamespace, V1ObjectReference::getName, V1ObjectReference::getUid)
				.containsExactlyInAnyOrder(
						tuple("v1", "ConfigMap", namespace.name(), "referenced", configMap.getMetadata().getUid()),
						tuple("apps/v1", "Deployment", namespace.name(), "referenced",
								deployment.getMetadata().getUid()),
						tuple("typed.kubeop.test/v1", "Gadget", namespace.name(), "referenced", "gadget-uid"),
						tuple("example.com/v1", "Widget", namespace.name(), "referenced", "widget-uid"));
			// an Event about a cluster-scoped object lives in the default namespace
			await().atMost(BOUND)
				.untilAsserted(() -> assertThat(eventsIn(client, "default", namespace.name()))
					.extracting(EventsV1Event::getRegarding)
					.extracting(V1ObjectReference::getKind, V1ObjectReference::getNamespace, V1ObjectReference::getUid)
					.containsExactly(tuple("Namespace", null, cluster.getMetadata().getUid())));
			EventsV1Event event = events(client, namespace, "referenced").get(0);
			assertThat(event.getReportingController()).isEqualTo("kubeop-tests");
			assertThat(event.getReportingInstance()).isEqualTo("kubeop-tests-1");
			assertThat(event.getAction()).isEqualTo("Sync");
			assertThat(event.getEventTime()).isNotNull();
		}
	}

	@Test
	void repeatAfterTheSeriesWindowStartsAnotherEvent(ApiClient client, TestNamespace namespace) throws ApiException {
		V1ConfigMap windowed = configMap(client, namespace, "windowed");
		MovableClock clock = new MovableClock();
		try (DefaultEventRecorder recorder = new DefaultEventRecorder(client, "kubeop-tests", "kubeop-tests-1", 1000,
				Duration.ofSeconds(10), new SpamFilter(25, Duration.ofMinutes(5), System::nanoTime), clock)) {
			recorder.normal(windowed, "Synced", "Sync", null);
			recorder.normal(windowed, "Synced", "Sync", null);
			await().atMost(BOUND).until(() -> seriesCounts(client, namespace, "windowed").equals(List.of(2)));
			// within six minutes of the last repeat: the same series
			clock.advance(Duration.ofMinutes(5));
			recorder.normal(windowed, "Synced", "Sync", null);
			await().atMost(BOUND).until(() -> seriesCounts(client, namespace, "windowed").equals(List.of(3)));
			// more than six minutes after it: the series has ended
			clock.advance(Duration.ofMinutes(7));
			recorder.normal(windowed, "Synced", "Sync", null);
			await().atMost(BOUND).until(() -> events(client, namespace, "windowed").size() == 2);
			assertThat(seriesCounts(client, namespace, "windowed")).containsExactlyInAnyOrder(3, 1);
		}
	}

	@Test
	void closeWritesWhatIsQueuedBeforeItReturns(ApiClient client, TestNamespace namespace) throws ApiException {
		V1ConfigMap closing = configMap(client, namespace, "closing");
		DefaultEventRecorder recorder = recorder(client, 1000);
		for (int i = 0; i < 10; i++) {
			recorder.normal(closing, "Closing" + i, "Sync", null);
		}
		recorder.close();
		assertThat(events(client, namespace, "closing")).hasSize(10);
		assertThat(recorder.count(Outcome.DROPPED)).isZero();
		recorder.normal(closing, "AfterClose", "Sync", null);
		assertThat(recorder.count(Outcome.DROPPED)).isOne();
	}

	private static DefaultEventRecorder recorder(ApiClient client, int queueCapacity) {
		return new DefaultEventRecorder(client, "kubeop-tests", "kubeop-tests-1", queueCapacity,
				Duration.ofSeconds(10));
	}

	private static V1ConfigMap configMap(ApiClient client, TestNamespace namespace, String name) throws ApiException {
		return new CoreV1Api(client)
			.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
			.execute();
	}

	private static List<EventsV1Event> events(ApiClient client, TestNamespace namespace, String regarding)
			throws ApiException {
		return eventsIn(client, namespace.name(), regarding);
	}

	private static List<EventsV1Event> eventsIn(ApiClient client, String namespace, String regarding)
			throws ApiException {
		return new EventsV1Api(client).listNamespacedEvent(namespace)
			.execute()
			.getItems()
			.stream()
			.filter((event) -> regarding.equals(event.getRegarding().getName()))
			.toList();
	}

	private static List<Integer> seriesCounts(ApiClient client, TestNamespace namespace, String regarding)
			throws ApiException {
		return events(client, namespace, regarding).stream().map(EventRecorderIntegrationTests::seriesCount).toList();
	}

	private static int seriesCount(EventsV1Event event) {
		return (event.getSeries() != null) ? event.getSeries().getCount() : 1;
	}

	/**
	 * A clock the test moves forward.
	 */
	private static final class MovableClock extends Clock {

		private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

		void advance(Duration duration) {
			this.now.updateAndGet((instant) -> instant.plus(duration));
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Instant instant() {
			return this.now.get();
		}

	}

}
