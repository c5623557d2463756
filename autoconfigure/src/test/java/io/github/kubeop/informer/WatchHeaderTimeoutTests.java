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

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a watch whose response headers are slow to come (a busy server queueing
 * requests) fails on its own, and does not close the connection the other informers'
 * watches share with it.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WatchHeaderTimeoutTests {

	@Test
	void watchWhoseHeadersTimeOutLeavesTheOtherWatchesOnTheSharedConnectionOpen(ControlPlane controlPlane,
			ApiClient admin, TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(admin);
		AtomicBoolean slowSecretWatches = new AtomicBoolean();
		AtomicInteger headerTimeouts = new AtomicInteger();
		ApiClient client = controlPlane.apiClient();
		// the Secrets informer's watch times out waiting for its headers, as OkHttp
		// reports it: a SocketTimeoutException while the request is out on the shared
		// connection (sent, so that connection is the watch's)
		client.setHttpClient(client.getHttpClient().newBuilder().addNetworkInterceptor((chain) -> {
			Response response = chain.proceed(chain.request());
			if (slowSecretWatches.get() && chain.request().url().encodedPath().endsWith("/secrets")
					&& "true".equals(chain.request().url().queryParameter("watch"))) {
				response.close();
				headerTimeouts.incrementAndGet();
				throw new SocketTimeoutException("timeout");
			}
			return response;
		}).build());
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<V1ConfigMap> configMaps = registry
			.informer(InformerSpec.of("steady", "v1", "ConfigMap", V1ConfigMap.class).withNamespaces(namespace.name()));
		ResourceInformer<V1Secret> secrets = registry.informer(InformerSpec.of("slow", "v1", "Secret", V1Secret.class)
			.withNamespaces(namespace.name())
			// the server ends its watch within seconds: the next one meets the slow
			// headers
			.withWatchTimeouts(Duration.ofSeconds(3), InformerSpec.DEFAULT_STALL_TIMEOUT));
		registry.start();
		try {
			await().atMost(Duration.ofSeconds(60)).until(() -> configMaps.hasSynced() && secrets.hasSynced());
			await().atMost(Duration.ofSeconds(60))
				.until(() -> configMaps.status().state() == WatchState.WATCHING
						&& secrets.status().state() == WatchState.WATCHING);
			long restartsBefore = configMaps.status().watchRestarts();
			slowSecretWatches.set(true);
			// two header timeouts: the first one's effects (a connection closed on
			// another thread) are long done by the second
			await().atMost(Duration.ofSeconds(60)).until(() -> headerTimeouts.get() >= 2);
			// sentinel: a change the ConfigMaps informer must see
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("sentinel")).data(Map.of("v", "1")))
				.execute();
			await().atMost(Duration.ofSeconds(60))
				.until(() -> configMaps.indexer().getByKey(namespace.name() + "/sentinel") != null);
			assertThat(configMaps.status().watchRestarts())
				.as("the ConfigMaps watch, on the connection the slow watch shared, was not reopened")
				.isEqualTo(restartsBefore);
			assertThat(secrets.status().lastError()).contains("response headers");
		}
		finally {
			slowSecretWatches.set(false);
			registry.stop();
		}
	}

}
