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

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.typed.Gadget;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ContainerState;
import io.kubernetes.client.openapi.models.V1ContainerStateRunning;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodIP;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decoding straight from the stream ({@link ModelDecoder}) against what the API server
 * sends: realistic Pods, ConfigMaps, Secrets, Services and a typed custom resource,
 * listed as JSON from a real API server, decode from a list page and from watch events to
 * exactly what the tree path gives (the client's Gson on the tree, after the ready-made
 * transforms), with every combination of transforms that matters, and with a client that
 * keeps {@code managedFields} as well as with one that drops them.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ModelDecoderIntegrationTests {

	private static final String POD = """
			apiVersion: v1
			kind: Pod
			metadata:
			  name: %s
			  labels: {app.kubernetes.io/name: web, tier: frontend}
			  annotations:
			    team: a
			    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Pod"}'
			  ownerReferences:
			  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f, uid: 6a1f3c2e-0d7b-4a51-9f0e-3c1d2b4a5e6f, controller: true, blockOwnerDeletion: true}
			  finalizers: [example.com/keep]
			spec:
			  automountServiceAccountToken: false
			  containers:
			  - name: app
			    image: registry.example/web:1.2.3
			    args: [--port=8080, --verbose]
			    ports: [{name: http, containerPort: 8080, protocol: TCP}]
			    env:
			    - {name: MODE, value: production}
			    - name: POD_NAME
			      valueFrom: {fieldRef: {fieldPath: metadata.name}}
			    - name: MEMORY
			      valueFrom: {resourceFieldRef: {containerName: app, resource: limits.memory, divisor: 1Mi}}
			    resources:
			      requests: {cpu: 250m, memory: 64Mi}
			      limits: {cpu: "1", memory: 128Mi, ephemeral-storage: 1Gi}
			    volumeMounts: [{name: config, mountPath: /etc/web, readOnly: true}, {name: cache, mountPath: /cache}]
			    readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5, failureThreshold: 3}
			    livenessProbe: {tcpSocket: {port: 8080}, initialDelaySeconds: 3}
			    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
			  - name: proxy
			    image: registry.example/proxy:0.9
			    resources: {requests: {cpu: 50m, memory: 16Mi}}
			  initContainers:
			  - {name: init, image: busybox:1.36, command: [sh, -c, "true"]}
			  volumes:
			  - {name: config, configMap: {name: web-config, items: [{key: a, path: a.conf}]}}
			  - {name: cache, emptyDir: {sizeLimit: 1Gi}}
			  - {name: token, secret: {secretName: web-secret, defaultMode: 420}}
			  tolerations:
			  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
			  nodeSelector: {kubernetes.io/os: linux}
			  securityContext: {runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000}
			  terminationGracePeriodSeconds: 30
			""";

	private static final String OTHERS = """
			apiVersion: v1
			kind: ConfigMap
			metadata: {name: web-config, labels: {app.kubernetes.io/name: web}}
			data: {a.conf: "listen 8080", mode: production}
			binaryData: {blob: AAECAwQ=}
			---
			apiVersion: v1
			kind: Secret
			metadata: {name: web-secret}
			type: Opaque
			data: {password: c2VjcmV0}
			---
			apiVersion: v1
			kind: Service
			metadata: {name: web}
			spec:
			  selector: {app.kubernetes.io/name: web}
			  ports:
			  - {name: http, port: 80, targetPort: http}
			  - {name: admin, port: 9090, targetPort: 9091, protocol: TCP}
			---
			apiVersion: typed.kubeop.test/v1
			kind: Gadget
			metadata: {name: rich, labels: {tier: gold}}
			spec:
			  title: rich
			  replicas: 3
			  limit: 7
			  tier: GOLD
			  labels: {a: b}
			  parts: [{name: wheel, weight: 1.5, tags: [round, black]}]
			  memory: 512Mi
			  port: http
			  enabled: true
			""";

	/**
	 * The combinations of ready-made transforms that change what is decoded.
	 */
	private static final List<Set<StandardTransform>> TRANSFORMS = List.of(Set.of(),
			Set.of(StandardTransform.STRIP_MANAGED_FIELDS),
			Set.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.DEDUPLICATE_STRINGS),
			EnumSet.allOf(StandardTransform.class));

	private final Gson clientGson = JSON.getGson();

	/**
	 * A Gson that keeps {@code managedFields}, as the client's does with
	 * {@code kubernetes.client.includeManagedFields}.
	 */
	private final Gson keepingGson = new GsonBuilder()
		.registerTypeAdapter(OffsetDateTime.class, this.clientGson.getAdapter(OffsetDateTime.class))
		.registerTypeAdapter(LocalDate.class, this.clientGson.getAdapter(LocalDate.class))
		.registerTypeAdapter(byte[].class, this.clientGson.getAdapter(byte[].class))
		.create();

	private ApiClient admin;

	private TestNamespace namespace;

	@BeforeEach
	void createObjects(ApiClient admin, TestNamespace namespace) throws Exception {
		this.admin = admin;
		this.namespace = namespace;
		Manifests manifests = new Manifests(admin);
		manifests.apply(
				new ClassPathResource("io/github/kubeop/typed/crds.yaml").getContentAsString(StandardCharsets.UTF_8),
				namespace.name());
		manifests.apply(OTHERS, namespace.name());
		CoreV1Api api = new CoreV1Api(admin);
		for (int i = 0; i < 3; i++) {
			String name = "web-" + i;
			manifests.apply(POD.formatted(name), namespace.name());
			// a second manager: the status, as a kubelet would write it
			V1Pod pod = api.readNamespacedPod(name, namespace.name()).execute();
			pod.setStatus(status(i));
			api.replaceNamespacedPodStatus(name, namespace.name(), pod).fieldManager("kubelet").execute();
		}
	}

	@Test
	void podsDecodeAsTheTreePathDecodesThem() throws Exception {
		JsonArray items = list("/api/v1/namespaces/" + this.namespace.name() + "/pods", 3);
		JsonObject first = items.get(0).getAsJsonObject().getAsJsonObject("metadata");
		assertThat(first.getAsJsonArray("managedFields")).hasSize(2);
		V1Pod decoded = assertDecodesAsTheTreePath(items, V1Pod.class, new ResourceKind("", "v1", "Pod", "pods", true));
		assertThat(decoded.getSpec().getContainers()).hasSize(2);
		assertThat(decoded.getSpec().getContainers().get(0).getReadinessProbe().getHttpGet().getPort())
			.isEqualTo(new IntOrString("http"));
		assertThat(decoded.getSpec().getContainers().get(0).getResources().getLimits()).containsEntry("memory",
				Quantity.fromString("128Mi"));
		assertThat(decoded.getStatus().getContainerStatuses()).hasSize(2);
		// a timestamp seen before is the instance parsed then
		ResourceKind resource = new ResourceKind("", "v1", "Pod", "pods", true);
		ResourceInformer<V1Pod> informer = new ResourceInformer<>(spec(V1Pod.class, Set.of()), resource,
				new ApiClient());
		ModelDecoder<V1Pod> decoder = ModelDecoder.of(informer.spec(), resource, this.clientGson);
		V1Pod once = readEvents(decoder, informer, items, resource).get(0);
		V1Pod again = readEvents(decoder, informer, items, resource).get(0);
		assertThat(again.getMetadata().getCreationTimestamp()).isNotNull()
			.isSameAs(once.getMetadata().getCreationTimestamp());
		assertThat(again.getStatus().getConditions().get(0).getLastTransitionTime()).isNotNull()
			.isSameAs(once.getStatus().getConditions().get(0).getLastTransitionTime());
		// and so is a quantity, in another Pod and in the same Pod decoded again
		List<V1Pod> pods = readEvents(decoder, informer, items, resource);
		Map<String, Quantity> limits = pods.get(0).getSpec().getContainers().get(0).getResources().getLimits();
		assertThat(limits.get("memory")).isEqualTo(Quantity.fromString("128Mi"))
			.isSameAs(pods.get(1).getSpec().getContainers().get(0).getResources().getLimits().get("memory"))
			.isSameAs(once.getSpec().getContainers().get(0).getResources().getLimits().get("memory"));
		assertThat(limits.get("ephemeral-storage")).isEqualTo(Quantity.fromString("1Gi"))
			.isSameAs(pods.get(1).getSpec().getVolumes().get(1).getEmptyDir().getSizeLimit());
		// written back as the client writes what it decodes
		assertThat(this.clientGson.toJson(pods.get(0)))
			.isEqualTo(this.clientGson.toJson(listedByTheClient(items, V1Pod.class, resource).get(0)));
	}

	@Test
	void configMapsSecretsServicesAndCustomResourcesDecodeAsTheTreePathDecodesThem() throws Exception {
		String path = "/api/v1/namespaces/" + this.namespace.name();
		V1ConfigMap configMap = assertDecodesAsTheTreePath(list(path + "/configmaps", 1), V1ConfigMap.class,
				new ResourceKind("", "v1", "ConfigMap", "configmaps", true));
		assertThat(configMap.getBinaryData()).containsKey("blob");
		assertDecodesAsTheTreePath(list(path + "/secrets", 1), V1Secret.class,
				new ResourceKind("", "v1", "Secret", "secrets", true));
		V1Service service = assertDecodesAsTheTreePath(list(path + "/services", 1), V1Service.class,
				new ResourceKind("", "v1", "Service", "services", true));
		assertThat(service.getSpec().getPorts()).extracting((port) -> port.getTargetPort())
			.containsExactly(new IntOrString("http"), new IntOrString(9091));
		Gadget gadget = assertDecodesAsTheTreePath(
				list("/apis/typed.kubeop.test/v1/namespaces/" + this.namespace.name() + "/gadgets", 1), Gadget.class,
				new ResourceKind("typed.kubeop.test", "v1", "Gadget", "gadgets", true));
		assertThat(gadget.getSpec().parts()).singleElement().satisfies((part) -> assertThat(part.tags()).hasSize(2));
	}

	/**
	 * Decodes the listed items with every combination of transforms and both client
	 * configurations, from a page and from watch events, and compares each with the tree
	 * path.
	 * @return the last object decoded from a page with no transform, for more checks
	 */
	private <T extends KubernetesObject> T assertDecodesAsTheTreePath(JsonArray items, Class<T> type,
			ResourceKind resource) throws IOException {
		T last = null;
		ApiClient client = new ApiClient();
		for (Gson gson : List.of(this.clientGson, this.keepingGson)) {
			for (Set<StandardTransform> transforms : TRANSFORMS) {
				ResourceInformer<T> informer = new ResourceInformer<>(spec(type, transforms), resource, client);
				ModelDecoder<T> decoder = ModelDecoder.of(informer.spec(), resource, gson);
				List<T> expected = new ArrayList<>();
				for (JsonElement item : items) {
					expected.add(treePath(informer, gson, withTypeMeta(item, resource)));
				}
				String description = type.getSimpleName() + " with " + transforms
						+ ((gson == this.keepingGson) ? ", managedFields kept" : "");
				List<T> fromPage = readItems(decoder, informer, items);
				assertThat(fromPage).as(description).usingRecursiveFieldByFieldElementComparator().isEqualTo(expected);
				List<T> fromWatch = readEvents(decoder, informer, items, resource);
				assertThat(fromWatch).as(description).usingRecursiveFieldByFieldElementComparator().isEqualTo(expected);
				if (type != V1Secret.class && type != V1ConfigMap.class) {
					// the models' own equals, which byte arrays fail
					assertThat(fromPage).as(description).isEqualTo(expected);
				}
				if (gson == this.clientGson) {
					// and through the list/watch loop's own page reading
					assertThat(readPage(informer, client, items)).as(description)
						.usingRecursiveFieldByFieldElementComparator()
						.isEqualTo(expected);
				}
				if (transforms.isEmpty() && gson == this.clientGson) {
					assertThat(fromPage).as(description)
						.usingRecursiveFieldByFieldElementComparator()
						.isEqualTo(listedByTheClient(items, type, resource));
					last = fromPage.get(fromPage.size() - 1);
				}
				if (transforms.contains(StandardTransform.STRIP_STATUS) && hasStatus(type)) {
					assertThat(fromPage).as(description)
						.allSatisfy((object) -> assertThat(object).hasFieldOrPropertyWithValue("status", null));
				}
				if (gson == this.keepingGson && !transforms.contains(StandardTransform.STRIP_MANAGED_FIELDS)) {
					assertThat(fromPage).as(description)
						.allSatisfy((object) -> assertThat(object.getMetadata().getManagedFields()).isNotEmpty());
				}
			}
		}
		return last;
	}

	/**
	 * Decodes as the tree path does: the informer's own conversion with the client's
	 * Gson, the same steps with another Gson (the client's Gson is global).
	 */
	private <T extends KubernetesObject> T treePath(ResourceInformer<T> informer, Gson gson, JsonObject tree) {
		if (gson == this.clientGson) {
			return informer.convert(tree);
		}
		for (StandardTransform transform : informer.spec().standardTransforms()) {
			transform.apply(tree);
		}
		return gson.fromJson(tree, informer.spec().type());
	}

	private static boolean hasStatus(Class<?> type) {
		return Arrays.stream(type.getMethods()).anyMatch((method) -> method.getName().equals("getStatus"));
	}

	private static JsonObject withTypeMeta(JsonElement item, ResourceKind resource) {
		JsonObject object = item.deepCopy().getAsJsonObject();
		object.addProperty("apiVersion", resource.apiVersion());
		object.addProperty("kind", resource.kind());
		return object;
	}

	private static <T extends KubernetesObject> List<T> readItems(ModelDecoder<T> decoder, ResourceInformer<T> informer,
			JsonArray items) throws IOException {
		JsonObject page = new JsonObject();
		page.add("items", items);
		JsonReader reader = new JsonReader(new StringReader(page.toString()));
		reader.beginObject();
		reader.nextName();
		reader.beginArray();
		List<T> objects = new ArrayList<>();
		while (reader.hasNext()) {
			objects.add(informer.transform(decoder.readListItem(reader)));
		}
		reader.endArray();
		return objects;
	}

	/**
	 * What the client's Gson decodes from each item of a list, given its apiVersion and
	 * kind.
	 */
	private <T> List<T> listedByTheClient(JsonArray items, Class<T> type, ResourceKind resource) {
		List<T> objects = new ArrayList<>();
		for (JsonElement item : items) {
			objects.add(this.clientGson.fromJson(withTypeMeta(item, resource), type));
		}
		return objects;
	}

	private <T extends KubernetesObject> List<T> readPage(ResourceInformer<T> informer, ApiClient client,
			JsonArray items) throws IOException {
		JsonObject page = new JsonObject();
		JsonObject metadata = new JsonObject();
		metadata.addProperty("resourceVersion", "1");
		page.add("metadata", metadata);
		page.add("items", items);
		List<T> objects = new ArrayList<>();
		Set<String> unreadable = new HashSet<>();
		new ListWatch<>(informer, client, this.namespace.name()).readPage(new StringReader(page.toString()),
				objects::add, unreadable::add, (listMetadata) -> {
				});
		assertThat(unreadable).isEmpty();
		return objects;
	}

	private <T extends KubernetesObject> List<T> readEvents(ModelDecoder<T> decoder, ResourceInformer<T> informer,
			JsonArray items, ResourceKind resource) throws IOException {
		List<T> objects = new ArrayList<>();
		for (JsonElement item : items) {
			JsonObject object = withTypeMeta(item, resource);
			JsonObject event = new JsonObject();
			event.addProperty("type", "MODIFIED");
			event.add("object", object);
			ModelDecoder.DecodedEvent<T> decoded = decoder.readEvent(event.toString());
			assertThat(decoded.key())
				.isEqualTo(this.namespace.name() + "/" + object.getAsJsonObject("metadata").get("name").getAsString());
			assertThat(decoded.resourceVersion())
				.isEqualTo(object.getAsJsonObject("metadata").get("resourceVersion").getAsString());
			objects.add(informer.transform(decoded.object()));
		}
		return objects;
	}

	private JsonArray list(String path, int count) throws IOException {
		Request request = new Request.Builder().url(this.admin.getBasePath() + path)
			.header("Accept", "application/json")
			.build();
		try (Response response = this.admin.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).as(path).isEqualTo(200);
			JsonArray items = JsonParser.parseString(response.body().string())
				.getAsJsonObject()
				.getAsJsonArray("items");
			assertThat(items).as(path).hasSize(count);
			return items;
		}
	}

	private static <T extends KubernetesObject> InformerSpec<T> spec(Class<T> type, Set<StandardTransform> transforms) {
		return new InformerSpec<>("decoded", "v1", type.getSimpleName(), type, List.of(), null, null, Duration.ZERO,
				false, Map.of(), InformerSpec.DEFAULT_PAGE_SIZE, InformerSpec.DEFAULT_WATCH_TIMEOUT,
				InformerSpec.DEFAULT_STALL_TIMEOUT, InformerSpec.DEFAULT_PING_INTERVAL, transforms, List.of());
	}

	private static V1PodStatus status(int index) {
		OffsetDateTime started = OffsetDateTime.parse("2026-01-02T03:04:05Z").plusSeconds(index);
		V1ContainerState running = new V1ContainerState().running(new V1ContainerStateRunning().startedAt(started));
		return new V1PodStatus().phase("Running")
			.podIP("10.0.0." + (index + 1))
			.podIPs(List.of(new V1PodIP().ip("10.0.0." + (index + 1))))
			.hostIP("192.168.0.1")
			.startTime(started)
			.qosClass("Burstable")
			.conditions(List.of(new V1PodCondition().type("Ready").status("True").lastTransitionTime(started),
					new V1PodCondition().type("PodScheduled").status("True").lastTransitionTime(started)))
			.containerStatuses(List.of(
					new V1ContainerStatus().name("app")
						.image("registry.example/web:1.2.3")
						.imageID("registry.example/web@sha256:0123")
						.containerID("containerd://" + index)
						.ready(true)
						.started(true)
						.restartCount(index)
						.state(running),
					new V1ContainerStatus().name("proxy")
						.image("registry.example/proxy:0.9")
						.imageID("registry.example/proxy@sha256:4567")
						.ready(true)
						.restartCount(0)
						.state(running)));
	}

}
