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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.typed.Gadget;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Informers of built-in kinds on the protobuf encoding, against a real API server: they
 * ask for protobuf, read the paged lists, watch-lists and watches the server answers in
 * it (short watches, reopened every few seconds), apply their transforms, and hold
 * exactly what an informer on JSON holds; a custom resource, and a server that answers
 * JSON, are read as JSON.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ProtobufInformerIntegrationTests {

	private static final String LAST_APPLIED = StandardTransform.LAST_APPLIED_CONFIGURATION;

	@Test
	void watchListAndWatchOnProtobufHoldWhatJsonHolds(ControlPlane controlPlane, ApiClient direct) throws Exception {
		assertSameCacheAsJson(controlPlane, direct, ListStrategy.WATCH_LIST, "proto-watch-list");
	}

	@Test
	void pagedListAndWatchOnProtobufHoldWhatJsonHolds(ControlPlane controlPlane, ApiClient direct) throws Exception {
		assertSameCacheAsJson(controlPlane, direct, ListStrategy.LIST, "proto-list");
	}

	private void assertSameCacheAsJson(ControlPlane controlPlane, ApiClient direct, ListStrategy strategy,
			String prefix) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, prefix);
		for (int i = 0; i < 12; i++) {
			create(api, namespace, "item-" + i);
		}
		Exchanges exchanges = new Exchanges();
		ApiClient client = controlPlane.apiClient();
		ExpireNextWatch expiry = new ExpireNextWatch();
		client.setHttpClient(
				client.getHttpClient().newBuilder().addInterceptor(exchanges).addInterceptor(expiry).build());
		// a registry each: informers that differ only in their encoding are one informer
		InformerRegistry jsonRegistry = new InformerRegistry(client);
		InformerRegistry registry = new InformerRegistry(client);
		jsonRegistry.setListStrategy(strategy);
		registry.setListStrategy(strategy);
		InformerSpec<V1ConfigMap> spec = InformerSpec.of("json", "v1", "ConfigMap", V1ConfigMap.class)
			.withNamespaces(namespace)
			.withPageSize(5)
			// watches that end within seconds: the watch after a watch-list comes soon
			.withWatchTimeouts(Duration.ofSeconds(3), InformerSpec.DEFAULT_STALL_TIMEOUT)
			.withStandardTransforms(StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION,
					StandardTransform.DEDUPLICATE_STRINGS)
			.withTransform((configMap) -> configMap.putDataItem("transformed", "yes"));
		ResourceInformer<V1ConfigMap> json = jsonRegistry.informer(spec.withEncoding(InformerSpec.Encoding.JSON));
		ResourceInformer<V1ConfigMap> protobuf = registry.informer(spec.withEncoding(InformerSpec.Encoding.PROTOBUF));
		long decodedBefore = ProtobufDecoder.decodedObjects();
		jsonRegistry.start();
		registry.start();
		try {
			jsonRegistry.awaitSync(Duration.ofSeconds(60));
			registry.awaitSync(Duration.ofSeconds(60));
			assertThat(protobuf.lister().list()).hasSize(12);
			assertThat(protobuf.lister().namespace(namespace).get("item-0").getData()).containsEntry("transformed",
					"yes");
			assertThat(protobuf.lister().namespace(namespace).get("item-0").getMetadata().getAnnotations())
				.containsKey("team")
				.doesNotContainKey(LAST_APPLIED);
			// changes while watching
			V1ConfigMap changed = api.readNamespacedConfigMap("item-1", namespace).execute();
			changed.putDataItem("v", "2");
			api.replaceNamespacedConfigMap("item-1", namespace, changed).execute();
			api.deleteNamespacedConfigMap("item-2", namespace).execute();
			create(api, namespace, "sentinel-1");
			awaitSame(json, protobuf, namespace, "sentinel-1");
			assertThat(protobuf.lister().namespace(namespace).get("item-1").getData()).containsEntry("v", "2");
			assertThat(protobuf.lister().namespace(namespace).get("item-2")).isNull();
			// a watch that fails with 410 Gone, sent in protobuf: a relist
			long relists = protobuf.status().relists();
			expiry.expireNext();
			create(api, namespace, "sentinel-2");
			await().atMost(Duration.ofSeconds(60)).until(() -> protobuf.status().relists() > relists);
			awaitSame(json, protobuf, namespace, "sentinel-2");
			assertThat(expiry.expired).isTrue();
			// every response to the protobuf informer was protobuf, every one to the
			// other JSON, and the protobuf informer's objects came through the decoder
			assertThat(exchanges.of(namespace, "protobuf")).isNotEmpty().allSatisfy((exchange) -> {
				assertThat(exchange.accept()).startsWith(ProtobufDecoder.MEDIA_TYPE);
				assertThat(exchange.contentType()).startsWith(ProtobufDecoder.MEDIA_TYPE);
			});
			assertThat(exchanges.of(namespace, "json")).isNotEmpty()
				.allSatisfy((exchange) -> assertThat(exchange.contentType()).startsWith("application/json"));
			assertThat(exchanges.of(namespace, "protobuf"))
				.anySatisfy((exchange) -> assertThat(exchange.url().queryParameter("watch")).isEqualTo("true"));
			assertThat(ProtobufDecoder.decodedObjects() - decodedBefore).isGreaterThanOrEqualTo(15);
		}
		finally {
			registry.stop();
			jsonRegistry.stop();
		}
	}

	@Test
	void metadataOnlyWatchListAndWatchOnProtobufHoldWhatJsonHolds(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		assertSameMetadataAsJson(controlPlane, direct, ListStrategy.WATCH_LIST, "proto-meta-watch-list");
	}

	@Test
	void metadataOnlyPagedListAndWatchOnProtobufHoldWhatJsonHolds(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		assertSameMetadataAsJson(controlPlane, direct, ListStrategy.LIST, "proto-meta-list");
	}

	/**
	 * Metadata-only informers of a built-in kind and of a custom resource, one pair on
	 * JSON and one on protobuf, hold equal objects through lists (or watch-lists),
	 * watched changes and a relist after a watch that failed with {@code 410 Gone}; the
	 * protobuf pair asks for the metadata in protobuf, and the API server sends it so for
	 * both kinds.
	 */
	private void assertSameMetadataAsJson(ControlPlane controlPlane, ApiClient direct, ListStrategy strategy,
			String prefix) throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, prefix);
		for (int i = 0; i < 12; i++) {
			create(api, namespace, "item-" + i);
		}
		Manifests manifests = new Manifests(direct);
		manifests.apply(
				new ClassPathResource("io/github/kubeop/typed/crds.yaml").getContentAsString(StandardCharsets.UTF_8),
				namespace);
		for (int i = 0; i < 3; i++) {
			applyGadget(manifests, namespace, "gadget-" + i, "1");
		}
		Exchanges exchanges = new Exchanges();
		ApiClient client = controlPlane.apiClient();
		ExpireNextWatch expiry = new ExpireNextWatch();
		client.setHttpClient(
				client.getHttpClient().newBuilder().addInterceptor(exchanges).addInterceptor(expiry).build());
		InformerRegistry jsonRegistry = new InformerRegistry(client);
		InformerRegistry registry = new InformerRegistry(client);
		jsonRegistry.setListStrategy(strategy);
		registry.setListStrategy(strategy);
		InformerSpec<PartialObjectMetadata> configMaps = metadataSpec("configmaps", "v1", "ConfigMap", namespace);
		InformerSpec<PartialObjectMetadata> gadgets = metadataSpec("gadgets", "typed.kubeop.test/v1", "Gadget",
				namespace);
		// none of these: an empty list of metadata is "items": null in JSON
		InformerSpec<PartialObjectMetadata> gizmos = metadataSpec("gizmos", "typed.kubeop.test/v1", "Gizmo", namespace);
		List<ResourceInformer<PartialObjectMetadata>> json = List.of(
				jsonRegistry.informer(configMaps.withEncoding(InformerSpec.Encoding.JSON)),
				jsonRegistry.informer(gadgets.withEncoding(InformerSpec.Encoding.JSON)),
				jsonRegistry.informer(gizmos.withEncoding(InformerSpec.Encoding.JSON)));
		List<ResourceInformer<PartialObjectMetadata>> protobuf = List.of(
				registry.informer(configMaps.withEncoding(InformerSpec.Encoding.PROTOBUF)),
				registry.informer(gadgets.withEncoding(InformerSpec.Encoding.PROTOBUF)),
				registry.informer(gizmos.withEncoding(InformerSpec.Encoding.PROTOBUF)));
		long decodedBefore = ProtobufDecoder.decodedObjects();
		jsonRegistry.start();
		registry.start();
		try {
			jsonRegistry.awaitSync(Duration.ofSeconds(60));
			registry.awaitSync(Duration.ofSeconds(60));
			assertThat(protobuf.get(0).lister().list()).hasSize(12);
			assertThat(protobuf.get(1).lister().list()).hasSize(3);
			assertThat(protobuf.get(2).lister().list()).isEmpty();
			assertThat(json.get(2).lister().list()).isEmpty();
			PartialObjectMetadata item = protobuf.get(0).lister().namespace(namespace).get("item-0");
			assertThat(item.getApiVersion()).isEqualTo("v1");
			assertThat(item.getKind()).isEqualTo("ConfigMap");
			assertThat(item.getMetadata().getLabels()).containsEntry("transformed", "yes");
			assertThat(item.getMetadata().getAnnotations()).containsKey("team").doesNotContainKey(LAST_APPLIED);
			assertThat(protobuf.get(1).lister().namespace(namespace).get("gadget-0").getKind()).isEqualTo("Gadget");
			awaitSameMetadata(json, protobuf, namespace, "item-0", "gadget-0");
			// changes while watching
			V1ConfigMap changed = api.readNamespacedConfigMap("item-1", namespace).execute();
			changed.getMetadata().putLabelsItem("v", "2");
			api.replaceNamespacedConfigMap("item-1", namespace, changed).execute();
			api.deleteNamespacedConfigMap("item-2", namespace).execute();
			applyGadget(manifests, namespace, "gadget-1", "2");
			create(api, namespace, "sentinel-1");
			applyGadget(manifests, namespace, "gadget-sentinel-1", "1");
			awaitSameMetadata(json, protobuf, namespace, "sentinel-1", "gadget-sentinel-1");
			assertThat(protobuf.get(0).lister().namespace(namespace).get("item-1").getMetadata().getLabels())
				.containsEntry("v", "2");
			assertThat(protobuf.get(0).lister().namespace(namespace).get("item-2")).isNull();
			assertThat(protobuf.get(1).lister().namespace(namespace).get("gadget-1").getMetadata().getLabels())
				.containsEntry("v", "2");
			// the metadata of both kinds, custom resources included, came in protobuf
			for (String resource : List.of("configmaps", "gadgets")) {
				assertThat(exchanges.of(namespace, resource))
					.filteredOn((exchange) -> exchange.accept().startsWith(ProtobufDecoder.MEDIA_TYPE))
					.as(resource)
					.isNotEmpty()
					.allSatisfy((exchange) -> {
						assertThat(exchange.accept()).contains(";as=PartialObjectMetadata");
						assertThat(exchange.contentType()).startsWith(ProtobufDecoder.MEDIA_TYPE);
					})
					.anySatisfy((exchange) -> assertThat(exchange.url().queryParameter("watch")).isEqualTo("true"));
				assertThat(exchanges.of(namespace, resource))
					.filteredOn((exchange) -> !exchange.accept().contains(ProtobufDecoder.MEDIA_TYPE))
					.as(resource)
					.isNotEmpty()
					.allSatisfy((exchange) -> assertThat(exchange.contentType()).startsWith("application/json"));
			}
			// a watch that fails with 410 Gone, sent in protobuf: a relist
			long relists = relists(protobuf);
			expiry.expireNext();
			create(api, namespace, "sentinel-2");
			applyGadget(manifests, namespace, "gadget-sentinel-2", "1");
			await().atMost(Duration.ofSeconds(60)).until(() -> relists(protobuf) > relists);
			awaitSameMetadata(json, protobuf, namespace, "sentinel-2", "gadget-sentinel-2");
			assertThat(expiry.expired).isTrue();
			assertThat(ProtobufDecoder.decodedObjects() - decodedBefore).isGreaterThanOrEqualTo(15 + 5);
		}
		finally {
			registry.stop();
			jsonRegistry.stop();
		}
	}

	private static long relists(List<ResourceInformer<PartialObjectMetadata>> informers) {
		return informers.stream().mapToLong((informer) -> informer.status().relists()).sum();
	}

	private static InformerSpec<PartialObjectMetadata> metadataSpec(String name, String apiVersion, String kind,
			String namespace) {
		return InformerSpec.of(name, apiVersion, kind, PartialObjectMetadata.class)
			.withNamespaces(namespace)
			.withPageSize(5)
			.withWatchTimeouts(Duration.ofSeconds(3), InformerSpec.DEFAULT_STALL_TIMEOUT)
			.withStandardTransforms(StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION,
					StandardTransform.DEDUPLICATE_STRINGS)
			.withTransform((metadata) -> {
				metadata.getMetadata().putLabelsItem("transformed", "yes");
				return metadata;
			});
	}

	private static void applyGadget(Manifests manifests, String namespace, String name, String version) {
		manifests.apply("""
				apiVersion: typed.kubeop.test/v1
				kind: Gadget
				metadata:
				  name: %s
				  labels: {app: web, v: "%s"}
				  annotations: {team: a, kubectl.kubernetes.io/last-applied-configuration: '{"kind":"Gadget"}'}
				spec: {title: %s, replicas: 1}
				""".formatted(name, version, name), namespace);
	}

	/**
	 * Waits until each JSON informer holds its sentinel and the protobuf informers hold
	 * theirs, then checks that each pair holds equal objects.
	 */
	private static void awaitSameMetadata(List<ResourceInformer<PartialObjectMetadata>> json,
			List<ResourceInformer<PartialObjectMetadata>> protobuf, String namespace, String... sentinels) {
		Comparator<PartialObjectMetadata> byName = Comparator.comparing((object) -> object.getMetadata().getName());
		for (int i = 0; i < sentinels.length; i++) {
			ResourceInformer<PartialObjectMetadata> fromJson = json.get(i);
			ResourceInformer<PartialObjectMetadata> fromProtobuf = protobuf.get(i);
			String sentinel = sentinels[i];
			await().atMost(Duration.ofSeconds(60))
				.until(() -> fromJson.lister().namespace(namespace).get(sentinel) != null
						&& fromProtobuf.lister().namespace(namespace).get(sentinel) != null);
			assertThat(fromProtobuf.lister().list().stream().sorted(byName).toList())
				.isEqualTo(fromJson.lister().list().stream().sorted(byName).toList());
		}
	}

	/**
	 * Lists and watches the API server refuses (forbidden by RBAC, a label selector it
	 * cannot parse) are answered in protobuf when protobuf was asked for; the informer
	 * reports them with the Status's message, exactly as an informer on JSON does.
	 */
	@Test
	void refusalsAnsweredInProtobufAreReportedWithTheirStatusAsOnJson(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, "proto-refused");
		Exchanges exchanges = new Exchanges();
		List<ResourceInformer<V1ConfigMap>> json = new ArrayList<>();
		List<ResourceInformer<V1ConfigMap>> protobuf = new ArrayList<>();
		List<InformerRegistry> registries = new ArrayList<>();
		// no rights at all, and an admin's list with a selector the server cannot parse
		for (ApiClient client : List.of(controlPlane.apiClientFor("proto-refused-nobody"), controlPlane.apiClient())) {
			client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(exchanges).build());
			boolean forbidden = registries.isEmpty();
			for (InformerSpec.Encoding encoding : InformerSpec.Encoding.values()) {
				InformerRegistry registry = new InformerRegistry(client);
				InformerSpec<V1ConfigMap> spec = InformerSpec.of("refused", "v1", "ConfigMap", V1ConfigMap.class)
					.withNamespaces(namespace)
					.withEncoding(encoding);
				ResourceInformer<V1ConfigMap> informer = registry
					.informer(forbidden ? spec : spec.withLabelSelector("app in web"));
				((encoding == InformerSpec.Encoding.PROTOBUF) ? protobuf : json).add(informer);
				registries.add(registry);
			}
		}
		registries.forEach(InformerRegistry::start);
		try {
			await().atMost(Duration.ofSeconds(60))
				.until(() -> Stream.concat(json.stream(), protobuf.stream())
					.allMatch((informer) -> informer.status().lastError() != null));
			assertThat(protobuf.get(0).status().lastError()).isEqualTo(json.get(0).status().lastError())
				.startsWith("403 configmaps is forbidden: User \"proto-refused-nobody\" cannot");
			assertThat(protobuf.get(1).status().lastError()).isEqualTo(json.get(1).status().lastError())
				.startsWith("400 unable to parse requirement");
			// the refusals were sent in protobuf
			assertThat(exchanges.of(namespace, "protobuf")).isNotEmpty()
				.allSatisfy((exchange) -> assertThat(exchange.contentType()).startsWith(ProtobufDecoder.MEDIA_TYPE));
			// and their Status, reason and details included, reads as the JSON one
			ApiClient nobody = controlPlane.apiClientFor("proto-refused-nobody");
			String path = "/api/v1/namespaces/" + namespace + "/configmaps";
			JsonObject fromJson = refusal(nobody, path, "application/json");
			JsonObject fromProtobuf = refusal(nobody, path, ProtobufDecoder.MEDIA_TYPE + ", application/json");
			assertThat(fromJson.get("reason").getAsString()).isEqualTo("Forbidden");
			assertThat(fromProtobuf).isEqualTo(fromJson);
		}
		finally {
			registries.forEach(InformerRegistry::stop);
		}
	}

	private static JsonObject refusal(ApiClient client, String path, String accept) throws Exception {
		try {
			ApiRequests
				.checked(client.getHttpClient().newCall(ApiRequests.get(client, path, List.of(), accept)).execute());
		}
		catch (io.kubernetes.client.openapi.ApiException ex) {
			assertThat(ex.getCode()).isEqualTo(403);
			return JsonParser.parseString(ex.getResponseBody()).getAsJsonObject();
		}
		throw new AssertionError("Not refused: " + path);
	}

	@Test
	void watchFramesOfEverySizeArriveWhole(ControlPlane controlPlane, ApiClient direct) throws Exception {
		// the watch reads its frames into one buffer that grows up to a limit: frames
		// that grow it, fit it, and exceed the limit (an array of their own), in turn
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, "proto-frames");
		create(api, namespace, "listed");
		InformerRegistry registry = new InformerRegistry(controlPlane.apiClient());
		ResourceInformer<V1ConfigMap> informer = registry
			.informer(InformerSpec.of("protobuf-frames", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withEncoding(InformerSpec.Encoding.PROTOBUF));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(60));
			int[] kilobytes = { 2, 100, 30, 70, 1, 50, 200, 3 };
			for (int i = 0; i < kilobytes.length; i++) {
				String data = Integer.toString(i).repeat(kilobytes[i] * 1024);
				api.createNamespacedConfigMap(namespace,
						new V1ConfigMap().metadata(new V1ObjectMeta().name("frame-" + i)).putDataItem("data", data))
					.execute();
			}
			String last = "frame-" + (kilobytes.length - 1);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> informer.lister().namespace(namespace).get(last) != null);
			for (int i = 0; i < kilobytes.length; i++) {
				V1ConfigMap cached = informer.lister().namespace(namespace).get("frame-" + i);
				assertThat(cached).as("frame-%d", i).isNotNull();
				assertThat(cached.getData()).as("frame-%d", i)
					.containsExactly(Map.entry("data", Integer.toString(i).repeat(kilobytes[i] * 1024)));
			}
			assertThat(informer.skippedObjects()).isZero();
		}
		finally {
			registry.stop();
		}
	}

	@Test
	void customResourcesAndServersThatAnswerJsonAreReadAsJson(ControlPlane controlPlane, ApiClient direct)
			throws Exception {
		CoreV1Api api = new CoreV1Api(direct);
		String namespace = ListWatchIntegrationTests.namespace(api, "proto-fallback");
		create(api, namespace, "item-0");
		new io.github.kubeop.test.Manifests(direct)
			.apply(new org.springframework.core.io.ClassPathResource("io/github/kubeop/typed/crds.yaml")
				.getContentAsString(StandardCharsets.UTF_8), namespace);
		new io.github.kubeop.test.Manifests(direct).apply("""
				apiVersion: typed.kubeop.test/v1
				kind: Gadget
				metadata: {name: one}
				spec: {title: one, replicas: 1}
				""", namespace);
		Exchanges exchanges = new Exchanges();
		AnswerJson answerJson = new AnswerJson();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(
				client.getHttpClient().newBuilder().addInterceptor(exchanges).addInterceptor(answerJson).build());
		InformerRegistry registry = new InformerRegistry(client);
		ResourceInformer<Gadget> gadgets = registry
			.informer(InformerSpec.of("protobuf-gadgets", "typed.kubeop.test/v1", "Gadget", Gadget.class)
				.withNamespaces(namespace)
				.withEncoding(InformerSpec.Encoding.PROTOBUF));
		ResourceInformer<V1ConfigMap> configMaps = registry
			.informer(InformerSpec.of("protobuf-answered-json", "v1", "ConfigMap", V1ConfigMap.class)
				.withNamespaces(namespace)
				.withEncoding(InformerSpec.Encoding.PROTOBUF));
		registry.start();
		try {
			registry.awaitSync(Duration.ofSeconds(60));
			assertThat(gadgets.lister().list()).singleElement()
				.satisfies((gadget) -> assertThat(gadget.getMetadata().getName()).isEqualTo("one"));
			assertThat(configMaps.lister().list()).hasSize(1);
			create(api, namespace, "sentinel");
			await().atMost(Duration.ofSeconds(60))
				.until(() -> configMaps.lister().namespace(namespace).get("sentinel") != null);
			// a custom resource has no protobuf encoding: not even asked for
			assertThat(exchanges.of(namespace, "gadgets")).isNotEmpty()
				.allSatisfy((exchange) -> assertThat(exchange.accept()).doesNotContain(ProtobufDecoder.MEDIA_TYPE));
			// the config maps were asked for in protobuf and answered in JSON
			assertThat(answerJson.rewritten).isTrue();
			assertThat(exchanges.of(namespace, "configmaps")).isNotEmpty().allSatisfy((exchange) -> {
				assertThat(exchange.accept()).startsWith(ProtobufDecoder.MEDIA_TYPE);
				assertThat(exchange.contentType()).startsWith("application/json");
			});
		}
		finally {
			registry.stop();
		}
	}

	private static void awaitSame(ResourceInformer<V1ConfigMap> json, ResourceInformer<V1ConfigMap> protobuf,
			String namespace, String sentinel) {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> json.lister().namespace(namespace).get(sentinel) != null
					&& protobuf.lister().namespace(namespace).get(sentinel) != null);
		Comparator<V1ConfigMap> byName = Comparator.comparing((configMap) -> configMap.getMetadata().getName());
		List<V1ConfigMap> fromJson = json.lister().list().stream().sorted(byName).toList();
		List<V1ConfigMap> fromProtobuf = protobuf.lister().list().stream().sorted(byName).toList();
		assertThat(fromProtobuf).isEqualTo(fromJson);
	}

	private static void create(CoreV1Api api, String namespace, String name) throws Exception {
		api.createNamespacedConfigMap(namespace,
				new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(name)
						.labels(Map.of("app", "web"))
						.annotations(Map.of("team", "a", LAST_APPLIED, "{\"apiVersion\":\"v1\"}")))
					.data(Map.of("v", "1", "empty", ""))
					.binaryData(null))
			.execute();
	}

	/**
	 * A request and the content type of its answer.
	 */
	private record Exchange(HttpUrl url, String accept, String contentType) {

	}

	/**
	 * Records the requests of the informers and the content types of the answers; which
	 * informer sent a request is told by the {@code Accept} header and the resource.
	 */
	private static final class Exchanges implements Interceptor {

		private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

		@Override
		public Response intercept(Chain chain) throws IOException {
			Response response = chain.proceed(chain.request());
			this.exchanges.add(new Exchange(chain.request().url(), String.valueOf(chain.request().header("Accept")),
					String.valueOf(response.header("Content-Type"))));
			return response;
		}

		/**
		 * Returns the exchanges of a namespace: of the informer named {@code protobuf} or
		 * {@code json} (by what they accept), or of a resource.
		 */
		List<Exchange> of(String namespace, String which) {
			return this.exchanges.stream()
				.filter((exchange) -> exchange.url().encodedPath().contains("/namespaces/" + namespace + "/"))
				.filter((exchange) -> switch (which) {
					case "protobuf" -> exchange.accept().startsWith(ProtobufDecoder.MEDIA_TYPE);
					case "json" -> !exchange.accept().contains(ProtobufDecoder.MEDIA_TYPE);
					default -> exchange.url().encodedPath().endsWith("/" + which);
				})
				.toList();
		}

	}

	/**
	 * Asks for JSON where an informer asked for protobuf, as a server (or a proxy) that
	 * does not speak protobuf answers.
	 */
	private static final class AnswerJson implements Interceptor {

		private volatile boolean rewritten;

		@Override
		public Response intercept(Chain chain) throws IOException {
			String accept = chain.request().header("Accept");
			if (accept == null || !accept.startsWith(ProtobufDecoder.MEDIA_TYPE)) {
				return chain.proceed(chain.request());
			}
			this.rewritten = true;
			return chain.proceed(chain.request().newBuilder().header("Accept", "application/json").build());
		}

	}

	/**
	 * Answers the next plain watch of a protobuf informer with a 410 Gone error event,
	 * encoded as the API server encodes it in protobuf.
	 */
	static final class ExpireNextWatch implements Interceptor {

		private final AtomicBoolean next = new AtomicBoolean();

		private volatile boolean expired;

		void expireNext() {
			this.next.set(true);
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			HttpUrl url = chain.request().url();
			String accept = chain.request().header("Accept");
			boolean plainWatch = "true".equals(url.queryParameter("watch"))
					&& url.queryParameter("sendInitialEvents") == null;
			if (!plainWatch || accept == null || !accept.startsWith(ProtobufDecoder.MEDIA_TYPE)
					|| !this.next.compareAndSet(true, false)) {
				return chain.proceed(chain.request());
			}
			this.expired = true;
			return new Response.Builder().request(chain.request())
				.protocol(Protocol.HTTP_1_1)
				.code(200)
				.message("OK")
				.header("Content-Type", "application/vnd.kubernetes.protobuf;stream=watch")
				.body(ResponseBody.create(expiredFrame(),
						MediaType.get("application/vnd.kubernetes.protobuf;stream=watch")))
				.build();
		}

		/**
		 * A frame of a watch: its length and a WatchEvent of type ERROR whose object is a
		 * Status with code 410, as {@code k8s\0} and a {@code runtime.Unknown}.
		 */
		static byte[] expiredFrame() throws IOException {
			byte[] status = message((out) -> {
				out.writeString(2, "Failure");
				out.writeString(3, "too old resource version");
				out.writeString(4, "Expired");
				out.writeInt32(6, 410);
			});
			byte[] typeMeta = message((out) -> {
				out.writeString(1, "v1");
				out.writeString(2, "Status");
			});
			byte[] unknown = message((out) -> {
				out.writeByteArray(1, typeMeta);
				out.writeByteArray(2, status);
			});
			ByteArrayOutputStream raw = new ByteArrayOutputStream();
			raw.write(new byte[] { 'k', '8', 's', 0 });
			raw.write(unknown);
			byte[] extension = message((out) -> out.writeBytes(1, ByteString.copyFrom(raw.toByteArray())));
			byte[] event = message((out) -> {
				out.writeString(1, "ERROR");
				out.writeByteArray(2, extension);
			});
			ByteArrayOutputStream frame = new ByteArrayOutputStream();
			frame.write(new byte[] { (byte) (event.length >>> 24), (byte) (event.length >>> 16),
					(byte) (event.length >>> 8), (byte) event.length });
			frame.write(event);
			return frame.toByteArray();
		}

		private static byte[] message(Writer writer) throws IOException {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream();
			CodedOutputStream out = CodedOutputStream.newInstance(bytes);
			writer.write(out);
			out.flush();
			return bytes.toByteArray();
		}

		@FunctionalInterface
		private interface Writer {

			void write(CodedOutputStream out) throws IOException;

		}

	}

}
