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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bad input against a real API server: a custom resource whose JSON does not fit the
 * user's class is reported with its key and skipped while the informer keeps running, and
 * an object near the API server's size limit is cached like any other.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class BadInputTests {

	private static final String CRD = """
			apiVersion: apiextensions.k8s.io/v1
			kind: CustomResourceDefinition
			metadata:
			  name: gizmos.kubeop.test
			spec:
			  group: kubeop.test
			  scope: Namespaced
			  names: {kind: Gizmo, plural: gizmos, singular: gizmo}
			  versions:
			    - name: v1
			      served: true
			      storage: true
			      schema:
			        openAPIV3Schema:
			          type: object
			          properties:
			            spec:
			              type: object
			              x-kubernetes-preserve-unknown-fields: true
			""";

	@BeforeAll
	static void install(ApiClient client) {
		new Manifests(client).apply(CRD, null);
	}

	@Test
	void objectThatDoesNotFitTheUserClassIsSkippedAndTheInformerKeepsRunning(ControlPlane controlPlane,
			ApiClient client, TestNamespace namespace) {
		Manifests manifests = new Manifests(client);
		manifests.apply(gizmo("good", "3"), namespace.name());
		manifests.apply(gizmo("bad", "\"big\""), namespace.name());
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.gizmos.api-version=kubeop.test/v1",
					"kubeop.informers.resources.gizmos.kind=Gizmo",
					"kubeop.informers.resources.gizmos.type=" + Gizmo.class.getName(),
					"kubeop.informers.resources.gizmos.namespaces=" + namespace.name())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> informer = context.getBean("gizmosInformer", ResourceInformer.class);
				@SuppressWarnings("unchecked")
				Lister<Gizmo> gizmos = (Lister<Gizmo>) context.getBean("gizmosLister", Lister.class);
				assertThat(gizmos.namespace(namespace.name()).get("good").spec.size).isEqualTo(3);
				assertThat(gizmos.namespace(namespace.name()).get("bad")).isNull();
				assertThat(informer.skippedObjects()).isEqualTo(1);
				manifests.apply(gizmo("later", "5"), namespace.name());
				manifests.apply(gizmo("bad", "\"bigger\""), namespace.name());
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(gizmos.namespace(namespace.name()).get("later")).isNotNull());
				await().atMost(Duration.ofSeconds(10)).until(() -> informer.skippedObjects() == 2);
				assertThat(informer.status().state()).isEqualTo(WatchState.WATCHING);
				assertThat(informer.status().lastError()).isNull();
			});
	}

	@Test
	void objectThatDoesNotFitTheUserClassIsSkippedInAListOfSeveralPages(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		// a namespace of its own, so that the other tests' gizmos do not count
		String paged = namespace.name() + "-paged";
		KubernetesObjects.namespace(client, paged);
		try {
			Manifests manifests = new Manifests(client);
			// in pages of two: [a, b], [b-bad, c], [d]
			for (String name : List.of("a", "b", "c", "d")) {
				manifests.apply(gizmo(name, "1"), paged);
			}
			manifests.apply(gizmo("b-bad", "\"big\""), paged);
			List<HttpUrl> listRequests = new CopyOnWriteArrayList<>();
			ApiClient listing = controlPlane.apiClient();
			listing.setHttpClient(listing.getHttpClient().newBuilder().addInterceptor((chain) -> {
				HttpUrl url = chain.request().url();
				if (url.encodedPath().endsWith("/gizmos") && url.queryParameter("watch") == null) {
					listRequests.add(url);
				}
				return chain.proceed(chain.request());
			}).build());
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
						KubeopInformersAutoConfiguration.class))
				.withBean(ApiClient.class, () -> listing)
				// pages are what this test is about
				.withPropertyValues("kubeop.informers.page-size=2", "kubeop.informers.list-strategy=list",
						"kubeop.informers.resources.gizmos.api-version=kubeop.test/v1",
						"kubeop.informers.resources.gizmos.kind=Gizmo",
						"kubeop.informers.resources.gizmos.type=" + Gizmo.class.getName(),
						"kubeop.informers.resources.gizmos.namespaces=" + paged)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					ResourceInformer<?> informer = context.getBean("gizmosInformer", ResourceInformer.class);
					@SuppressWarnings("unchecked")
					Lister<Gizmo> gizmos = (Lister<Gizmo>) context.getBean("gizmosLister", Lister.class);
					assertThat(KubernetesObjects.names(gizmos.list())).containsExactly("a", "b", "c", "d");
					assertThat(informer.skippedObjects()).isEqualTo(1);
					assertThat(listRequests).hasSize(3);
					assertThat(listRequests.subList(1, listRequests.size()))
						.allSatisfy((url) -> assertThat(url.queryParameter("continue")).isNotBlank());
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertThat(informer.status().state()).isEqualTo(WatchState.WATCHING));
					assertThat(informer.status().lastError()).isNull();
				});
		}
		finally {
			new CoreV1Api(client).deleteNamespace(paged).execute();
		}
	}

	@Test
	void objectNearTheSizeLimitIsCached(ControlPlane controlPlane, ApiClient client, TestNamespace namespace)
			throws Exception {
		String megabyte = "x".repeat(1_000_000);
		KubernetesObjects.configMap(client, namespace.name(), "large", Map.of());
		V1ConfigMap large = new io.kubernetes.client.openapi.apis.CoreV1Api(client)
			.readNamespacedConfigMap("large", namespace.name())
			.execute();
		large.setData(Map.of("blob", megabyte));
		new io.kubernetes.client.openapi.apis.CoreV1Api(client)
			.replaceNamespacedConfigMap("large", namespace.name(), large)
			.execute();
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1ConfigMap> settings = KubernetesObjects.lister(context, V1ConfigMap.class);
				assertThat(settings.namespace(namespace.name()).get("large").getData().get("blob")).hasSize(1_000_000);
			});
	}

	private static String gizmo(String name, String size) {
		return """
				apiVersion: kubeop.test/v1
				kind: Gizmo
				metadata:
				  name: %s
				spec:
				  size: %s
				""".formatted(name, size);
	}

	/**
	 * A user's class for the Gizmo custom resource.
	 */
	public static class Gizmo implements KubernetesObject {

		String apiVersion;

		String kind;

		V1ObjectMeta metadata;

		Spec spec;

		@Override
		public V1ObjectMeta getMetadata() {
			return this.metadata;
		}

		@Override
		public String getApiVersion() {
			return this.apiVersion;
		}

		@Override
		public String getKind() {
			return this.kind;
		}

		static class Spec {

			int size;

		}

	}

}
