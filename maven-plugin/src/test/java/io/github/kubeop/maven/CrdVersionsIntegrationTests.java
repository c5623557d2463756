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

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.maven.Shops.ShopV1;
import io.github.kubeop.maven.Shops.ShopV1alpha1;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CustomResourceDefinition {@link CrdGenerator} writes for a kind with two version
 * classes, installed in a real API server: both versions served, the marked one stored,
 * the deprecated one answered with a warning, and the conversion webhook section
 * accepted.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class CrdVersionsIntegrationTests {

	private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

	private static ApiClient client;

	@BeforeAll
	static void installGeneratedDefinition(ApiClient apiClient) {
		client = apiClient;
		new Manifests(client).apply(new CrdGenerator().yaml(List.of(ShopV1alpha1.class, ShopV1.class)), null);
	}

	@Test
	void bothVersionsAreServedAndTheMarkedOneIsStored() throws Exception {
		JsonObject crd = call("GET", CRDS + "/shops.crdgen.kubeop.test", null).body();
		assertThat(crd.getAsJsonObject("status").getAsJsonArray("storedVersions").asList())
			.extracting(JsonElement::getAsString)
			.containsExactly("v1");
		JsonObject group = call("GET", "/apis/crdgen.kubeop.test", null).body();
		assertThat(group.getAsJsonArray("versions").asList())
			.extracting((version) -> version.getAsJsonObject().get("version").getAsString())
			.contains("v1", "v1alpha1");
		// the highest priority version is the one clients prefer
		assertThat(group.getAsJsonObject("preferredVersion").get("version").getAsString()).isEqualTo("v1");
	}

	@Test
	void objectCreatedInTheOldVersionIsReadInTheNewOneWithAWarningForTheDeprecatedVersion(TestNamespace namespace)
			throws Exception {
		String shop = """
				{"apiVersion": "crdgen.kubeop.test/v1alpha1", "kind": "Shop",
				 "metadata": {"name": "corner"}, "spec": {"owner": "ann"}}""";
		Answer created = call("POST", "/apis/crdgen.kubeop.test/v1alpha1/namespaces/" + namespace.name() + "/shops",
				shop);
		assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
		assertThat(created.warning()).contains("crdgen.kubeop.test/v1alpha1 Shop is deprecated");
		Answer read = call("GET", "/apis/crdgen.kubeop.test/v1/namespaces/" + namespace.name() + "/shops/corner", null);
		assertThat(read.code()).isEqualTo(200);
		assertThat(read.body().get("apiVersion").getAsString()).isEqualTo("crdgen.kubeop.test/v1");
		assertThat(read.warning()).isNull();
	}

	@Test
	void conversionWebhookSectionIsAccepted() throws Exception {
		ConversionWebhook webhook = new ConversionWebhook("shop-operator", "shops", 8443, null,
				"shops/shop-operator-serving-cert")
			.validated();
		ObjectNode crd = new CrdGenerator(webhook, true)
			.customResourceDefinition(List.of(ShopV1alpha1.class, ShopV1.class));
		// a second name and group, so that the installed definition stays as it is
		crd.with("metadata").put("name", "shops.webhook.kubeop.test");
		crd.with("spec").put("group", "webhook.kubeop.test");
		Answer created = call("POST", CRDS + "?dryRun=All", crd.toString());
		assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
		JsonObject conversion = created.body().getAsJsonObject("spec").getAsJsonObject("conversion");
		assertThat(conversion.get("strategy").getAsString()).isEqualTo("Webhook");
		JsonObject service = conversion.getAsJsonObject("webhook")
			.getAsJsonObject("clientConfig")
			.getAsJsonObject("service");
		assertThat(service.get("path").getAsString()).isEqualTo("/convert/crdgen.kubeop.test/shops");
		assertThat(service.get("port").getAsInt()).isEqualTo(8443);
		assertThat(created.body()
			.getAsJsonObject("metadata")
			.getAsJsonObject("annotations")
			.get("cert-manager.io/inject-ca-from")
			.getAsString()).isEqualTo("shops/shop-operator-serving-cert");
	}

	private static Answer call(String method, String path, String json) throws Exception {
		Request request = new Request.Builder().url(client.getBasePath() + path)
			.method(method, (json != null) ? RequestBody.create(json, MediaType.get("application/json")) : null)
			.build();
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			return new Answer(response.code(), JsonParser.parseString(response.body().string()).getAsJsonObject(),
					response.header("Warning"));
		}
	}

	record Answer(int code, JsonObject body, String warning) {
	}

}
