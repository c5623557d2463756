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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link CrdVerifier} against a real API server: a rule that cel-java accepts and the API
 * server refuses for its estimated cost fails naming the class, the field, the rule and
 * the server's message; a valid definition passes; nothing is stored.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class CrdVerifierIntegrationTests {

	private static final String DEFINITIONS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/";

	private static ApiClient client;

	@BeforeAll
	static void connect(ApiClient apiClient) {
		client = apiClient;
	}

	@Test
	void ruleRefusedForItsCostFailsNamingClassFieldAndRule() {
		// cel-java compiles the rule: the generator alone lets it through
		assertThat(new CrdGenerator().customResourceDefinition(CostlyRules.Unbounded.class)).isNotNull();
		assertThatIllegalArgumentException().isThrownBy(() -> verifier().verify(List.of(CostlyRules.Unbounded.class)))
			.withMessageContaining(
					"The API server refuses the CustomResourceDefinition unboundeds.verify.kubeop.test of "
							+ CostlyRules.Unbounded.class.getName())
			.withMessageContaining("rule \"self.all(t, t.matches('^[a-z]+$'))\" on field 'tags' of "
					+ CostlyRules.Unbounded.Spec.class.getName() + ": Forbidden: estimated rule cost exceeds budget");
	}

	@Test
	void ruleOfOneOfSeveralVersionsNamesThatVersionsClass() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> verifier()
				.verify(List.of(CostlyRules.VersionedV1alpha1.class, CostlyRules.VersionedV1.class)))
			.withMessageContaining("rule \"self.all(t, t.matches('^[a-z]+$'))\" on field 'tags' of "
					+ CostlyRules.Unbounded.Spec.class.getName() + ": Forbidden: estimated rule cost exceeds budget")
			.withMessageContaining(
					"spec.versions[0].schema.openAPIV3Schema (version v1, " + CostlyRules.VersionedV1.class.getName()
							+ "): Forbidden: x-kubernetes-validations estimated rule " + "cost total")
			.withMessageNotContaining("spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags]")
			.withMessageNotContaining(CostlyRules.Bounded.Spec.class.getName());
	}

	@Test
	void validDefinitionPassesAndIsNotStored() throws Exception {
		assertThat(verifier().verify(List.of(CostlyRules.Bounded.class)))
			.containsExactly("boundeds.verify.kubeop.test");
		// a dry run answers once the request is validated: nothing is stored then or
		// later
		assertThat(get("boundeds.verify.kubeop.test").code()).isEqualTo(404);
	}

	@Test
	void changedDefinitionIsVerifiedAsAnUpdateAndTheStoredOneIsKept() throws Exception {
		new Manifests(client).apply(new CrdGenerator().yaml(CostlyRules.Installed.class), null);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> verifier().verify(List.of(CostlyRules.InstalledUnbounded.class)))
			.withMessageContaining("rule \"self.all(t, t.matches('^[a-z]+$'))\" on field 'tags' of "
					+ CostlyRules.Unbounded.Spec.class.getName() + ": Forbidden: estimated rule cost exceeds budget");
		assertThat(verifier().verify(List.of(CostlyRules.Installed.class)))
			.containsExactly("installeds.verify.kubeop.test");
		try (Response stored = get("installeds.verify.kubeop.test")) {
			JsonNode tags = new ObjectMapper().readTree(stored.body().string())
				.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/tags");
			assertThat(tags.path("maxItems").asInt()).isEqualTo(16);
		}
	}

	private static CrdVerifier verifier() {
		return new CrdVerifier(client, new CrdGenerator());
	}

	private static Response get(String name) throws Exception {
		return client.getHttpClient()
			.newCall(new Request.Builder().url(client.getBasePath() + DEFINITIONS + name).get().build())
			.execute();
	}

}
