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

// tag::imports[]
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;
// end::imports[]

/**
 * The sample operator end to end against a control plane that behaves like a cluster
 * (controller-manager, scheduler and simulated nodes), running as its service account
 * with exactly the RBAC generated from its classes (META-INF/kubeop/rbac).
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = { Component.CONTROLLER_MANAGER, Component.SCHEDULER, Component.NODES })
class SampleOperatorApplicationTests {

	private static final String IDENTITY = "system:serviceaccount:kubeop-sample:kubeop-sample-operator";

	@BeforeAll
	static void install(ControlPlane controlPlane) {
		// on the control plane, not only its client: kube-controller-manager is made to
		// see
		// the new kind at once, so that the site's objects are collected when it goes
		Manifests manifests = new Manifests(controlPlane);
		manifests.apply("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kubeop-sample\n", null);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/crds/staticsites.sample.kubeop.io.yaml"), null);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/rbac/cluster-role.yaml"), null);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/rbac/service-account.yaml"), null);
	}

	// tag::e2e[]
	@Test
	void siteIsReconciledRepairedUpdatedAndCleanedUp(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		ApiClient operatorIdentity = controlPlane.apiClientFor(IDENTITY, "system:serviceaccounts",
				"system:serviceaccounts:kubeop-sample", "system:authenticated");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleOperatorApplication.class)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("testConnection", operatorIdentity))
			.run("--kubeop.informers.namespaces=" + namespace.name(), "--spring.main.banner-mode=off",
					"--server.port=0")) {
			assertThat(context.getBean(ApiClient.class)).isSameAs(operatorIdentity);
			SiteDirectory directory = context.getBean(SiteDirectory.class);
			AppsV1Api apps = new AppsV1Api(admin);
			CoreV1Api core = new CoreV1Api(admin);
			DynamicKubernetesApi sites = new DynamicKubernetesApi("sample.kubeop.io", "v1alpha1", "staticsites", admin);
			Manifests manifests = new Manifests(admin);
			// no pod can run while the only node is cordoned: the site must not be Ready
			setUnschedulable(core, true);
			try {
				manifests.apply(site(2, "<h1>one</h1>"), namespace.name());
				await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
					JsonObject status = status(sites, namespace);
					assertThat(status.get("observedGeneration").getAsLong()).isEqualTo(generation(sites, namespace));
					assertThat(ready(status)).containsEntry("status", "False")
						.containsEntry("reason", "ReplicasUnavailable")
						.containsEntry("message", "0 of 2 replicas available");
				});
			}
			finally {
				setUnschedulable(core, false);
			}

			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(ready(status(sites, namespace))).containsEntry("status", "True")
					.containsEntry("message", "2 of 2 replicas available"));
			V1Deployment deployment = apps.readNamespacedDeployment("shop", namespace.name()).execute();
			assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
			assertThat(deployment.getStatus().getAvailableReplicas()).isEqualTo(2);
			assertThat(deployment.getMetadata().getOwnerReferences()).singleElement()
				.satisfies((owner) -> assertThat(owner.getKind()).isEqualTo("StaticSite"));
			assertThat(core.readNamespacedService("shop", namespace.name()).execute()).isNotNull();
			assertThat(core.readNamespacedConfigMap("shop-pages", namespace.name()).execute().getData())
				.containsEntry("index.html", "<h1>one</h1>");
			assertThat(directory.entries()).containsEntry(namespace.name() + "/shop",
					"http://shop." + namespace.name() + ".svc");

			V1Pod deleted = core.listNamespacedPod(namespace.name())
				.labelSelector("sample.kubeop.io/site=shop")
				.execute()
				.getItems()
				.get(0);
			core.deleteNamespacedPod(deleted.getMetadata().getName(), namespace.name()).execute();
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
				List<V1Pod> pods = core.listNamespacedPod(namespace.name())
					.labelSelector("sample.kubeop.io/site=shop")
					.execute()
					.getItems();
				assertThat(pods).hasSize(2)
					.noneMatch((pod) -> pod.getMetadata().getUid().equals(deleted.getMetadata().getUid()))
					.allSatisfy((pod) -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running"));
				assertThat(apps.readNamespacedDeployment("shop", namespace.name())
					.execute()
					.getStatus()
					.getAvailableReplicas()).isEqualTo(2);
				assertThat(ready(status(sites, namespace))).containsEntry("status", "True");
			});

			manifests.apply(site(3, "<h1>two</h1>"), namespace.name());
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				assertThat(apps.readNamespacedDeployment("shop", namespace.name()).execute().getSpec().getReplicas())
					.isEqualTo(3);
				assertThat(core.readNamespacedConfigMap("shop-pages", namespace.name()).execute().getData())
					.containsEntry("index.html", "<h1>two</h1>");
				assertThat(status(sites, namespace).get("observedGeneration").getAsLong())
					.isEqualTo(generation(sites, namespace));
				assertThat(ready(status(sites, namespace))).containsEntry("status", "True")
					.containsEntry("message", "3 of 3 replicas available");
			});

			// pages from a ConfigMap the site names before it exists: served once it is
			// created, and again when it changes
			manifests.apply(site(3, "<h1>two</h1>").replace("  pages:", "  pagesFrom: shop-extra\n  pages:"),
					namespace.name());
			manifests.apply(extraPages("<p>about</p>"), namespace.name());
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(
						core.readNamespacedConfigMap("shop-pages", namespace.name()).execute().getData())
					.containsEntry("index.html", "<h1>two</h1>")
					.containsEntry("about.html", "<p>about</p>"));
			manifests.apply(extraPages("<p>about us</p>"), namespace.name());
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(
						core.readNamespacedConfigMap("shop-pages", namespace.name()).execute().getData())
					.containsEntry("about.html", "<p>about us</p>"));

			String uid = apps.readNamespacedDeployment("shop", namespace.name()).execute().getMetadata().getUid();
			apps.deleteNamespacedDeployment("shop", namespace.name()).execute();
			// not found until the operator has put it back
			await().atMost(Duration.ofSeconds(30))
				.ignoreExceptionsMatching((ex) -> ex instanceof ApiException api && api.getCode() == 404)
				.untilAsserted(() -> assertThat(
						apps.readNamespacedDeployment("shop", namespace.name()).execute().getMetadata().getUid())
					.isNotEqualTo(uid));

			sites.delete(namespace.name(), "shop").throwsApiException();
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				assertThat(sites.get(namespace.name(), "shop").getHttpStatusCode()).isEqualTo(404);
				assertThat(notFound(() -> apps.readNamespacedDeployment("shop", namespace.name()).execute())).isTrue();
				assertThat(notFound(() -> core.readNamespacedService("shop", namespace.name()).execute())).isTrue();
				assertThat(notFound(() -> core.readNamespacedConfigMap("shop-pages", namespace.name()).execute()))
					.isTrue();
			});
			assertThat(directory.entries()).doesNotContainKey(namespace.name() + "/shop");
		}
	}
	// end::e2e[]

	@Test
	void pageNameThatIsNoConfigMapKeyIsRefusedByTheApiServer(ApiClient admin, TestNamespace namespace) {
		// the CEL rule on StaticSite.Spec, enforced by the API server with no webhook
		String site = site(1, "<h1>one</h1>").replace("index.html", "blog/index.html");
		assertThatIllegalStateException().isThrownBy(() -> new Manifests(admin).apply(site, namespace.name()))
			.withMessageContaining("HTTP 422")
			.withMessageContaining("page names must be ConfigMap keys");
	}

	// tag::helpers[]
	private static String site(int replicas, String index) {
		return """
				apiVersion: sample.kubeop.io/v1alpha1
				kind: StaticSite
				metadata:
				  name: shop
				spec:
				  replicas: %d
				  pages:
				    index.html: "%s"
				""".formatted(replicas, index);
	}

	private static String extraPages(String about) {
		return """
				apiVersion: v1
				kind: ConfigMap
				metadata:
				  name: shop-extra
				data:
				  about.html: "%s"
				""".formatted(about);
	}

	private static JsonObject status(DynamicKubernetesApi sites, TestNamespace namespace) throws ApiException {
		DynamicKubernetesObject site = sites.get(namespace.name(), "shop").throwsApiException().getObject();
		assertThat(site.getRaw().has("status")).as("status written").isTrue();
		return site.getRaw().getAsJsonObject("status");
	}

	private static Map<String, String> ready(JsonObject status) {
		Map<String, String> ready = new HashMap<>();
		status.getAsJsonArray("conditions")
			.asList()
			.stream()
			.map(JsonElement::getAsJsonObject)
			.filter((condition) -> condition.get("type").getAsString().equals("Ready"))
			.findFirst()
			.ifPresent((condition) -> condition.entrySet()
				.forEach((entry) -> ready.put(entry.getKey(), entry.getValue().getAsString())));
		return ready;
	}

	private static void setUnschedulable(CoreV1Api core, boolean unschedulable) {
		// kwok renews the node's status meanwhile: read and replace until no conflict
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptionsMatching((ex) -> ex instanceof ApiException api && api.getCode() == 409)
			.until(() -> {
				V1Node node = core.readNode(LocalControlPlane.NODE_NAME).execute();
				node.getSpec().setUnschedulable(unschedulable ? true : null);
				core.replaceNode(LocalControlPlane.NODE_NAME, node).execute();
				return true;
			});
	}

	private static long generation(DynamicKubernetesApi sites, TestNamespace namespace) throws ApiException {
		return sites.get(namespace.name(), "shop").throwsApiException().getObject().getMetadata().getGeneration();
	}

	private static boolean notFound(Read read) {
		try {
			read.read();
			return false;
		}
		catch (ApiException ex) {
			return ex.getCode() == 404;
		}
	}

	@FunctionalInterface
	interface Read {

		Object read() throws ApiException;

	}
	// end::helpers[]

}
