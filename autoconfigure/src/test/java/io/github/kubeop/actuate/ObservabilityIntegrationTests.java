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

package io.github.kubeop.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.TerminalException;
import io.github.kubeop.health.InformersHealthIndicator;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.Banner;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Health, metrics and the informers endpoint of a real application (actuator on a random
 * port) against a real API server.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ObservabilityIntegrationTests {

	private static final String SECRET_VALUE = "s3cr3t-do-not-show";

	private static final HttpClient http = HttpClient.newHttpClient();

	/**
	 * controller-runtime's buckets of controller_runtime_reconcile_time_seconds.
	 */
	private static final List<Double> RECONCILE_TIME_BUCKETS = List.of(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25,
			0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0,
			7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, Double.POSITIVE_INFINITY);

	/**
	 * controller-runtime's buckets of workqueue_queue_duration_seconds and
	 * workqueue_work_duration_seconds (ExponentialBuckets(10e-9, 10, 12)) from 1 µs up.
	 */
	private static final List<Double> WORKQUEUE_BUCKETS = List.of(1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0,
			1000.0, Double.POSITIVE_INFINITY);

	private static ConfigurableApplicationContext context;

	private static String base;

	@BeforeAll
	static void startApplication(ControlPlane controlPlane, ApiClient client, TestNamespace namespace)
			throws Exception {
		new CoreV1Api(client)
			.createNamespacedSecret(namespace.name(),
					new V1Secret().metadata(new V1ObjectMeta().name("credentials"))
						.stringData(Map.of("password", SECRET_VALUE)))
			.execute();
		context = new SpringApplicationBuilder(ObservedApplication.class).bannerMode(Banner.Mode.OFF)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("apiClient", controlPlane.apiClient()))
			.run("--server.port=0", "--management.endpoints.web.exposure.include=health,prometheus,informers",
					"--management.endpoint.health.show-details=always",
					"--management.endpoint.health.probes.enabled=true",
					"--kubeop.informers.namespaces=" + namespace.name(), "--kubeop.handlers.workers=2",
					"--kubeop.handlers.rate-limiter.base-delay=50ms", "--kubeop.health.watch-failure-threshold=2s",
					"--kubeop.informers.resources.secrets.api-version=v1",
					"--kubeop.informers.resources.secrets.kind=Secret", "--kubeop.leader-election.enabled=true",
					"--kubeop.leader-election.lease-namespace=" + namespace.name(),
					"--kubeop.leader-election.lease-duration=3s", "--kubeop.leader-election.renew-deadline=2s",
					"--kubeop.leader-election.retry-period=500ms");
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		base = "http://127.0.0.1:" + port;
		CoreV1Api api = new CoreV1Api(client);
		for (String name : new String[] { "ok", "flaky", "later", "doomed", "slow" }) {
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("k", "v")))
				.execute();
		}
	}

	@AfterAll
	static void stopApplication() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void healthIsDownBeforeTheInformersHaveSyncedAndUpAfter(ControlPlane controlPlane, TestNamespace namespace) {
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		registry.informer(
				InformerSpec.of("settings", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace.name()));
		InformersHealthIndicator health = new InformersHealthIndicator(registry, () -> 1, Duration.ofSeconds(10));
		try {
			assertThat(health.health(true).getStatus()).isEqualTo(Status.DOWN);
			registry.start();
			registry.awaitSync(Duration.ofSeconds(30));
			assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
			assertThat(health.health(true).getDetails()).containsKey("informers");
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void readinessGroupHoldsTheInformersAndLivenessDoesNot() throws Exception {
		HttpResponse<String> readiness = get("/actuator/health/readiness");
		assertThat(readiness.statusCode()).isEqualTo(200);
		assertThat(readiness.body()).contains("\"informers\"").contains("\"synced\":true");
		HttpResponse<String> liveness = get("/actuator/health/liveness");
		assertThat(liveness.body()).doesNotContain("informers");
	}

	@Test
	void prometheusShowsControllerRuntimeAndInformerMeters() throws Exception {
		Handler handler = context.getBean(Handler.class);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> handler.flakyCalls == 2 && handler.doomedCalls == 1 && handler.slowCalls.get() == 1);
		String handlerName = "handler";
		String scrape = scrapeUntil(
				(body) -> value(body, "controller_runtime_reconcile_total", handlerName, "result=\"success\"") >= 2);
		assertThat(value(scrape, "controller_runtime_reconcile_total", handlerName, "result=\"success\""))
			.isGreaterThanOrEqualTo(2);
		assertThat(value(scrape, "controller_runtime_reconcile_total", handlerName, "result=\"error\"")).isEqualTo(2);
		assertThat(value(scrape, "controller_runtime_reconcile_total", handlerName, "result=\"requeue_after\""))
			.isEqualTo(1);
		assertThat(value(scrape, "controller_runtime_reconcile_total", handlerName, "result=\"requeue\"")).isZero();
		assertThat(value(scrape, "controller_runtime_reconcile_errors_total", handlerName, "")).isEqualTo(2);
		assertThat(value(scrape, "controller_runtime_terminal_reconcile_errors_total", handlerName, "")).isEqualTo(1);
		assertThat(value(scrape, "controller_runtime_reconcile_time_seconds_count", handlerName, ""))
			.isGreaterThanOrEqualTo(6);
		assertThat(value(scrape, "controller_runtime_max_concurrent_reconciles", handlerName, "")).isEqualTo(2);
		assertThat(value(scrape, "controller_runtime_active_workers", handlerName, "")).isBetween(0.0, 2.0);
		assertThat(value(scrape, "workqueue_adds_total", handlerName, "")).isGreaterThanOrEqualTo(6);
		assertThat(value(scrape, "workqueue_retries_total", handlerName, "")).isEqualTo(1);
		assertThat(value(scrape, "workqueue_depth", handlerName, "")).isZero();
		assertThat(value(scrape, "workqueue_queue_duration_seconds_count", handlerName, "")).isGreaterThanOrEqualTo(6);
		assertThat(value(scrape, "workqueue_work_duration_seconds_count", handlerName, "")).isGreaterThanOrEqualTo(6);
		assertThat(value(scrape, "workqueue_unfinished_work_seconds", handlerName, "")).isGreaterThanOrEqualTo(0);
		assertThat(value(scrape, "workqueue_longest_running_processor_seconds", handlerName, ""))
			.isGreaterThanOrEqualTo(0);
		assertThat(value(scrape, "leader_election_master_status", "", "")).isEqualTo(1);
		assertThat(value(scrape, "kubeop_informer_cache_size_objects", "secrets", "")).isEqualTo(1);
		assertThat(value(scrape, "kubeop_informer_events_total", "v1ConfigMap", "type=\"added\""))
			.isGreaterThanOrEqualTo(4);
		assertThat(value(scrape, "kubeop_informer_relists_total", "secrets", "")).isGreaterThanOrEqualTo(1);
		assertThat(value(scrape, "kubeop_informer_watch_restarts_total", "secrets", "")).isGreaterThanOrEqualTo(0);
		assertThat(value(scrape, "kubeop_informer_last_event_age_seconds", "secrets", "")).isGreaterThanOrEqualTo(0);
	}

	@Test
	void timersPublishControllerRuntimeHistogramBucketsThatCountEveryCall() throws Exception {
		Handler handler = context.getBean(Handler.class);
		await().atMost(Duration.ofSeconds(20)).until(() -> handler.slowCalls.get() == 1);
		// every call is recorded after the method returns: wait until the timer holds as
		// many calls as the handler saw
		String scrape = scrapeUntil((body) -> value(body, "controller_runtime_reconcile_time_seconds_count", "handler",
				"") == handler.calls.get());
		int calls = handler.calls.get();
		Map<Double, Double> reconcileTime = buckets(scrape, "controller_runtime_reconcile_time_seconds", "handler");
		assertThat(reconcileTime.keySet()).containsExactlyElementsOf(RECONCILE_TIME_BUCKETS);
		assertCumulative(reconcileTime);
		assertThat(reconcileTime.get(Double.POSITIVE_INFINITY)).isEqualTo(calls);
		assertThat(reconcileTime.get(60.0)).isEqualTo(calls);
		// the slow call took more than a second: it is above the 1 s bucket
		assertThat(reconcileTime.get(1.0)).isLessThanOrEqualTo(calls - 1);
		double queueCount = value(scrape, "workqueue_queue_duration_seconds_count", "handler", "");
		Map<Double, Double> queued = buckets(scrape, "workqueue_queue_duration_seconds", "handler");
		assertThat(queued.keySet()).containsExactlyElementsOf(WORKQUEUE_BUCKETS);
		assertCumulative(queued);
		assertThat(queued.get(Double.POSITIVE_INFINITY)).isEqualTo(queueCount).isGreaterThanOrEqualTo(calls);
		double workCount = value(scrape, "workqueue_work_duration_seconds_count", "handler", "");
		Map<Double, Double> worked = buckets(scrape, "workqueue_work_duration_seconds", "handler");
		assertThat(worked.keySet()).containsExactlyElementsOf(WORKQUEUE_BUCKETS);
		assertCumulative(worked);
		assertThat(worked.get(Double.POSITIVE_INFINITY)).isEqualTo(workCount);
		assertThat(worked.get(1000.0)).isEqualTo(workCount);
		assertThat(worked.get(1.0)).isLessThanOrEqualTo(workCount - 1);
	}

	@Test
	void depthCountsAKeyAddedAgainWhileItIsProcessedAsClientGoDoes(ApiClient client, TestNamespace namespace)
			throws Exception {
		Handler handler = context.getBean(Handler.class);
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name("blocked")).data(Map.of("k", "v")))
			.execute();
		assertThat(handler.blockedEntered.await(20, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(value(get("/actuator/prometheus").body(), "workqueue_depth", "handler", "")).isZero();
			api.replaceNamespacedConfigMap("blocked", namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("blocked")).data(Map.of("k", "changed")))
				.execute();
			// the key is dirty while its worker still runs: client-go's depth counts it
			scrapeUntil((body) -> value(body, "workqueue_depth", "handler", "") == 1);
		}
		finally {
			handler.blockedRelease.countDown();
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> handler.blockedUpdates.get() == 1);
		scrapeUntil((body) -> value(body, "workqueue_depth", "handler", "") == 0);
	}

	@Test
	void informersAndHandlersCreatedAfterStartupGetTheirMeters(TestNamespace namespace) throws Exception {
		InformerRegistry informers = context.getBean(InformerRegistry.class);
		ResourceInformer<V1Secret> late = informers
			.informer(InformerSpec.of("late-secrets", "v1", "Secret", V1Secret.class)
				.withNamespaces(namespace.name())
				.withLabelSelector("late=true"));
		AtomicInteger lateCalls = new AtomicInteger();
		context.getBean(HandlerRegistrar.class)
			.register(HandlerEndpoint.builder("late", V1Secret.class)
				.informer("secrets")
				.onAdd((secret) -> lateCalls.incrementAndGet())
				.build());
		await().atMost(Duration.ofSeconds(20)).until(() -> lateCalls.get() == 1 && late.hasSynced());
		String scrape = scrapeUntil(
				(body) -> body.contains("name=\"late-secrets\"") && body.contains("controller=\"late\"")
						&& value(body, "controller_runtime_reconcile_total", "late", "result=\"success\"") == 1);
		assertThat(value(scrape, "kubeop_informer_cache_size_objects", "late-secrets", "")).isZero();
		assertThat(value(scrape, "kubeop_informer_relists_total", "late-secrets", "")).isGreaterThanOrEqualTo(1);
		assertThat(value(scrape, "controller_runtime_max_concurrent_reconciles", "late", "")).isEqualTo(2);
		assertThat(value(scrape, "workqueue_depth", "late", "")).isZero();
		assertThat(value(scrape, "controller_runtime_reconcile_errors_total", "late", "")).isZero();
	}

	@Test
	void informersEndpointCountsSecretsWithoutShowingThem() throws Exception {
		HttpResponse<String> informers = get("/actuator/informers");
		assertThat(informers.statusCode()).isEqualTo(200);
		assertThat(informers.body()).contains("\"name\":\"secrets\"")
			.contains("\"cacheSize\":1")
			.contains("\"name\":\"handler\"")
			.contains("\"queueDepth\"");
		String encoded = Base64.getEncoder().encodeToString(SECRET_VALUE.getBytes());
		for (String path : new String[] { "/actuator/informers", "/actuator/health", "/actuator/prometheus" }) {
			assertThat(get(path).body()).as(path).doesNotContain(SECRET_VALUE).doesNotContain(encoded);
		}
	}

	// last: the outage costs the leadership, and the lease won back handles every cached
	// object again, which changes the call counts the other tests assert
	@Test
	@Order(Integer.MAX_VALUE)
	void healthTurnsDownWhileTheApiServerIsGoneLongerThanTheThresholdAndUpWhenItReturns(ControlPlane controlPlane)
			throws Exception {
		assumeThat(controlPlane).isInstanceOf(LocalControlPlane.class);
		LocalControlPlane local = (LocalControlPlane) controlPlane;
		assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(200);
		local.stopApiServer();
		try {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(503));
			assertThat(get("/actuator/health/readiness").body()).contains("\"lastError\"")
				.contains("\"reconnectingSince\"");
			assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
		}
		finally {
			local.startApiServer();
		}
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(200));
	}

	private static String scrapeUntil(java.util.function.Predicate<String> condition) {
		String[] last = new String[1];
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			last[0] = get("/actuator/prometheus").body();
			return condition.test(last[0]);
		});
		return last[0];
	}

	/**
	 * Returns the buckets of a histogram for a handler, by upper bound.
	 */
	private static Map<Double, Double> buckets(String scrape, String histogram, String name) {
		Pattern line = Pattern.compile("^" + Pattern.quote(histogram + "_bucket") + "\\{([^}]*)\\} (\\S+)$",
				Pattern.MULTILINE);
		Pattern le = Pattern.compile("le=\"([^\"]+)\"");
		Map<Double, Double> buckets = new TreeMap<>();
		Matcher matcher = line.matcher(scrape);
		while (matcher.find()) {
			String labels = matcher.group(1);
			if (labels.contains("=\"" + name + "\"")) {
				Matcher bound = le.matcher(labels);
				assertThat(bound.find()).as("le label in %s", labels).isTrue();
				double upper = "+Inf".equals(bound.group(1)) ? Double.POSITIVE_INFINITY
						: Double.parseDouble(bound.group(1));
				buckets.put(upper, Double.parseDouble(matcher.group(2)));
			}
		}
		return buckets;
	}

	private static void assertCumulative(Map<Double, Double> buckets) {
		double previous = 0;
		for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
			assertThat(bucket.getValue()).as("bucket le=%s", bucket.getKey()).isGreaterThanOrEqualTo(previous);
			previous = bucket.getValue();
		}
	}

	/**
	 * Returns the sum of the samples of a metric whose labels contain the name and the
	 * extra label.
	 */
	private static double value(String scrape, String metric, String name, String label) {
		Pattern line = Pattern.compile("^" + Pattern.quote(metric) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
		Matcher matcher = line.matcher(scrape);
		double sum = 0;
		boolean found = false;
		while (matcher.find()) {
			String labels = matcher.group(1);
			if ((name.isEmpty() || labels.contains("=\"" + name + "\"")) && labels.contains(label)) {
				sum += Double.parseDouble(matcher.group(2));
				found = true;
			}
		}
		assertThat(found).as("metric %s{%s %s} in the scrape", metric, name, label).isTrue();
		return sum;
	}

	private static HttpResponse<String> get(String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ObservedApplication {

		@Bean
		Handler handler() {
			return new Handler();
		}

	}

	static class Handler {

		final AtomicInteger calls = new AtomicInteger();

		final AtomicInteger slowCalls = new AtomicInteger();

		final CountDownLatch blockedEntered = new CountDownLatch(1);

		final CountDownLatch blockedRelease = new CountDownLatch(1);

		final AtomicInteger blockedUpdates = new AtomicInteger();

		volatile int flakyCalls;

		volatile int doomedCalls;

		@OnUpdate
		void updated(V1ConfigMap previous, V1ConfigMap configMap) {
			this.calls.incrementAndGet();
			if ("blocked".equals(configMap.getMetadata().getName())) {
				this.blockedUpdates.incrementAndGet();
			}
		}

		@OnAdd
		Duration added(V1ConfigMap configMap) throws InterruptedException {
			this.calls.incrementAndGet();
			switch (configMap.getMetadata().getName()) {
				case "slow" -> {
					// more than the 1 s bucket, whatever the machine
					Thread.sleep(1100);
					this.slowCalls.incrementAndGet();
				}
				case "blocked" -> {
					this.blockedEntered.countDown();
					this.blockedRelease.await(60, TimeUnit.SECONDS);
				}
				case "flaky" -> {
					if (++this.flakyCalls == 1) {
						throw new IllegalStateException("first call fails");
					}
				}
				case "later" -> {
					return Duration.ofHours(1);
				}
				case "doomed" -> {
					this.doomedCalls++;
					throw new TerminalException("never works");
				}
				default -> {
				}
			}
			return null;
		}

	}

}
