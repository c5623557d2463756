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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.github.kubeop.annotation.InformerTransform;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.StandardTransform;
import io.github.kubeop.informer.TransformFunction;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static io.github.kubeop.autoconfigure.KubernetesObjects.lister;
import static io.github.kubeop.autoconfigure.KubernetesObjects.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The memory features against a real API server: metadata-only informers list and watch
 * real objects through the server's content negotiation, and transforms change what the
 * cache and the handlers see, for listed and for watched objects.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class MemoryIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void metadataOnlyInformerListsAndWatchesConfigMapsAsTheirMetadata(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedConfigMap(namespace.name(), configMap("listed", "metadata-only")).execute();
		List<String> exchanges = new CopyOnWriteArrayList<>();
		MetadataHandler handler = new MetadataHandler();
		this.runner.withBean(ApiClient.class, () -> recording(controlPlane.apiClient(), exchanges))
			.withBean(MetadataHandler.class, () -> handler)
			.withPropertyValues(informer("meta", "ConfigMap", namespace, "metadata-only"))
			.withPropertyValues("kubeop.informers.resources.meta.metadata-only=true",
					// a paged list, whose answer shows what the server sent; the
					// watch-list
					// asks with the same Accept header, checked below for the watch
					"kubeop.informers.list-strategy=list")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<PartialObjectMetadata> lister = lister(context, PartialObjectMetadata.class);
				assertThat(context.getBean("metaLister")).isSameAs(lister);
				PartialObjectMetadata listed = lister.namespace(namespace.name()).get("listed");
				assertThat(listed.getApiVersion()).isEqualTo("v1");
				assertThat(listed.getKind()).isEqualTo("ConfigMap");
				assertThat(listed.getMetadata().getLabels()).containsEntry("note", "kept");
				assertThat(listed.getMetadata().getAnnotations()).containsEntry("owner", "team-a");
				assertThat(listed.getMetadata().getManagedFields()).isNullOrEmpty();
				// the server, not Kubeop, dropped the data: it answered with metadata
				// only
				assertThat(exchanges).anyMatch((exchange) -> exchange.startsWith("list PartialObjectMetadataList"));
				assertThat(exchanges).noneMatch((exchange) -> exchange.startsWith("list ConfigMapList"));
				await().atMost(TIMEOUT).until(() -> handler.calls.contains("add listed"));

				api.createNamespacedConfigMap(namespace.name(), configMap("watched", "metadata-only")).execute();
				await().atMost(TIMEOUT).until(() -> handler.calls.contains("add watched"));
				assertThat(exchanges).anyMatch((exchange) -> exchange.startsWith("watch ")
						&& exchange.contains("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"));
				V1ConfigMap changed = api.readNamespacedConfigMap("watched", namespace.name()).execute();
				changed.getMetadata().putLabelsItem("note", "changed");
				api.replaceNamespacedConfigMap("watched", namespace.name(), changed).execute();
				await().atMost(TIMEOUT).until(() -> handler.calls.contains("update watched kept -> changed"));
				assertThat(lister.namespace(namespace.name()).get("watched").getMetadata().getLabels())
					.containsEntry("note", "changed");
				api.deleteNamespacedConfigMap("watched", namespace.name()).execute();
				await().atMost(TIMEOUT).until(() -> handler.calls.contains("delete watched"));
				assertThat(lister.namespace(namespace.name()).get("watched")).isNull();
				assertThat(handler.objects).allSatisfy((object) -> {
					assertThat(object).isInstanceOf(PartialObjectMetadata.class);
					assertThat(object.getKind()).isEqualTo("ConfigMap");
				});
			});
	}

	@Test
	void handlerTakingTheFullTypeFromAMetadataOnlyInformerFailsStartupNamingTheMethod(ControlPlane controlPlane,
			TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(FullTypeHandler.class, FullTypeHandler::new)
			.withPropertyValues(informer("meta", "ConfigMap", namespace, "full-type"))
			.withPropertyValues("kubeop.informers.resources.meta.metadata-only=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(failure).hasMessageContaining(FullTypeHandler.class.getName() + ".added(V1ConfigMap)")
					.hasMessageContaining("kubeop.informers.resources.meta.metadata-only")
					.hasMessageContaining(PartialObjectMetadata.class.getName());
			});
	}

	@Test
	void handlerTakingMetadataWithoutAMetadataOnlyInformerFailsStartupSayingHowToDeclareOne(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(UnboundMetadataHandler.class, UnboundMetadataHandler::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
				assertThat(failure).hasMessageContaining("takes PartialObjectMetadata")
					.hasMessageContaining("kubeop.informers.resources.<name>.metadata-only=true");
			});
	}

	@Test
	void metadataOnlyWithAnotherTypeFailsStartupNamingTheTypeProperty(ControlPlane controlPlane,
			TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues(informer("meta", "ConfigMap", namespace, "typed"))
			.withPropertyValues("kubeop.informers.resources.meta.metadata-only=true",
					"kubeop.informers.resources.meta.type=" + V1ConfigMap.class.getName())
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.resources.meta.type");
				assertThat(failure.getReason()).contains("metadata-only");
			});
	}

	@Test
	void transformBeansChangeListedAndWatchedObjectsInTheCacheAndInHandlers(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedConfigMap(namespace.name(), configMap("redact-listed", "transforms")).execute();
		SettingsHandler handler = new SettingsHandler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withUserConfiguration(Transforms.class)
			.withBean(SettingsHandler.class, () -> handler)
			.withPropertyValues(informer("settings", "ConfigMap", namespace, "transforms"))
			.withPropertyValues("kubeop.informers.resources.settings.transforms=redact")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1ConfigMap> lister = lister(context, V1ConfigMap.class);
				api.createNamespacedConfigMap(namespace.name(), configMap("redact-watched", "transforms")).execute();
				await().atMost(TIMEOUT).until(() -> handler.objects.size() == 2);
				for (String name : List.of("redact-listed", "redact-watched")) {
					assertTransformed(lister.namespace(namespace.name()).get(name));
				}
				assertThat(handler.objects).allSatisfy(MemoryIntegrationTests::assertTransformed);
			});
	}

	@Test
	void transformThatThrowsSkipsTheObjectAndTheInformerGoesOn(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedConfigMap(namespace.name(), configMap("poison-listed", "throwing")).execute();
		api.createNamespacedConfigMap(namespace.name(), configMap("fine-listed", "throwing")).execute();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withUserConfiguration(Transforms.class)
			.withPropertyValues(informer("settings", "ConfigMap", namespace, "throwing"))
			.withPropertyValues("kubeop.informers.resources.settings.transforms=poisonous")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1ConfigMap> lister = lister(context, V1ConfigMap.class);
				assertThat(names(lister.list())).containsExactly("fine-listed");
				api.createNamespacedConfigMap(namespace.name(), configMap("poison-watched", "throwing")).execute();
				// the sentinel: created after the poisoned one, so once it is cached the
				// poisoned one has been handled too
				api.createNamespacedConfigMap(namespace.name(), configMap("fine-watched", "throwing")).execute();
				await().atMost(TIMEOUT).until(() -> lister.namespace(namespace.name()).get("fine-watched") != null);
				assertThat(names(lister.list())).containsExactly("fine-listed", "fine-watched");
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				assertThat(informer.skippedObjects()).isGreaterThanOrEqualTo(2);
				assertThat(informer.hasSynced()).isTrue();
			});
	}

	@Test
	void readyMadeTransformsByPropertyStripListedAndWatchedPods(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedPod(namespace.name(), pod("listed", "ready-made")).execute();
		PodHandler handler = new PodHandler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(PodHandler.class, () -> handler)
			.withPropertyValues(informer("pods", "Pod", namespace, "ready-made"))
			.withPropertyValues(
					"kubeop.informers.resources.pods.transforms=strip-last-applied-configuration, strip-status")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean("podsInformer", ResourceInformer.class).spec().standardTransforms())
					.containsExactlyInAnyOrder(StandardTransform.STRIP_MANAGED_FIELDS,
							StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION, StandardTransform.STRIP_STATUS,
							StandardTransform.DEDUPLICATE_STRINGS);
				Lister<V1Pod> lister = lister(context, V1Pod.class);
				api.createNamespacedPod(namespace.name(), pod("watched", "ready-made")).execute();
				await().atMost(TIMEOUT).until(() -> handler.objects.size() == 2);
				for (String name : List.of("listed", "watched")) {
					assertStripped(lister.namespace(namespace.name()).get(name));
				}
				assertThat(handler.objects).allSatisfy(MemoryIntegrationTests::assertStripped);
			});
	}

	@Test
	void handlersGetPodsSharingTheirRepeatedStringsByDefault(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedPod(namespace.name(), pod("lean-listed", "lean")).execute();
		PodHandler handler = new PodHandler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(PodHandler.class, () -> handler)
			.withPropertyValues(informer("pods", "Pod", namespace, "lean"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean("podsInformer", ResourceInformer.class).spec().standardTransforms())
					.contains(StandardTransform.DEDUPLICATE_STRINGS);
				api.createNamespacedPod(namespace.name(), pod("lean-watched", "lean")).execute();
				await().atMost(TIMEOUT).until(() -> handler.objects.size() == 2);
				V1Pod first = handler.objects.get(0);
				V1Pod second = handler.objects.get(1);
				assertThat(first.getMetadata().getNamespace()).isSameAs(second.getMetadata().getNamespace());
				assertThat(first.getMetadata().getLabels().get("test"))
					.isSameAs(second.getMetadata().getLabels().get("test"));
				assertThat(first.getSpec().getContainers().get(0).getImage())
					.isSameAs(second.getSpec().getContainers().get(0).getImage());
			});
	}

	@Test
	void leanOffByPropertyKeepsEachPodsOwnStrings(ControlPlane controlPlane, ApiClient client, TestNamespace namespace)
			throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedPod(namespace.name(), pod("fat-listed", "fat")).execute();
		PodHandler handler = new PodHandler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(PodHandler.class, () -> handler)
			.withPropertyValues(informer("pods", "Pod", namespace, "fat"))
			.withPropertyValues("kubeop.informers.resources.pods.lean=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean("podsInformer", ResourceInformer.class).spec().standardTransforms())
					.doesNotContain(StandardTransform.DEDUPLICATE_STRINGS);
				api.createNamespacedPod(namespace.name(), pod("fat-watched", "fat")).execute();
				await().atMost(TIMEOUT).until(() -> handler.objects.size() == 2);
				V1Pod first = handler.objects.get(0);
				V1Pod second = handler.objects.get(1);
				assertThat(first.getMetadata().getNamespace()).isEqualTo(second.getMetadata().getNamespace())
					.isNotSameAs(second.getMetadata().getNamespace());
			});
	}

	@Test
	void unknownTransformFailsStartupNamingTheProperty(ControlPlane controlPlane, TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues(informer("settings", "ConfigMap", namespace, "unknown"))
			.withPropertyValues("kubeop.informers.resources.settings.transforms=strip-everything")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.resources.settings.transforms");
				assertThat(failure.getValue()).isEqualTo("strip-everything");
				assertThat(failure.getReason())
					.contains("strip-managed-fields, strip-last-applied-configuration, " + "strip-status");
			});
	}

	@Test
	void transformOfAnotherTypeFailsStartupNamingTheProperty(ControlPlane controlPlane, TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withUserConfiguration(Transforms.class)
			.withPropertyValues(informer("pods", "Pod", namespace, "other-type"))
			.withPropertyValues("kubeop.informers.resources.pods.transforms=redact")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.resources.pods.transforms");
				assertThat(failure.getValue()).isEqualTo("redact");
				assertThat(failure.getReason()).contains("does not take " + V1Pod.class.getName());
			});
	}

	private static void assertTransformed(V1ConfigMap configMap) {
		assertThat(configMap.getData()).containsOnlyKeys("k");
		// the property's transform ran first, then the annotated one
		assertThat(configMap.getMetadata().getAnnotations()).containsEntry("transformed", "redact,stamp");
	}

	private static void assertStripped(V1Pod pod) {
		assertThat(pod.getStatus()).isNull();
		assertThat(pod.getMetadata().getAnnotations()).containsOnlyKeys("owner");
		assertThat(pod.getMetadata().getManagedFields()).isNullOrEmpty();
		assertThat(pod.getSpec().getContainers()).isNotEmpty();
	}

	private static String[] informer(String name, String kind, TestNamespace namespace, String test) {
		String prefix = "kubeop.informers.resources." + name + ".";
		return new String[] { prefix + "api-version=v1", prefix + "kind=" + kind,
				prefix + "namespaces=" + namespace.name(), prefix + "label-selector=test=" + test };
	}

	private static V1ConfigMap configMap(String name, String test) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(name)
				.labels(Map.of("test", test, "note", "kept"))
				.annotations(Map.of("owner", "team-a")))
			.data(Map.of("k", "v", "secret", "s3cr3t"));
	}

	private static V1Pod pod(String name, String test) {
		// the generated model sends an empty overhead map, which the RuntimeClass
		// admission plugin rejects without a RuntimeClass
		V1PodSpec spec = new V1PodSpec().addContainersItem(new V1Container().name("main").image("busybox"))
			.overhead(null);
		return new V1Pod().metadata(new V1ObjectMeta().name(name)
			.labels(Map.of("test", test))
			.annotations(Map.of("owner", "team-a", StandardTransform.LAST_APPLIED_CONFIGURATION,
					"{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}")))
			.spec(spec);
	}

	/**
	 * Records what the API server answered to lists (the kind of the list) and what
	 * watches accepted, so that a test can tell that the server sent metadata only.
	 */
	private static ApiClient recording(ApiClient client, List<String> exchanges) {
		Interceptor interceptor = (chain) -> {
			Response response = chain.proceed(chain.request());
			String url = chain.request().url().toString();
			if (url.contains("watch=true")) {
				exchanges.add("watch " + chain.request().header("Accept"));
			}
			else if (url.contains("/configmaps")) {
				String contentType = String.valueOf(response.header("Content-Type"));
				byte[] body = response.peekBody(1024 * 1024).bytes();
				String kind = contentType.startsWith("application/vnd.kubernetes.protobuf") ? protobufKind(body)
						: new String(body, StandardCharsets.UTF_8).replaceAll("(?s)^.*?\"kind\":\"([^\"]*)\".*$", "$1");
				exchanges.add("list " + kind);
			}
			return response;
		};
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(interceptor).build());
		return client;
	}

	/**
	 * Returns the kind of a protobuf answer: after {@code k8s\0}, a
	 * {@code runtime.Unknown} whose first field is its type meta (apiVersion 1, kind 2).
	 */
	private static String protobufKind(byte[] body) throws IOException {
		CodedInputStream in = CodedInputStream.newInstance(body, 4, body.length - 4);
		in.readTag();
		in.pushLimit(in.readRawVarint32());
		String kind = "";
		int tag;
		while ((tag = in.readTag()) != 0) {
			if (WireFormat.getTagFieldNumber(tag) == 2) {
				kind = in.readString();
			}
			else {
				in.skipField(tag);
			}
		}
		return kind;
	}

	private static <T extends Throwable> T rootCause(Throwable failure, Class<T> type) {
		Throwable cause = failure;
		while (cause != null) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
			cause = cause.getCause();
		}
		throw new AssertionError("No " + type.getSimpleName() + " in " + failure, failure);
	}

	static class MetadataHandler {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<PartialObjectMetadata> objects = new CopyOnWriteArrayList<>();

		@OnAdd(informer = "meta")
		void added(PartialObjectMetadata object) {
			this.objects.add(object);
			this.calls.add("add " + object.getMetadata().getName());
		}

		@OnUpdate(informer = "meta")
		void updated(PartialObjectMetadata old, PartialObjectMetadata object) {
			this.objects.add(object);
			this.calls.add("update " + object.getMetadata().getName() + " " + old.getMetadata().getLabels().get("note")
					+ " -> " + object.getMetadata().getLabels().get("note"));
		}

		@OnDelete(informer = "meta")
		void deleted(PartialObjectMetadata object) {
			this.objects.add(object);
			this.calls.add("delete " + object.getMetadata().getName());
		}

	}

	static class FullTypeHandler {

		@OnAdd(informer = "meta")
		void added(V1ConfigMap configMap) {
		}

	}

	static class UnboundMetadataHandler {

		@OnAdd
		void added(PartialObjectMetadata object) {
		}

	}

	static class SettingsHandler {

		final List<V1ConfigMap> objects = new CopyOnWriteArrayList<>();

		@OnAdd(informer = "settings")
		void added(V1ConfigMap configMap) {
			this.objects.add(configMap);
		}

	}

	static class PodHandler {

		final List<V1Pod> objects = new CopyOnWriteArrayList<>();

		@OnAdd(informer = "pods")
		void added(V1Pod pod) {
			this.objects.add(pod);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Transforms {

		@Bean
		TransformFunction<V1ConfigMap> redact() {
			return (configMap) -> {
				configMap.getData().remove("secret");
				configMap.getMetadata().putAnnotationsItem("transformed", "redact");
				return configMap;
			};
		}

		@Bean
		@InformerTransform("settings")
		TransformFunction<V1ConfigMap> stamp() {
			return (configMap) -> {
				String before = configMap.getMetadata().getAnnotations().get("transformed");
				configMap.getMetadata().putAnnotationsItem("transformed", before + ",stamp");
				return configMap;
			};
		}

		@Bean
		TransformFunction<V1ConfigMap> poisonous() {
			return (configMap) -> {
				if (configMap.getMetadata().getName().startsWith("poison")) {
					throw new IllegalStateException("poisoned");
				}
				return configMap;
			};
		}

	}

}
