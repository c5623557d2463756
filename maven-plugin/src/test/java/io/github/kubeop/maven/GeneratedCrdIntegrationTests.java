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

package io.github.kubeop.maven;

import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CustomResourceDefinition {@link CrdGenerator} writes for {@link Gateway}, installed
 * in a real API server: accepted, its validation enforced by the server, its defaults
 * applied, its status subresource and printer columns served.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class GeneratedCrdIntegrationTests {

	private static ApiClient client;

	private static DynamicKubernetesApi gateways;

	@BeforeAll
	static void installGeneratedDefinition(ApiClient apiClient) {
		client = apiClient;
		new Manifests(client).apply(new CrdGenerator().yaml(Gateway.class), null);
		gateways = new DynamicKubernetesApi("crdgen.kubeop.test", "v1", "gateways", client);
	}

	@Test
	void definitionIsAcceptedAndEstablished() throws Exception {
		JsonObject served = get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gateways.crdgen.kubeop.test",
				"application/json");
		assertThat(condition(served, "Established")).isEqualTo("True");
		assertThat(condition(served, "NamesAccepted")).isEqualTo("True");
		// a schema the server takes as non-structural is reported, not refused
		assertThat(condition(served, "NonStructuralSchema")).isNull();
	}

	@Test
	void missingRequiredFieldIsRejected(TestNamespace namespace) {
		assertThat(rejection(namespace, "no-host", Map.of("replicas", 2))).contains("spec.host: Required value");
	}

	@Test
	void valueBelowMinimumIsRejected(TestNamespace namespace) {
		assertThat(rejection(namespace, "too-few", Map.of("host", "a.example", "replicas", 0)))
			.contains("spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1");
	}

	@Test
	void valueAboveMaximumIsRejected(TestNamespace namespace) {
		assertThat(rejection(namespace, "too-many", Map.of("host", "a.example", "replicas", 6)))
			.contains("spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 5");
	}

	@Test
	void valueNotMatchingThePatternIsRejected(TestNamespace namespace) {
		assertThat(rejection(namespace, "upper-case", Map.of("host", "A.EXAMPLE")))
			.contains("spec.host in body should match '^[a-z.]+$'");
	}

	@Test
	void valueOutsideTheEnumIsRejected(TestNamespace namespace) {
		assertThat(rejection(namespace, "gold", Map.of("host", "a.example", "tier", "GOLD")))
			.contains("spec.tier: Unsupported value: \"GOLD\"")
			.contains("\"BASIC\"", "\"PREMIUM\"");
	}

	@Test
	void tooManyItemsAreRejected(TestNamespace namespace) {
		assertThat(rejection(namespace, "aliases", Map.of("host", "a.example", "aliases", List.of("a", "b", "c"))))
			.contains("spec.aliases: Too many: 3: must have at most 2 items");
	}

	@Test
	void validObjectGetsItsDefaultsAndKeepsIntOrStringAndQuantity(TestNamespace namespace) {
		KubernetesApiResponse<DynamicKubernetesObject> response = create(namespace, "valid",
				Map.of("host", "a.example", "port", "http", "memory", "512Mi"));
		assertThat(response.isSuccess()).as(response.getStatus() + "").isTrue();
		JsonObject spec = response.getObject().getRaw().getAsJsonObject("spec");
		assertThat(spec.get("replicas").getAsInt()).isEqualTo(2);
		assertThat(spec.get("port").getAsString()).isEqualTo("http");
		assertThat(spec.get("memory").getAsString()).isEqualTo("512Mi");
		assertThat(create(namespace, "numeric-port", Map.of("host", "a.example", "port", 8080)).isSuccess()).isTrue();
		assertThat(rejection(namespace, "bad-quantity", Map.of("host", "a.example", "memory", "lots")))
			.contains("spec.memory in body should match");
	}

	@Test
	void statusIsASubresource(TestNamespace namespace) {
		DynamicKubernetesObject object = object(namespace, "with-status", Map.of("host", "a.example"));
		object.getRaw().add("status", JsonParser.parseString("{\"observedGeneration\":7}"));
		KubernetesApiResponse<DynamicKubernetesObject> created = gateways.create(object);
		assertThat(created.isSuccess()).isTrue();
		// with a status subresource, the main resource ignores status
		assertThat(created.getObject().getRaw().has("status")).isFalse();
		DynamicKubernetesObject withStatus = created.getObject();
		withStatus.getRaw()
			.add("status",
					JsonParser.parseString("{\"observedGeneration\":1,\"lastUpdate\":\"2026-11-23T12:00:00Z\","
							+ "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"Serving\","
							+ "\"message\":\"up\",\"lastTransitionTime\":\"2026-11-23T12:00:00Z\"}]}"));
		KubernetesApiResponse<DynamicKubernetesObject> updated = gateways.updateStatus(withStatus,
				(gateway) -> gateway.getRaw().get("status"));
		assertThat(updated.isSuccess()).as(updated.getStatus() + "").isTrue();
		JsonObject status = updated.getObject().getRaw().getAsJsonObject("status");
		assertThat(status.get("observedGeneration").getAsInt()).isEqualTo(1);
		assertThat(status.getAsJsonArray("conditions").get(0).getAsJsonObject().get("reason").getAsString())
			.isEqualTo("Serving");
		withStatus = updated.getObject();
		withStatus.getRaw()
			.add("status", JsonParser.parseString("{\"conditions\":[{\"type\":\"Ready\",\"status\":\"Maybe\","
					+ "\"reason\":\"Serving\",\"message\":\"up\",\"lastTransitionTime\":\"2026-11-23T12:00:00Z\"}]}"));
		KubernetesApiResponse<DynamicKubernetesObject> invalid = gateways.updateStatus(withStatus,
				(gateway) -> gateway.getRaw().get("status"));
		assertThat(invalid.getStatus().getMessage()).contains("Unsupported value: \"Maybe\"");
	}

	@Test
	void printerColumnsAreServed(TestNamespace namespace) throws Exception {
		assertThat(
				create(namespace, "listed", Map.of("host", "a.example", "replicas", 3, "tier", "PREMIUM")).isSuccess())
			.isTrue();
		// what kubectl get asks for: the server renders the CRD's columns into a Table
		JsonObject table = get("/apis/crdgen.kubeop.test/v1/namespaces/" + namespace.name() + "/gateways/listed",
				"application/json;as=Table;v=v1;g=meta.k8s.io");
		List<String> columns = table.getAsJsonArray("columnDefinitions")
			.asList()
			.stream()
			.map((column) -> column.getAsJsonObject().get("name").getAsString())
			.toList();
		// a CRD's own columns replace the default Age column
		assertThat(columns).containsExactly("Name", "Replicas", "Tier");
		JsonArray cells = table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
		assertThat(cells.get(1).getAsInt()).isEqualTo(3);
		assertThat(cells.get(2).getAsString()).isEqualTo("PREMIUM");
	}

	private static JsonObject get(String path, String accept) throws Exception {
		Request request = new Request.Builder().url(client.getBasePath() + path).header("Accept", accept).get().build();
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).as(path).isEqualTo(200);
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
	}

	private static String rejection(TestNamespace namespace, String name, Map<String, Object> spec) {
		KubernetesApiResponse<DynamicKubernetesObject> response = create(namespace, name, spec);
		assertThat(response.isSuccess()).as("created " + name).isFalse();
		assertThat(response.getHttpStatusCode()).isEqualTo(422);
		return response.getStatus().getMessage();
	}

	private static KubernetesApiResponse<DynamicKubernetesObject> create(TestNamespace namespace, String name,
			Map<String, Object> spec) {
		return gateways.create(object(namespace, name, spec));
	}

	private static DynamicKubernetesObject object(TestNamespace namespace, String name, Map<String, Object> spec) {
		JsonObject raw = new JsonObject();
		raw.addProperty("apiVersion", "crdgen.kubeop.test/v1");
		raw.addProperty("kind", "Gateway");
		JsonObject metadata = new JsonObject();
		metadata.addProperty("name", name);
		metadata.addProperty("namespace", namespace.name());
		raw.add("metadata", metadata);
		raw.add("spec", new Gson().toJsonTree(spec));
		return new DynamicKubernetesObject(raw);
	}

	private static String condition(JsonObject crd, String type) {
		if (!crd.has("status")) {
			return null;
		}
		for (JsonElement element : crd.getAsJsonObject("status").getAsJsonArray("conditions")) {
			JsonObject condition = element.getAsJsonObject();
			if (type.equals(condition.get("type").getAsString())) {
				return condition.get("status").getAsString();
			}
		}
		return null;
	}

}
