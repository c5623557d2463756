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

package io.github.kubeop.webhook;

import java.util.List;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ConversionEndpoint}: a round trip per pair of versions, a review of
 * several objects, and the failures the API server is told about.
 *
 * @author Kubeop authors
 */
class ConversionEndpointTests {

	private static final Gson gson = new JSON().getGson();

	private final ConversionEndpoint endpoint = new ConversionEndpoint(List.of(new WidgetConverter()), gson);

	private static final String V1ALPHA1 = """
			{"apiVersion":"webhooks.kubeop.test/v1alpha1","kind":"Widget",
			 "metadata":{"name":"w","namespace":"ns","uid":"1234","resourceVersion":"7","labels":{"a":"b"}},
			 "spec":{"replicas":3,"colour":"green"}}""";

	private static final String V1 = """
			{"apiVersion":"webhooks.kubeop.test/v1","kind":"Widget",
			 "metadata":{"name":"w","namespace":"ns","uid":"1234","resourceVersion":"7","annotations":{"c":"d"}},
			 "spec":{"size":4,"color":"red"}}""";

	@Test
	void v1alpha1ToV1AndBackIsTheSameObject() {
		JsonObject original = JsonParser.parseString(V1ALPHA1).getAsJsonObject();
		JsonObject hub = this.endpoint.convert(original.deepCopy(), "webhooks.kubeop.test/v1");
		assertThat(hub.get("apiVersion").getAsString()).isEqualTo("webhooks.kubeop.test/v1");
		assertThat(hub.getAsJsonObject("spec").get("size").getAsInt()).isEqualTo(3);
		assertThat(hub.get("metadata")).isEqualTo(original.get("metadata"));
		assertThat(this.endpoint.convert(hub, "webhooks.kubeop.test/v1alpha1")).isEqualTo(original);
	}

	@Test
	void v1ToV1alpha1AndBackIsTheSameObject() {
		JsonObject original = JsonParser.parseString(V1).getAsJsonObject();
		JsonObject spoke = this.endpoint.convert(original.deepCopy(), "webhooks.kubeop.test/v1alpha1");
		assertThat(spoke.getAsJsonObject("spec").get("replicas").getAsInt()).isEqualTo(4);
		assertThat(this.endpoint.convert(spoke, "webhooks.kubeop.test/v1")).isEqualTo(original);
	}

	@Test
	void aReviewOfSeveralObjectsConvertsThemAllInOrder() {
		JsonObject review = review("webhooks.kubeop.test/v1", V1ALPHA1, V1,
				V1ALPHA1.replace("\"name\":\"w\"", "\"name\":\"x\""));
		JsonObject response = this.endpoint.answer(review).review().getAsJsonObject("response");
		assertThat(response.get("uid").getAsString()).isEqualTo("review-1");
		assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Success");
		JsonArray converted = response.getAsJsonArray("convertedObjects");
		assertThat(converted).hasSize(3);
		assertThat(converted.asList())
			.allSatisfy((object) -> assertThat(object.getAsJsonObject().get("apiVersion").getAsString())
				.isEqualTo("webhooks.kubeop.test/v1"));
		assertThat(converted.get(2).getAsJsonObject().getAsJsonObject("metadata").get("name").getAsString())
			.isEqualTo("x");
	}

	@Test
	void aVersionWithoutConverterFailsTheReviewWithAMessage() {
		JsonObject review = review("webhooks.kubeop.test/v2", V1);
		JsonObject response = this.endpoint.answer(review).review().getAsJsonObject("response");
		assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Failure");
		assertThat(response.getAsJsonObject("result").get("message").getAsString())
			.contains("no VersionConverter bean converts version v2");
		assertThat(response.has("convertedObjects")).isFalse();
	}

	@Test
	void convertersToTwoHubsFailNamingTheFix() {
		VersionConverter<Widget, WidgetV1alpha1> backwards = new VersionConverter<>() {

			@Override
			public WidgetV1alpha1 toHub(Widget spoke) {
				return null;
			}

			@Override
			public Widget fromHub(WidgetV1alpha1 hub) {
				return null;
			}

		};
		assertThatExceptionOfType(InvalidConverterException.class)
			.isThrownBy(() -> new ConversionEndpoint(List.of(new WidgetConverter(), backwards), gson))
			.withMessageContaining("converts to webhooks.kubeop.test/v1alpha1, but another converter of Widget "
					+ "converts to its version v1")
			.satisfies((ex) -> assertThat(ex.getFix()).contains("one hub version"));
	}

	private static JsonObject review(String desired, String... objects) {
		JsonObject request = new JsonObject();
		request.addProperty("uid", "review-1");
		request.addProperty("desiredAPIVersion", desired);
		JsonArray array = new JsonArray();
		for (String object : objects) {
			array.add(JsonParser.parseString(object));
		}
		request.add("objects", array);
		JsonObject review = new JsonObject();
		review.addProperty("apiVersion", "apiextensions.k8s.io/v1");
		review.addProperty("kind", "ConversionReview");
		review.add("request", request);
		return review;
	}

}
