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

import io.github.kubeop.annotation.InformerIndex;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.informer.DynamicObjects;
import io.github.kubeop.informer.IndexFunction;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import okhttp3.Interceptor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static io.github.kubeop.autoconfigure.KubernetesObjects.configMap;
import static io.github.kubeop.autoconfigure.KubernetesObjects.indexer;
import static io.github.kubeop.autoconfigure.KubernetesObjects.lister;
import static io.github.kubeop.autoconfigure.KubernetesObjects.names;
import static io.github.kubeop.autoconfigure.KubernetesObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Informers from properties against a real API server: typed Lister and Indexer beans,
 * scopes and selectors, custom indexes, custom resources without a model.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class InformersIntegrationTests {

	private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

	private static String namespace;

	private static String other;

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class));

	@BeforeAll
	static void createObjects(ApiClient client, TestNamespace testNamespace) throws Exception {
		namespace = testNamespace.name();
		other = namespace + "-other";
		KubernetesObjects.namespace(client, other);
		pod(client, namespace, "web", Map.of("app", "web"));
		pod(client, namespace, "db", Map.of("app", "db"));
		pod(client, other, "web-elsewhere", Map.of("app", "web"));
		configMap(client, namespace, "web-settings", Map.of("app", "web"));
		configMap(client, namespace, "db-settings", Map.of("app", "db"));
		configMap(client, other, "web-settings", Map.of("app", "web"));
	}

	@Test
	void typedListersAndIndexersHoldWhatNamespaceAndLabelSelectorSelect(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace,
					"kubeop.informers.resources.pods.api-version=v1", "kubeop.informers.resources.pods.kind=Pod",
					"kubeop.informers.resources.pods.label-selector=app=web",
					"kubeop.informers.resources.config-maps.api-version=v1",
					"kubeop.informers.resources.config-maps.kind=ConfigMap",
					"kubeop.informers.resources.config-maps.namespaces=" + namespace + "," + other,
					"kubeop.informers.resources.config-maps.label-selector=app in (web)")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1Pod> pods = lister(context, V1Pod.class);
				assertThat(names(pods.list())).containsExactly("web");
				assertThat(pods.namespace(namespace).get("web").getMetadata().getLabels()).containsEntry("app", "web");
				assertThat(pods.namespace(namespace).get("db")).isNull();
				Indexer<V1ConfigMap> configMaps = indexer(context, V1ConfigMap.class);
				assertThat(configMaps.listKeys()).containsExactlyInAnyOrder(namespace + "/web-settings",
						other + "/web-settings");
				assertThat(names(configMaps.byIndex("namespace", other))).containsExactly("web-settings");
				assertThat(configMaps.list())
					.allSatisfy((configMap) -> assertThat(configMap.getMetadata().getManagedFields()).isNullOrEmpty());
			});
	}

	@Test
	void informersOfBuiltInKindsAskForProtobufUnlessConfiguredForJson(ControlPlane controlPlane) {
		List<Exchange> byDefault = exchangesOfPodInformer(controlPlane);
		assertThat(byDefault).isNotEmpty().allSatisfy((exchange) -> {
			assertThat(exchange.accept()).startsWith(PROTOBUF);
			assertThat(exchange.contentType()).startsWith(PROTOBUF);
		});
		List<Exchange> json = exchangesOfPodInformer(controlPlane, "kubeop.informers.encoding=json");
		assertThat(json).isNotEmpty().allSatisfy((exchange) -> {
			assertThat(exchange.accept()).doesNotContain(PROTOBUF);
			assertThat(exchange.contentType()).startsWith("application/json");
		});
	}

	/**
	 * Starts a context with an informer of the test namespace's Pods and returns, for
	 * each of its requests answered before it synced, what it accepted and the
	 * {@code Content-Type} the API server answered with.
	 */
	private List<Exchange> exchangesOfPodInformer(ControlPlane controlPlane, String... properties) {
		List<Exchange> exchanges = new CopyOnWriteArrayList<>();
		Interceptor recorder = (chain) -> {
			okhttp3.Response response = chain.proceed(chain.request());
			if (chain.request().url().encodedPath().endsWith("/namespaces/" + namespace + "/pods")) {
				exchanges.add(new Exchange(String.valueOf(chain.request().header("Accept")),
						String.valueOf(response.header("Content-Type"))));
			}
			return response;
		};
		this.runner.withBean(ApiClient.class, () -> {
			ApiClient client = controlPlane.apiClient();
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(recorder).build());
			return client;
		})
			.withPropertyValues("kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod",
					"kubeop.informers.resources.pods.namespaces=" + namespace)
			.withPropertyValues(properties)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1Pod> pods = lister(context, V1Pod.class);
				assertThat(names(pods.list())).containsExactlyInAnyOrder("db", "web");
				assertThat(pods.namespace(namespace).get("web").getMetadata().getLabels()).containsEntry("app", "web");
			});
		return List.copyOf(exchanges);
	}

	@Test
	void informersCreatedForHandlersFollowTheInformerSettings(ControlPlane controlPlane) {
		assertThat(configMapsInformerOfHandler(controlPlane)).satisfies((informer) -> {
			assertThat(informer.spec().encoding()).isEqualTo(InformerSpec.Encoding.PROTOBUF);
			assertThat(informer.exchanges()).isNotEmpty()
				.allSatisfy((exchange) -> assertThat(exchange.contentType()).startsWith(PROTOBUF));
		});
		// the way back to JSON reaches the informers that handlers need, not only the
		// configured ones
		assertThat(configMapsInformerOfHandler(controlPlane, "kubeop.informers.encoding=json",
				"kubeop.informers.page-size=7", "kubeop.informers.watch-timeout=4m",
				"kubeop.informers.stall-timeout=100s", "kubeop.informers.ping-interval=20s"))
			.satisfies((informer) -> {
				assertThat(informer.spec().encoding()).isEqualTo(InformerSpec.Encoding.JSON);
				assertThat(informer.spec().pageSize()).isEqualTo(7);
				assertThat(informer.spec().watchTimeout()).isEqualTo(Duration.ofMinutes(4));
				assertThat(informer.spec().stallTimeout()).isEqualTo(Duration.ofSeconds(100));
				assertThat(informer.spec().pingInterval()).isEqualTo(Duration.ofSeconds(20));
				assertThat(informer.exchanges()).isNotEmpty().allSatisfy((exchange) -> {
					assertThat(exchange.accept()).doesNotContain(PROTOBUF);
					assertThat(exchange.contentType()).startsWith("application/json");
				});
			});
	}

	/**
	 * Starts a context whose only informer is the one created for a handler of
	 * ConfigMaps, and returns its spec and its requests answered before it synced.
	 */
	private HandlerInformer configMapsInformerOfHandler(ControlPlane controlPlane, String... properties) {
		List<Exchange> exchanges = new CopyOnWriteArrayList<>();
		InformerSpec<?>[] spec = new InformerSpec<?>[1];
		Interceptor recorder = (chain) -> {
			okhttp3.Response response = chain.proceed(chain.request());
			if (chain.request().url().encodedPath().endsWith("/namespaces/" + namespace + "/configmaps")) {
				exchanges.add(new Exchange(String.valueOf(chain.request().header("Accept")),
						String.valueOf(response.header("Content-Type"))));
			}
			return response;
		};
		this.runner.withConfiguration(AutoConfigurations.of(KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, () -> {
				ApiClient client = controlPlane.apiClient();
				client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(recorder).build());
				return client;
			})
			.withBean(ConfigMapHandler.class)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace)
			.withPropertyValues(properties)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> informer = context.getBean(InformerRegistry.class)
					.informers()
					.stream()
					.filter((candidate) -> candidate.spec().type() == V1ConfigMap.class)
					.findFirst()
					.orElseThrow();
				await().atMost(Duration.ofSeconds(60)).until(informer::hasSynced);
				assertThat(informer.indexer().listKeys()).contains(namespace + "/web-settings");
				spec[0] = informer.spec();
			});
		return new HandlerInformer(spec[0], List.copyOf(exchanges));
	}

	/**
	 * The spec of an informer created for a handler, and its requests.
	 */
	private record HandlerInformer(InformerSpec<?> spec, List<Exchange> exchanges) {

	}

	/**
	 * A handler of ConfigMaps, which no configured informer holds.
	 */
	static class ConfigMapHandler {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

	}

	/**
	 * What a request accepted and the {@code Content-Type} of its response.
	 */
	private record Exchange(String accept, String contentType) {

	}

	@Test
	void listerFollowsChangesMadeThroughTheApiServer(ControlPlane controlPlane, ApiClient client) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace,
					// only the test's objects: a cluster with a controller-manager (K3s)
					// adds kube-root-ca.crt to every namespace
					"kubeop.informers.resources.settings.label-selector=app")
			.run((context) -> {
				Lister<V1ConfigMap> settings = lister(context, V1ConfigMap.class);
				assertThat(names(settings.list())).containsExactly("db-settings", "web-settings");
				configMap(client, namespace, "cache-settings", Map.of("app", "cache"));
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(settings.namespace(namespace).get("cache-settings")).isNotNull());
				new CoreV1Api(client).deleteNamespacedConfigMap("cache-settings", namespace).execute();
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(settings.namespace(namespace).get("cache-settings")).isNull());
			});
	}

	@Test
	void podsAreFoundByIpThroughACustomIndex(ControlPlane controlPlane, ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		V1Pod web = api.readNamespacedPod("web", namespace).execute();
		web.status(new V1PodStatus().podIP("10.1.2.3").phase("Running"));
		api.replaceNamespacedPodStatus("web", namespace, web).execute();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withUserConfiguration(PodIpIndexConfiguration.class)
			.withPropertyValues("kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod",
					"kubeop.informers.resources.pods.namespaces=" + namespace,
					"kubeop.informers.resources.pods.indexers=podsByIp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Indexer<V1Pod> pods = indexer(context, V1Pod.class);
				assertThat(names(pods.byIndex("podsByIp", "10.1.2.3"))).containsExactly("web");
				V1Pod moved = api.readNamespacedPod("web", namespace).execute();
				moved.getStatus().podIP("10.9.9.9");
				api.replaceNamespacedPodStatus("web", namespace, moved).execute();
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(
							() -> assertThat(names(pods.byIndex("podsByIp", "10.9.9.9"))).containsExactly("web"));
				assertThat(pods.byIndex("podsByIp", "10.1.2.3")).isEmpty();
			});
	}

	@Test
	void indexFunctionBeanIsAttachedByAnnotation(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withUserConfiguration(AppLabelIndexConfiguration.class)
			.withPropertyValues("kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod",
					"kubeop.informers.resources.pods.namespaces=" + namespace)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Indexer<V1Pod> pods = indexer(context, V1Pod.class);
				assertThat(pods.getIndexers()).containsKey("podsByApp");
				assertThat(names(pods.byIndex("podsByApp", "db"))).containsExactly("db");
			});
	}

	@Test
	void twoScopesOfOneTypeAreTwoInformersInjectableByQualifier(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withUserConfiguration(TwoScopesConsumer.class)
			// only the test's objects (labelled "app"): a cluster with a
			// controller-manager
			// (K3s) adds kube-root-ca.crt to every namespace
			.withPropertyValues("kubeop.informers.resources.here.api-version=v1",
					"kubeop.informers.resources.here.kind=ConfigMap",
					"kubeop.informers.resources.here.namespaces=" + namespace,
					"kubeop.informers.resources.here.label-selector=app",
					"kubeop.informers.resources.there.api-version=v1",
					"kubeop.informers.resources.there.kind=ConfigMap",
					"kubeop.informers.resources.there.namespaces=" + other,
					"kubeop.informers.resources.there.label-selector=app",
					"kubeop.informers.resources.there-again.api-version=v1",
					"kubeop.informers.resources.there-again.kind=ConfigMap",
					"kubeop.informers.resources.there-again.namespaces=" + other,
					"kubeop.informers.resources.there-again.label-selector=app")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				TwoScopesConsumer consumer = context.getBean(TwoScopesConsumer.class);
				assertThat(consumer.here.list()).extracting((configMap) -> configMap.getMetadata().getNamespace())
					.containsOnly(namespace)
					.hasSize(2);
				assertThat(consumer.there.list()).extracting((configMap) -> configMap.getMetadata().getNamespace())
					.containsOnly(other)
					.hasSize(1);
				assertThat(context.getBean(InformerRegistry.class).informers()).hasSize(2);
				assertThat(context.getBean("thereInformer")).isSameAs(context.getBean("there-againInformer"));
			});
	}

	@Test
	void customResourceWithoutAModelIsWatchedAndConvertedToAUserRecord(ControlPlane controlPlane, ApiClient client)
			throws Exception {
		installWidgetDefinition(client);
		DynamicKubernetesApi widgets = new DynamicKubernetesApi("kubeop.test", "v1", "widgets", client);
		JsonObject widget = JsonParser
			.parseString("{\"apiVersion\":\"kubeop.test/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"sprocket\","
					+ "\"namespace\":\"" + namespace + "\"},\"spec\":{\"size\":3,\"color\":\"teal\"}}")
			.getAsJsonObject();
		widgets.create(new DynamicKubernetesObject(widget)).throwsApiException();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.widgets.api-version=kubeop.test/v1",
					"kubeop.informers.resources.widgets.kind=Widget",
					"kubeop.informers.resources.widgets.namespaces=" + namespace)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<DynamicKubernetesObject> lister = lister(context, DynamicKubernetesObject.class);
				DynamicKubernetesObject found = lister.namespace(namespace).get("sprocket");
				assertThat(found.getKind()).isEqualTo("Widget");
				assertThat(found.getRaw().getAsJsonObject("metadata").has("managedFields")).isFalse();
				Widget converted = DynamicObjects.convert(found, Widget.class);
				assertThat(converted)
					.isEqualTo(new Widget(new Widget.Metadata("sprocket", namespace), new Widget.Spec(3, "teal")));
			});
	}

	static void installWidgetDefinition(ApiClient client) throws Exception {
		// raw JSON: the generated CRD model sends empty 'dependencies' maps, which the
		// API
		// server rejects
		String definition = """
				{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				 "metadata": {"name": "widgets.kubeop.test"},
				 "spec": {"group": "kubeop.test", "scope": "Namespaced",
				  "names": {"kind": "Widget", "plural": "widgets", "singular": "widget"},
				  "versions": [{"name": "v1", "served": true, "storage": true,
				   "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
				    "properties": {"size": {"type": "integer"}, "color": {"type": "string"}}}}}}}]}}""";
		DynamicKubernetesApi definitions = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", client);
		KubernetesApiResponse<DynamicKubernetesObject> created = definitions
			.create(new DynamicKubernetesObject(JsonParser.parseString(definition).getAsJsonObject()));
		if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
			created.throwsApiException();
		}
		ApiextensionsV1Api extensions = new ApiextensionsV1Api(client);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> extensions.readCustomResourceDefinition("widgets.kubeop.test")
				.execute()
				.getStatus()
				.getConditions()
				.stream()
				.anyMatch((condition) -> condition.getType().equals("Established")
						&& condition.getStatus().equals("True")));
	}

	record Widget(Metadata metadata, Spec spec) {

		record Metadata(String name, String namespace) {

		}

		record Spec(int size, String color) {

		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PodIpIndexConfiguration {

		@Bean
		IndexFunction<V1Pod> podsByIp() {
			return (pod) -> (pod.getStatus() != null && pod.getStatus().getPodIP() != null)
					? List.of(pod.getStatus().getPodIP()) : List.of();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AppLabelIndexConfiguration {

		@Bean
		@InformerIndex("pods")
		IndexFunction<V1Pod> podsByApp() {
			return (pod) -> List.of(pod.getMetadata().getLabels().getOrDefault("app", ""));
		}

	}

	static class TwoScopesConsumer {

		final Lister<V1ConfigMap> here;

		final Lister<V1ConfigMap> there;

		TwoScopesConsumer(@Qualifier("hereLister") Lister<V1ConfigMap> here,
				@Qualifier("thereLister") Lister<V1ConfigMap> there) {
			this.here = here;
			this.there = there;
		}

	}

}
