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
import java.util.Map;
import java.util.regex.Pattern;

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
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A handler that writes an object no informer of its resource caches is told, once per
 * informer, against a real API server.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class WritesOutsideInformersIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void writeOutsideEveryInformersSelectorIsWarnedAboutOnce(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) {
		PasswordKeeper keeper = new PasswordKeeper();
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.vault-secrets.api-version=v1",
					"kubeop.informers.resources.vault-secrets.kind=Secret",
					"kubeop.informers.resources.vault-secrets.label-selector=app=vault",
					"kubeop.informers.resources.apps.api-version=v1", "kubeop.informers.resources.apps.kind=ConfigMap",
					"kubeop.informers.resources.apps.label-selector=role=app")
			.withBean(PasswordKeeper.class, () -> keeper)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				keeper.template = context.getBean(KubernetesTemplate.class);
				// two calls, each writing a Secret without the label the informer selects
				for (String name : new String[] { "first", "second" }) {
					api.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("role", "app"))))
						.execute();
					await().atMost(Duration.ofSeconds(30))
						.until(() -> exists(api, namespace.name(), name + "-password"));
				}
				// the sentinel: a later write outside another informer's view is warned
				// about, so the second Secret, written before it, was not
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("third").labels(Map.of("role", "app"))))
					.execute();
				await().atMost(Duration.ofSeconds(30))
					.until(() -> output.getOut().contains("no informer of configmaps"));
				assertThat(Pattern
					.compile("Secret '" + namespace.name() + "/\\w+-password' was written, but no "
							+ "informer of secrets caches it: informer 'vault-secrets' \\(namespace " + namespace.name()
							+ ", labels app=vault\\)")
					.matcher(output.getOut())
					.results()).hasSize(1);
				assertThat(output.getOut()).contains("ConfigMap '" + namespace.name()
						+ "/third-settings' was written, but no informer of configmaps caches it: informer 'apps'");
			});
	}

	private static boolean exists(CoreV1Api api, String namespace, String name) throws ApiException {
		try {
			api.readNamespacedSecret(name, namespace).execute();
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
	 * Keeps a generated password for each app in a Secret (and forgets the label the
	 * Secrets informer selects); the third app also writes its settings, unlabelled.
	 */
	static class PasswordKeeper {

		volatile KubernetesTemplate template;

		@Reconcile(informer = "apps")
		void reconcile(V1ConfigMap app) throws ApiException {
			String name = app.getMetadata().getName();
			this.template.apply(new V1Secret()
				.metadata(new V1ObjectMeta().name(name + "-password").namespace(app.getMetadata().getNamespace()))
				.stringData(Map.of("password", "secret")));
			if (name.equals("third")) {
				this.template.apply(new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(name + "-settings").namespace(app.getMetadata().getNamespace())));
			}
		}

	}

}
