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
import java.util.Set;

import com.google.gson.JsonObject;
import io.github.kubeop.test.ApiServerRequests;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample operator in steady state: reconciles of a site whose objects are as desired
 * make no request for them, counted by the API server itself.
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = { Component.CONTROLLER_MANAGER, Component.SCHEDULER, Component.NODES })
class SteadyStateRequestsTests {

	private static final String[] OWNED = { "configmaps", "deployments", "services" };

	private static final int RECONCILES = 5;

	@BeforeAll
	static void install(ControlPlane controlPlane) {
		Manifests manifests = new Manifests(controlPlane);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/crds/staticsites.sample.kubeop.io.yaml"), null);
	}

	@Test
	void steadyStateReconcilesMakeNoRequestForTheOwnedObjects(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleOperatorApplication.class)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("testConnection", admin))
			.run("--kubeop.informers.namespaces=" + namespace.name(), "--spring.main.banner-mode=off",
					"--server.port=0")) {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			DynamicKubernetesApi sites = new DynamicKubernetesApi("sample.kubeop.io", "v1alpha1", "staticsites", admin);
			Manifests manifests = new Manifests(admin);
			manifests.apply(site(0), namespace.name());
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
				JsonObject site = sites.get(namespace.name(), "steady").throwsApiException().getObject().getRaw();
				assertThat(site.has("status")).as("status written").isTrue();
				assertThat(site.getAsJsonObject("status").toString()).contains("\"ReplicasAvailable\"");
			});
			// the namespace controller's passes over a namespace being deleted (an
			// earlier test's) write the resources counted here
			ApiServerRequests.awaitNoNamespaceDeletion(admin, Duration.ofMinutes(2));
			long applies = ApiServerRequests.count(admin, ApiServerRequests.WRITES, OWNED);
			long reads = ApiServerRequests.count(admin, Set.of("GET"), OWNED);
			double reconciles = reconciles(meters);
			// reconciles that find everything as desired: an annotation of the site
			// changes nothing the operator writes
			for (int i = 1; i <= RECONCILES; i++) {
				manifests.apply(site(i), namespace.name());
				double expected = reconciles + i;
				await().atMost(Duration.ofSeconds(60)).until(() -> reconciles(meters) >= expected);
			}
			long appliesAfter = ApiServerRequests.count(admin, ApiServerRequests.WRITES, OWNED);
			long readsAfter = ApiServerRequests.count(admin, Set.of("GET"), OWNED);
			System.out.println("Sample steady state: " + RECONCILES + " reconciles, " + (appliesAfter - applies)
					+ " writes and " + (readsAfter - reads) + " GETs of configmaps, deployments and services");
			assertThat(appliesAfter).isEqualTo(applies);
			assertThat(readsAfter).isEqualTo(reads);
			deleteWhileTheOperatorRuns(sites, namespace, "steady");
		}
	}

	/**
	 * Deletes the site and waits until it is gone: its finalizer is removed by the
	 * operator, which must still run, or the site and its namespace are never deleted and
	 * the namespace controller writes every namespaced resource again every few seconds
	 * for as long as the control plane runs.
	 * @param sites the sites
	 * @param namespace the site's namespace
	 * @param name the site's name
	 * @throws ApiException if the site cannot be deleted
	 */
	static void deleteWhileTheOperatorRuns(DynamicKubernetesApi sites, TestNamespace namespace, String name)
			throws ApiException {
		sites.delete(namespace.name(), name).throwsApiException();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> sites.get(namespace.name(), name).getHttpStatusCode() == 404);
	}

	private static double reconciles(MeterRegistry meters) {
		return meters.find("controller.runtime.reconcile")
			.counters()
			.stream()
			.mapToDouble(io.micrometer.core.instrument.Counter::count)
			.sum();
	}

	private static String site(int touched) {
		return """
				apiVersion: sample.kubeop.io/v1alpha1
				kind: StaticSite
				metadata:
				  name: steady
				  annotations:
				    example.com/touched: "%d"
				spec:
				  replicas: 1
				  pages:
				    index.html: "<h1>steady</h1>"
				""".formatted(touched);
	}

}
