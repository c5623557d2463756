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

package io.github.kubeop.sample;

import java.nio.file.Path;
import java.time.Duration;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample operator as Spring's ahead-of-time processing left it: the build runs
 * {@code process-aot} on the application (see the module's pom), and this test starts the
 * generated context ({@code -Dspring.aot.enabled=true}) against a real API server, where
 * a site is reconciled into its Deployment, Service and pages.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class SampleOperatorAotTests {

	@BeforeAll
	static void install(ControlPlane controlPlane) {
		Manifests manifests = new Manifests(controlPlane);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/crds/staticsites.sample.kubeop.io.yaml"), null);
	}

	@AfterEach
	void leaveAotMode() {
		System.clearProperty(AotDetector.AOT_ENABLED);
	}

	@Test
	void processedContextStartsAndReconciles(ControlPlane controlPlane, ApiClient admin, TestNamespace namespace)
			throws Exception {
		System.setProperty(AotDetector.AOT_ENABLED, "true");
		SpringApplication application = new SpringApplication(SampleOperatorApplication.class);
		// the generated initializer is looked up by the main class, which is not ours in
		// a
		// test
		application.setMainApplicationClass(SampleOperatorApplication.class);
		try (ConfigurableApplicationContext context = application.run(
				"--kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile(),
				"--kubeop.informers.namespaces=" + namespace.name(), "--spring.main.banner-mode=off",
				"--server.port=0")) {
			assertThat(AotDetector.useGeneratedArtifacts()).isTrue();
			// the generated code registered the informers; the registrar did not run
			// again
			assertThat(context.containsBeanDefinition("staticSitesInformer")).isTrue();
			assertThat(context.containsBeanDefinition("kubeopInformerBeanRegistrar")).isFalse();
			new Manifests(admin).apply("""
					apiVersion: sample.kubeop.io/v1alpha1
					kind: StaticSite
					metadata:
					  name: shop
					spec:
					  replicas: 1
					  pages:
					    index.html: "<h1>ahead of time</h1>"
					""", namespace.name());
			AppsV1Api apps = new AppsV1Api(admin);
			CoreV1Api core = new CoreV1Api(admin);
			await().atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(ApiException.class).untilAsserted(() -> {
				assertThat(apps.readNamespacedDeployment("shop", namespace.name()).execute().getSpec().getReplicas())
					.isEqualTo(1);
				assertThat(core.readNamespacedService("shop", namespace.name()).execute()).isNotNull();
				assertThat(core.readNamespacedConfigMap("shop-pages", namespace.name()).execute().getData())
					.containsEntry("index.html", "<h1>ahead of time</h1>");
			});
			DynamicKubernetesApi sites = new DynamicKubernetesApi("sample.kubeop.io", "v1alpha1", "staticsites", admin);
			sites.delete(namespace.name(), "shop").throwsApiException();
		}
	}

}
