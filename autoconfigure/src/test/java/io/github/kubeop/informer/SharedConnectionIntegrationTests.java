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

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import okhttp3.Call;
import okhttp3.EventListener;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the list-and-watch loops of one API server that start together open one
 * connection, multiplexed over HTTP/2, rather than one each (each a TLS handshake).
 *
 * @author Kubeop authors
 */
@KubernetesTest
class SharedConnectionIntegrationTests {

	@Test
	void informersStartedTogetherOpenOneConnection(ControlPlane controlPlane, ApiClient direct) throws Exception {
		String namespace = ListWatchIntegrationTests.namespace(new CoreV1Api(direct), "one-connection");
		ListWatchIntegrationTests.create(new CoreV1Api(direct), namespace, "config");
		List<String> opened = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		// a connection that takes long to open, as a cold JVM's TLS handshake does: every
		// loop starts while the first one opens
		client.setHttpClient(client.getHttpClient().newBuilder().eventListener(new EventListener() {
			@Override
			public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
				if (call.request().url().encodedPath().contains("/namespaces/" + namespace + "/")) {
					opened.add(call.request().url().encodedPath());
					sleep(Duration.ofMillis(500));
				}
			}
		}).build());
		InformerRegistry registry = new InformerRegistry(client);
		List<ResourceInformer<? extends KubernetesObject>> informers = List.of(
				registry.informer(spec("config-maps", "ConfigMap", V1ConfigMap.class, namespace)),
				registry.informer(spec("secrets", "Secret", V1Secret.class, namespace)),
				registry.informer(spec("services", "Service", V1Service.class, namespace)),
				registry.informer(spec("service-accounts", "ServiceAccount", V1ServiceAccount.class, namespace)));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(60));
			assertThat(informers.get(0).lister().list()).extracting((object) -> object.getMetadata().getName())
				.containsExactly("config");
			assertThat(opened).as("connections opened by the informers' requests").hasSize(1);
			assertThat(informers.get(0).reachability().connections().connectionCount()).isEqualTo(1);
		}
		finally {
			registry.stop();
		}
	}

	private static <T extends KubernetesObject> InformerSpec<T> spec(String name, String kind, Class<T> type,
			String namespace) {
		return InformerSpec.of(name, "v1", kind, type).withNamespaces(namespace);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
