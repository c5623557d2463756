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

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.health.InformersHealthIndicator;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * How fast three informers of one API server come back after a fault between them and the
 * server, injected with a loopback TCP proxy: changes made during a 10 s cut are
 * delivered, and every watch is back (the informers' health UP), within 5 s of the
 * connection's return; a half-open connection is replaced within the ping interval plus
 * the ping timeout (OkHttp's is the interval) plus 5 s. Recovery must not be a herd: the
 * requests a recovering replica sends in its first second are counted and recorded.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class RecoveryTimeTests {

	private static final Duration TARGET = Duration.ofSeconds(5);

	@Test
	void changesAndHealthAreBackWithinFiveSecondsOfACutsEnd(ControlPlane controlPlane, ApiClient direct,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String ns = namespace.name();
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			RequestLog requests = new RequestLog();
			ApiClient client = controlPlane.apiClientVia(proxy.url());
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(requests).build());
			InformerRegistry registry = new InformerRegistry(client);
			List<ResourceInformer<?>> informers = informers(registry, ns, InformerSpec.DEFAULT_PING_INTERVAL);
			InformersHealthIndicator health = new InformersHealthIndicator(registry, () -> 0, Duration.ZERO);
			registry.start();
			try {
				registry.awaitSync(Duration.ofSeconds(60));
				await().atMost(Duration.ofSeconds(30)).until(() -> allWatching(informers));
				long cutAt = System.nanoTime();
				proxy.cut();
				create(api, ns, "during-cut");
				await().atMost(Duration.ofSeconds(30))
					.until(() -> informers.stream()
						.allMatch((informer) -> informer.status().state() == WatchState.RECONNECTING));
				assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
				// the fault lasts 10 s, long enough for back-offs to grow
				Thread.sleep(Math.max(0, Duration.ofSeconds(10).toMillis() - (System.nanoTime() - cutAt) / 1_000_000));
				int duringCut = requests.since(cutAt);
				long restoredAt = System.nanoTime();
				proxy.restore();
				await().atMost(Duration.ofSeconds(90)).until(() -> cached(informers, ns, "during-cut"));
				Duration delivered = Duration.ofNanos(System.nanoTime() - restoredAt);
				await().atMost(Duration.ofSeconds(90)).until(() -> health.health().getStatus().equals(Status.UP));
				Duration up = Duration.ofNanos(System.nanoTime() - restoredAt);
				// not a target: the recovery above already sent it; a generous bound so
				// that a
				// slow machine fails on the targets' assertions, not here
				await().atMost(Duration.ofSeconds(90)).until(() -> requests.firstSince(restoredAt) != null);
				long first = requests.firstSince(restoredAt);
				// the first second has to be over before its requests are counted
				await().atMost(Duration.ofSeconds(10)).until(() -> System.nanoTime() - first > 1_000_000_000L);
				int firstSecond = requests.between(first, first + 1_000_000_000L);
				Figures.record("cut 10 s, 3 informers",
						"changes delivered " + delivered.toMillis() + " ms and every watch back (health UP) "
								+ up.toMillis() + " ms after the restore; " + duringCut + " requests during the cut, "
								+ firstSecond + " requests in the first second of " + "recovery, "
								+ proxy.connectionsAccepted() + " connections in all");
				assertThat(delivered).as("changes made during the cut delivered after the restore")
					.isLessThanOrEqualTo(TARGET);
				assertThat(up).as("every watch back (health UP) after the restore").isLessThanOrEqualTo(TARGET);
			}
			finally {
				registry.stop();
			}
		}
	}

	@Test
	void changesAndHealthAreBackWithinFiveSecondsOfAnApiServerRestart(ControlPlane controlPlane, ApiClient direct,
			TestNamespace namespace) throws Exception {
		assumeThat(controlPlane).as("stopping kube-apiserver needs the local control plane")
			.isInstanceOf(LocalControlPlane.class);
		LocalControlPlane local = (LocalControlPlane) controlPlane;
		CoreV1Api api = new CoreV1Api(direct);
		String ns = namespace.name();
		RequestLog requests = new RequestLog();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(requests).build());
		InformerRegistry registry = new InformerRegistry(client);
		List<ResourceInformer<?>> informers = informers(registry, ns, InformerSpec.DEFAULT_PING_INTERVAL);
		InformersHealthIndicator health = new InformersHealthIndicator(registry, () -> 0, Duration.ZERO);
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(60));
			await().atMost(Duration.ofSeconds(30)).until(() -> allWatching(informers));
			long stoppedAt = System.nanoTime();
			local.stopApiServer();
			try {
				await().atMost(Duration.ofSeconds(30))
					.until(() -> informers.stream()
						.allMatch((informer) -> informer.status().state() == WatchState.RECONNECTING));
				// the server is down 10 s, long enough for back-offs to grow
				Thread.sleep(
						Math.max(0, Duration.ofSeconds(10).toMillis() - (System.nanoTime() - stoppedAt) / 1_000_000));
			}
			finally {
				local.startApiServer();
			}
			long readyAt = System.nanoTime();
			create(api, ns, "after-restart");
			await().atMost(Duration.ofSeconds(90)).until(() -> cached(informers, ns, "after-restart"));
			Duration delivered = Duration.ofNanos(System.nanoTime() - readyAt);
			await().atMost(Duration.ofSeconds(90)).until(() -> health.health().getStatus().equals(Status.UP));
			Duration up = Duration.ofNanos(System.nanoTime() - readyAt);
			Figures.record("kube-apiserver down 10 s, 3 informers",
					"changes delivered " + delivered.toMillis() + " ms and every watch back (health UP) "
							+ up.toMillis() + " ms after it was ready again; " + requests.since(stoppedAt)
							+ " requests since it stopped");
			assertThat(delivered).as("changes made once the server was back delivered").isLessThanOrEqualTo(TARGET);
			assertThat(up).as("every watch back (health UP) once the server was back").isLessThanOrEqualTo(TARGET);
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void halfOpenConnectionIsReplacedWithinPingIntervalAndTimeoutPlusFiveSeconds(ControlPlane controlPlane,
			ApiClient direct, TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String ns = namespace.name();
		Duration pingInterval = Duration.ofSeconds(2);
		// OkHttp fails a connection whose pong has not come by the next ping
		Duration target = pingInterval.multipliedBy(2).plus(TARGET);
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			RequestLog requests = new RequestLog();
			ApiClient client = controlPlane.apiClientVia(proxy.url());
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(requests).build());
			InformerRegistry registry = new InformerRegistry(client);
			List<ResourceInformer<?>> informers = informers(registry, ns, pingInterval);
			registry.start();
			try {
				registry.awaitSync(Duration.ofSeconds(60));
				await().atMost(Duration.ofSeconds(30)).until(() -> allWatching(informers));
				long stalledAt = System.nanoTime();
				proxy.stallOpenConnections();
				create(api, ns, "after-stall");
				await().atMost(Duration.ofSeconds(180)).until(() -> cached(informers, ns, "after-stall"));
				Duration delivered = Duration.ofNanos(System.nanoTime() - stalledAt);
				Figures.record("half-open connection, 3 informers, ping interval 2 s",
						"changes delivered " + delivered.toMillis() + " ms after the stall began; "
								+ requests.since(stalledAt) + " requests since, " + proxy.connectionsAccepted()
								+ " connections in all");
				assertThat(delivered).as("changes made after the stall delivered").isLessThanOrEqualTo(target);
			}
			finally {
				registry.stop();
				proxy.restore();
			}
		}
	}

	@Test
	void watchFoundDeadBySilenceTakesEveryWatchOnItsConnectionWithIt(ControlPlane controlPlane, ApiClient direct,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String ns = namespace.name();
		Duration stallTimeout = Duration.ofSeconds(2);
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			InformerRegistry registry = new InformerRegistry(controlPlane.apiClientVia(proxy.url()));
			// no pings: only the config maps' silence can find the dead connection; the
			// secrets' watch alone would trust its silence for the default 150 s
			ResourceInformer<V1ConfigMap> configMaps = registry
				.informer(InformerSpec.of("silent-configmaps", "v1", "ConfigMap", V1ConfigMap.class)
					.withNamespaces(ns)
					// nothing matches: only a bookmark moves its resourceVersion on
					.withLabelSelector("kubeop.io/test=bookmarks-only")
					.withWatchTimeouts(InformerSpec.DEFAULT_WATCH_TIMEOUT, stallTimeout)
					.withPingInterval(Duration.ZERO));
			ResourceInformer<V1Secret> secrets = registry
				.informer(InformerSpec.of("silent-secrets", "v1", "Secret", V1Secret.class)
					.withNamespaces(ns)
					.withPingInterval(Duration.ZERO));
			registry.start();
			try {
				registry.awaitSync(Duration.ofSeconds(60));
				String listed = configMaps.status().lastResourceVersion();
				// a config map written elsewhere moves the watch cache on, so that the
				// bookmark it sends every minute carries a newer resourceVersion than the
				// list: from then on the config maps' silence counts
				String elsewhere = "silent-" + ns;
				api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(elsewhere))).execute();
				api.createNamespacedConfigMap(elsewhere,
						new V1ConfigMap().metadata(new V1ObjectMeta().name("moved-on")).data(Map.of("v", "1")))
					.execute();
				await().atMost(Duration.ofSeconds(120))
					.until(() -> !listed.equals(configMaps.status().lastResourceVersion()));
				long stalledAt = System.nanoTime();
				proxy.stallOpenConnections();
				V1ObjectMeta metadata = new V1ObjectMeta().name("after-silence");
				api.createNamespacedSecret(ns, new V1Secret().metadata(metadata).stringData(Map.of("v", "1")))
					.execute();
				await().atMost(Duration.ofSeconds(180))
					.until(() -> secrets.indexer().getByKey(ns + "/after-silence") != null);
				Duration delivered = Duration.ofNanos(System.nanoTime() - stalledAt);
				Figures.record("half-open connection, pings off, one watch with a 2 s stall timeout",
						"the other informer's change delivered " + delivered.toMillis() + " ms after the stall began");
				assertThat(delivered).as("the secrets' change, once the config maps' watch was found dead")
					.isLessThanOrEqualTo(stallTimeout.plus(TARGET));
			}
			finally {
				registry.stop();
				proxy.restore();
			}
		}
	}

	private static List<ResourceInformer<?>> informers(InformerRegistry registry, String namespace,
			Duration pingInterval) {
		return List.of(
				registry.informer(InformerSpec.of("recovery-configmaps", "v1", "ConfigMap", V1ConfigMap.class)
					.withNamespaces(namespace)
					.withPingInterval(pingInterval)),
				registry.informer(InformerSpec.of("recovery-secrets", "v1", "Secret", V1Secret.class)
					.withNamespaces(namespace)
					.withPingInterval(pingInterval)),
				registry.informer(
						InformerSpec.of("recovery-serviceaccounts", "v1", "ServiceAccount", V1ServiceAccount.class)
							.withNamespaces(namespace)
							.withPingInterval(pingInterval)));
	}

	private static boolean allWatching(List<ResourceInformer<?>> informers) {
		return informers.stream().allMatch((informer) -> informer.status().state() == WatchState.WATCHING);
	}

	private static boolean cached(List<ResourceInformer<?>> informers, String namespace, String name) {
		return informers.stream().allMatch((informer) -> informer.indexer().getByKey(namespace + "/" + name) != null);
	}

	private static void create(CoreV1Api api, String namespace, String name) throws ApiException {
		V1ObjectMeta metadata = new V1ObjectMeta().name(name);
		api.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(metadata).data(Map.of("v", "1"))).execute();
		api.createNamespacedSecret(namespace, new V1Secret().metadata(metadata).stringData(Map.of("v", "1"))).execute();
		api.createNamespacedServiceAccount(namespace, new V1ServiceAccount().metadata(metadata)).execute();
	}

	/**
	 * Records when each request was sent, whether or not it reached the server.
	 */
	private static final class RequestLog implements Interceptor {

		private final List<Long> sent = new CopyOnWriteArrayList<>();

		@Override
		public Response intercept(Chain chain) throws IOException {
			this.sent.add(System.nanoTime());
			return chain.proceed(chain.request());
		}

		int since(long nanos) {
			return (int) this.sent.stream().filter((time) -> time - nanos >= 0).count();
		}

		Long firstSince(long nanos) {
			return this.sent.stream().filter((time) -> time - nanos >= 0).findFirst().orElse(null);
		}

		int between(long from, long to) {
			return (int) this.sent.stream().filter((time) -> time - from >= 0 && time - to < 0).count();
		}

	}

}
