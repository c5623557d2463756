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

package io.github.kubeop.write;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The template inside handler calls, against a real API server: objects the handled
 * object must not own are applied without an owner reference, and a write the server
 * refuses is logged with the server's reason and message.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class TemplateInHandlersIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void objectsAppliedNotOwnedHaveNoOwnerAndARefusedWriteIsLoggedWithTheServersReason(ControlPlane controlPlane,
			TestNamespace namespace, CapturedOutput output) throws ApiException {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		String shared = namespace.name() + "-shared";
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(shared))).execute();
		Registrar registrar = new Registrar();
		registrar.sharedNamespace = shared;
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.apps.api-version=v1", "kubeop.informers.resources.apps.kind=ConfigMap",
					"kubeop.informers.resources.apps.label-selector=role=app")
			.withBean(Registrar.class, () -> registrar)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				registrar.template = context.getBean(KubernetesTemplate.class);
				api.createNamespacedConfigMap(namespace.name(), app(namespace, "shop")).execute();
				await().atMost(Duration.ofSeconds(60)).until(() -> exists(api, shared, namespace.name() + "-shop"));
				V1ConfigMap entry = api.readNamespacedConfigMap(namespace.name() + "-shop", shared).execute();
				assertThat(entry.getMetadata().getOwnerReferences()).isNullOrEmpty();
				V1ClusterRole role = new RbacAuthorizationV1Api(controlPlane.apiClient())
					.readClusterRole(namespace.name() + "-shop")
					.execute();
				assertThat(role.getMetadata().getOwnerReferences()).isNullOrEmpty();
				// the handled object owns what it owns
				V1Secret owned = api.readNamespacedSecret("shop-token", namespace.name()).execute();
				assertThat(owned.getMetadata().getOwnerReferences()).singleElement()
					.satisfies((reference) -> assertThat(reference.getName()).isEqualTo("shop"));
				// a refused write: the handler's log line says why, as the server did
				api.createNamespacedConfigMap(namespace.name(), app(namespace, "invalid")).execute();
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(output.getOut()).contains("Handler ")
						.contains("failed for " + namespace.name() + "/invalid")
						.contains("failed (422 Invalid)")
						.contains("spec.ports[0].port"));
			});
	}

	private static V1ConfigMap app(TestNamespace namespace, String name) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(name).namespace(namespace.name()).labels(Map.of("role", "app")));
	}

	private static boolean exists(CoreV1Api api, String namespace, String name) throws ApiException {
		try {
			api.readNamespacedConfigMap(name, namespace).execute();
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * Registers each app in a shared namespace and in a cluster-scoped object, neither
	 * owned by the app, and keeps a token Secret that the app owns; the app named
	 * "invalid" asks for a Service the server refuses.
	 */
	static class Registrar {

		volatile KubernetesTemplate template;

		volatile String sharedNamespace;

		@Reconcile(informer = "apps")
		void reconcile(V1ConfigMap app) throws ApiException {
			String name = app.getMetadata().getName();
			String namespace = app.getMetadata().getNamespace();
			if (name.equals("invalid")) {
				this.template.apply(new V1Service().metadata(new V1ObjectMeta().name(name).namespace(namespace))
					.spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(70000)))));
				return;
			}
			this.template.apply(new V1Secret().metadata(new V1ObjectMeta().name(name + "-token").namespace(namespace))
				.stringData(Map.of("token", "t")));
			this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name(namespace + "-" + name).namespace(this.sharedNamespace))
				.data(Map.of("app", namespace + "/" + name)), ApplyOptions.notOwned());
			this.template.apply(new V1ClusterRole().metadata(new V1ObjectMeta().name(namespace + "-" + name)),
					ApplyOptions.notOwned());
		}

	}

}
