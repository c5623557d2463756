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

package io.github.kubeop.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.github.kubeop.informer.InformerStatus;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that an informer reports an API server outage in its status and heals by itself
 * when the server returns.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class WatchRecoveryTests {

	@Test
	void apiServerRestartIsReportedAndHealed(ControlPlane controlPlane, ApiClient client, TestNamespace namespace) {
		assumeThat(controlPlane).as("restarting kube-apiserver needs the local control plane")
			.isInstanceOf(LocalControlPlane.class);
		LocalControlPlane local = (LocalControlPlane) controlPlane;
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> informer.status().state() == WatchState.WATCHING);
				local.stopApiServer();
				try {
					await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
						InformerStatus status = informer.status();
						assertThat(status.state()).isEqualTo(WatchState.RECONNECTING);
						assertThat(status.reconnectingSince()).isNotNull();
						assertThat(status.lastError()).isNotBlank();
					});
				}
				finally {
					local.startApiServer();
				}
				KubernetesObjects.configMap(client, namespace.name(), "after-restart", Map.of());
				@SuppressWarnings("unchecked")
				ResourceInformer<V1ConfigMap> settings = (ResourceInformer<V1ConfigMap>) informer;
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(settings.lister().namespace(namespace.name()).get("after-restart"))
						.isNotNull());
				InformerStatus healed = informer.status();
				assertThat(healed.state()).isEqualTo(WatchState.WATCHING);
				assertThat(healed.reconnectingSince()).isNull();
				assertThat(healed.lastError()).isNull();
				assertThat(healed.watchRestarts()).isPositive();
				assertThat(healed.synced()).isTrue();
			});
	}

}
