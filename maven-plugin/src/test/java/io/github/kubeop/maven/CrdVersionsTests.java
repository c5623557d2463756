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
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.kubeop.maven.Shops.ClusterShopV2;
import io.github.kubeop.maven.Shops.OtherShopV1;
import io.github.kubeop.maven.Shops.ShopV1;
import io.github.kubeop.maven.Shops.ShopV1alpha1;
import io.github.kubeop.maven.Shops.ShopV1beta1;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the {@code versions} and {@code conversion} sections {@link CrdGenerator}
 * writes for kinds declared by several classes.
 *
 * @author Kubeop authors
 */
class CrdVersionsTests {

	private static final ConversionWebhook WEBHOOK = new ConversionWebhook("shop-operator", "shops", 8443, null,
			"shops/shop-operator-serving-cert")
		.validated();

	@Test
	void eachClassIsAVersionWithItsOwnSchemaAndOneIsStored() {
		ObjectNode crd = new CrdGenerator().customResourceDefinition(List.of(ShopV1alpha1.class, ShopV1.class));
		assertThat(crd.at("/metadata/name").asText()).isEqualTo("shops.crdgen.kubeop.test");
		assertThat(crd.at("/spec/names/kind").asText()).isEqualTo("Shop");
		JsonNode versions = crd.at("/spec/versions");
		assertThat(versions).extracting((version) -> version.get("name").asText()).containsExactly("v1", "v1alpha1");
		assertThat(versions.at("/0/storage").asBoolean()).isTrue();
		assertThat(versions.at("/1/storage").asBoolean()).isFalse();
		assertThat(versions.at("/0/served").asBoolean()).isTrue();
		assertThat(versions.at("/1/served").asBoolean()).isTrue();
		assertThat(versions.at("/1/deprecated").asBoolean()).isTrue();
		assertThat(versions.at("/0/schema/openAPIV3Schema/properties/spec/properties/owners/type").asText())
			.isEqualTo("array");
		assertThat(versions.at("/1/schema/openAPIV3Schema/properties/spec/properties/owner/type").asText())
			.isEqualTo("string");
	}

	@Test
	void oneVersionConvertsWithStrategyNone() {
		ObjectNode crd = new CrdGenerator(WEBHOOK, true).customResourceDefinition(List.of(ShopV1.class));
		assertThat(crd.at("/spec/conversion/strategy").asText()).isEqualTo("None");
		assertThat(crd.at("/spec/conversion/webhook").isMissingNode()).isTrue();
		assertThat(crd.at("/metadata/annotations").isMissingNode()).isTrue();
		assertThat(crd.at("/spec/versions/0/storage").asBoolean()).isTrue();
	}

	@Test
	void severalVersionsCallTheConfiguredWebhookWithTheCertManagerAnnotation() {
		ObjectNode crd = new CrdGenerator(WEBHOOK, true)
			.customResourceDefinition(List.of(ShopV1alpha1.class, ShopV1.class));
		JsonNode conversion = crd.at("/spec/conversion");
		assertThat(conversion.at("/strategy").asText()).isEqualTo("Webhook");
		assertThat(conversion.at("/webhook/conversionReviewVersions")).extracting(JsonNode::asText)
			.containsExactly("v1");
		JsonNode service = conversion.at("/webhook/clientConfig/service");
		assertThat(service.at("/name").asText()).isEqualTo("shop-operator");
		assertThat(service.at("/namespace").asText()).isEqualTo("shops");
		assertThat(service.at("/port").asInt()).isEqualTo(8443);
		assertThat(service.at("/path").asText()).isEqualTo("/convert/crdgen.kubeop.test/shops");
		assertThat(crd.at("/metadata/annotations").get("cert-manager.io/inject-ca-from").asText())
			.isEqualTo("shops/shop-operator-serving-cert");
	}

	@Test
	void configuredPathTakesGroupAndPlural() {
		ConversionWebhook webhook = new ConversionWebhook("op", "ops", 443, "/hooks/{plural}.{group}/convert", null)
			.validated();
		ObjectNode crd = new CrdGenerator(webhook, true)
			.customResourceDefinition(List.of(ShopV1alpha1.class, ShopV1.class));
		assertThat(crd.at("/spec/conversion/webhook/clientConfig/service/path").asText())
			.isEqualTo("/hooks/shops.crdgen.kubeop.test/convert");
		assertThat(crd.at("/metadata/annotations").isMissingNode()).isTrue();
	}

	@Test
	void severalVersionsWithoutWebhookConvertWithStrategyNone() {
		ObjectNode crd = new CrdGenerator().customResourceDefinition(List.of(ShopV1alpha1.class, ShopV1.class));
		assertThat(crd.at("/spec/conversion/strategy").asText()).isEqualTo("None");
	}

	@Test
	void noStorageVersionFailsNamingTheClasses() {
		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> new CrdGenerator().customResourceDefinition(List.of(ShopV1alpha1.class, OtherShopV1.class)))
			.withMessageContaining(ShopV1alpha1.class.getName())
			.withMessageContaining(OtherShopV1.class.getName())
			.withMessageContaining("and none marked as the storage version")
			.withMessageContaining("@KubernetesResource(storage = true)");
	}

	@Test
	void twoStorageVersionsFailNamingThem() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CrdGenerator()
				.customResourceDefinition(List.of(ShopV1alpha1.class, ShopV1.class, ShopV1beta1.class)))
			.withMessageContaining("and " + ShopV1.class.getName() + ", " + ShopV1beta1.class.getName()
					+ " marked as the storage version");
	}

	@Test
	void versionDeclaredTwiceFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CrdGenerator().customResourceDefinition(List.of(ShopV1.class, OtherShopV1.class)))
			.withMessageContaining("Version v1 of shops.crdgen.kubeop.test is declared twice, by "
					+ ShopV1.class.getName() + " and " + OtherShopV1.class.getName());
	}

	@Test
	void versionsOfDifferentScopesFail() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CrdGenerator().customResourceDefinition(List.of(ShopV1.class, ClusterShopV2.class)))
			.withMessageContaining("disagree on kind, singular name or scope")
			.withMessageContaining(ClusterShopV2.class.getName());
	}

	@Test
	void classesAreGroupedByDefinition() {
		assertThat(CrdGenerator.byDefinition(List.of(ShopV1alpha1.class, Gateway.class, ShopV1.class)))
			.containsOnlyKeys("shops.crdgen.kubeop.test", "gateways.crdgen.kubeop.test")
			.containsEntry("shops.crdgen.kubeop.test", List.of(ShopV1alpha1.class, ShopV1.class));
	}

	@Test
	void versionsAreOrderedByKubernetesPriority() {
		List<String> versions = new java.util.ArrayList<>(
				List.of("v1alpha1", "foo", "v1", "v2beta1", "v1beta2", "v10", "v1beta1", "v2", "bar"));
		versions.sort(CrdGenerator::compareVersionPriority);
		assertThat(versions).containsExactly("v10", "v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha1", "bar",
				"foo");
	}

	@Test
	void webhookWithoutServiceFailsNamingTheParameter() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ConversionWebhook(null, "ops", 443, null, null).validated())
			.withMessageContaining("<serviceName>");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ConversionWebhook("op", "ops", 443, null, "just-a-name").validated())
			.withMessageContaining("<certManagerCertificate> must be <namespace>/<name>");
	}

}
