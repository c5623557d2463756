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
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.PreserveUnknownFields;
import io.github.kubeop.resource.ValidationRule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the schema mapping of {@link CrdGenerator}.
 *
 * @author Kubeop authors
 */
class CrdGeneratorTests {

	private final CrdGenerator generator = new CrdGenerator();

	@Test
	void specIsAStructuralSchemaWithTheValidation() {
		JsonNode spec = openApiSchema(Gateway.class).at("/properties/spec");
		assertThat(spec.at("/type").asText()).isEqualTo("object");
		assertThat(spec.at("/required")).extracting(JsonNode::asText).containsExactly("host");
		assertThat(spec.at("/properties/host/pattern").asText()).isEqualTo("^[a-z.]+$");
		assertThat(spec.at("/properties/host/minLength").asInt()).isEqualTo(1);
		assertThat(spec.at("/properties/replicas/minimum").asInt()).isEqualTo(1);
		assertThat(spec.at("/properties/replicas/maximum").asInt()).isEqualTo(5);
		assertThat(spec.at("/properties/replicas/default").asInt()).isEqualTo(2);
		assertThat(spec.at("/properties/tier/type").asText()).isEqualTo("string");
		assertThat(spec.at("/properties/tier/enum")).extracting(JsonNode::asText).containsExactly("BASIC", "PREMIUM");
		assertThat(spec.at("/properties/port/x-kubernetes-int-or-string").asBoolean()).isTrue();
		assertThat(spec.at("/properties/memory/pattern").asText()).isEqualTo(CrdGenerator.QUANTITY_PATTERN);
		assertThat(spec.at("/properties/labels/additionalProperties/type").asText()).isEqualTo("string");
		assertThat(spec.at("/properties/aliases/maxItems").asInt()).isEqualTo(2);
		assertThat(spec.toString()).doesNotContain("$ref", "$defs", "definitions", "$schema");
	}

	@Test
	void statusMapsDateTimesAndTheStandardConditions() {
		JsonNode status = openApiSchema(Gateway.class).at("/properties/status");
		assertThat(status.at("/properties/lastUpdate/format").asText()).isEqualTo("date-time");
		JsonNode conditions = status.at("/properties/conditions");
		assertThat(conditions.at("/x-kubernetes-list-type").asText()).isEqualTo("map");
		assertThat(conditions.at("/x-kubernetes-list-map-keys/0").asText()).isEqualTo("type");
		assertThat(conditions.at("/items/required")).extracting(JsonNode::asText)
			.containsExactly("type", "status", "lastTransitionTime", "reason", "message");
	}

	@Test
	void namesSubresourcesAndColumnsComeFromTheAnnotation() {
		ObjectNode crd = this.generator.customResourceDefinition(Gateway.class);
		assertThat(crd.at("/metadata/name").asText()).isEqualTo("gateways.crdgen.kubeop.test");
		assertThat(crd.at("/spec/names/shortNames/0").asText()).isEqualTo("gw");
		assertThat(crd.at("/spec/names/categories/0").asText()).isEqualTo("kubeop");
		assertThat(crd.at("/spec/scope").asText()).isEqualTo("Namespaced");
		assertThat(crd.at("/spec/versions/0/subresources/status").isObject()).isTrue();
		assertThat(crd.at("/spec/versions/0/additionalPrinterColumns/1/priority").asInt()).isEqualTo(1);
	}

	@Test
	void yamlWritesNumbersAsPlainScalars() {
		// kubectl and Go YAML decoders know no Java-specific tags such as !!float '1'
		String yaml = this.generator.yaml(Gateway.class);
		assertThat(yaml).doesNotContain("!!").contains("minimum: 1\n").contains("maximum: 5\n");
	}

	@Test
	void resourceWithoutStatusHasNoStatusSubresource() {
		ObjectNode crd = this.generator.customResourceDefinition(Free.class);
		assertThat(crd.at("/spec/versions/0/subresources").isMissingNode()).isTrue();
		assertThat(crd
			.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/extra"
					+ "/x-kubernetes-preserve-unknown-fields")
			.asBoolean()).isTrue();
	}

	@Test
	void objectFieldFailsNamingClassAndField() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.customResourceDefinition(Untyped.class))
			.withMessageContaining(Untyped.class.getName())
			.withMessageContaining("field 'anything' of " + Untyped.Spec.class.getName());
	}

	@Test
	void jdkClassFieldFailsNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.customResourceDefinition(Threaded.class))
			.withMessageContaining("field 'worker' of " + Threaded.Spec.class.getName());
	}

	@Test
	void typeCycleFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.generator.customResourceDefinition(Cyclic.class))
			.withMessageContaining(Cyclic.class.getName())
			.withMessageContaining("cycle");
	}

	@Test
	void validationRulesLandOnTheirFieldClassAndRoot() {
		JsonNode root = openApiSchema(Database.class);
		assertThat(root.at("/x-kubernetes-validations/0/rule").asText())
			.isEqualTo("self.metadata.name.startsWith('db-')");
		JsonNode spec = root.at("/properties/spec");
		assertThat(spec.at("/x-kubernetes-validations/0/rule").asText())
			.isEqualTo("self.minReplicas <= self.maxReplicas");
		assertThat(spec.at("/x-kubernetes-validations/0/fieldPath").asText()).isEqualTo(".minReplicas");
		JsonNode storageClass = spec.at("/properties/storageClass/x-kubernetes-validations/0");
		assertThat(storageClass.at("/rule").asText()).isEqualTo("self == oldSelf");
		assertThat(storageClass.at("/messageExpression").asText())
			.isEqualTo("'storageClass is immutable, it stays ' + oldSelf");
		assertThat(storageClass.at("/reason").asText()).isEqualTo("FieldValueForbidden");
		assertThat(storageClass.has("optionalOldSelf")).isFalse();
		JsonNode size = spec.at("/properties/sizeGi/x-kubernetes-validations/0");
		assertThat(size.at("/optionalOldSelf").asBoolean()).isTrue();
		assertThat(size.at("/message").asText()).isEqualTo("sizeGi may not shrink");
		assertThat(spec.at("/properties/hosts/x-kubernetes-validations/0/message").asText())
			.isEqualTo("hosts must be under example.com");
		// a list field's rule is on the list, not on its items
		assertThat(spec.at("/properties/hosts/x-kubernetes-validations")).hasSize(1);
		assertThat(spec.at("/properties/hosts/items/x-kubernetes-validations").isMissingNode()).isTrue();
		assertThat(root.toString()).doesNotContain(ValidationRuleChecker.ORIGIN);
	}

	@Test
	void rulesOfAFieldAndOfItsClassAreBothKept() {
		JsonNode limits = openApiSchema(RulesOnFieldAndClass.class).at("/properties/spec/properties/limits");
		assertThat(limits.at("/x-kubernetes-validations")).extracting((rule) -> rule.get("rule").asText())
			.containsExactlyInAnyOrder("self.minimum <= self.maximum", "self.minimum >= 0");
		// a structural schema has no allOf of types
		assertThat(limits.has("allOf")).isFalse();
		assertThat(limits.at("/type").asText()).isEqualTo("object");
	}

	@Test
	void ruleReadingAnUnknownFieldFailsNamingClassAndField() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.UnknownField.class))
			.withMessageContaining(BadRules.UnknownField.class.getName())
			.withMessageContaining("field 'limits' of " + BadRules.UnknownField.Spec.class.getName())
			.withMessageContaining("undefined field 'maximun'");
	}

	@Test
	void ruleThatIsNotABoolFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.NotBool.class))
			.withMessageContaining("field 'name' of " + BadRules.NotBool.Spec.class.getName())
			.withMessageContaining("must evaluate to a bool, not int");
	}

	@Test
	void ruleOfWrongTypesFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.WrongTypes.class))
			.withMessageContaining("field 'name' of " + BadRules.WrongTypes.Spec.class.getName())
			.withMessageContaining("found no matching overload for '_>_'");
	}

	@Test
	void transitionRuleUnderAPlainListFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.TransitionInList.class))
			.withMessageContaining("field 'name' of " + BadRules.Named.class.getName())
			.withMessageContaining("cannot sit under 'spec.items'");
	}

	@Test
	void optionalOldSelfWithoutOldSelfFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.OptionalWithoutOldSelf.class))
			.withMessageContaining("optionalOldSelf is set but the rule does not read oldSelf");
	}

	@Test
	void fieldPathThatIsNoFieldFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.BadFieldPath.class))
			.withMessageContaining("class " + BadRules.LimitsWithBadPath.class.getName())
			.withMessageContaining("fieldPath '.maximum2' does not refer to a field");
	}

	@Test
	void messageWithLineBreakFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.generator.customResourceDefinition(BadRules.MultiLineMessage.class))
			.withMessageContaining("the message must not contain line breaks");
	}

	@Test
	void kubernetesLibraryFunctionsCompile() {
		JsonNode spec = openApiSchema(BadRules.KubernetesFunctions.class).at("/properties/spec");
		assertThat(spec.at("/x-kubernetes-validations")).hasSize(BadRules.KubernetesFunctions.Spec.class
			.getAnnotationsByType(io.github.kubeop.resource.ValidationRule.class).length);
	}

	@Test
	void withoutCompilingOnlyTheStructureIsChecked() {
		CrdGenerator structureOnly = new CrdGenerator(null, false);
		assertThat(structureOnly.customResourceDefinition(BadRules.UnknownField.class)).isNotNull();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> structureOnly.customResourceDefinition(BadRules.MultiLineMessage.class))
			.withMessageContaining("line breaks");
	}

	private JsonNode openApiSchema(Class<?> type) {
		return this.generator.customResourceDefinition(type).at("/spec/versions/0/schema/openAPIV3Schema");
	}

	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1")
	static class RulesOnFieldAndClass extends CustomResource<RulesOnFieldAndClass.Spec, Void> {

		record Spec(@ValidationRule("self.minimum >= 0") OrderedLimits limits) {
		}

	}

	@ValidationRule("self.minimum <= self.maximum")
	record OrderedLimits(int minimum, int maximum) {
	}

	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1")
	static class Free extends CustomResource<Free.Spec, Void> {

		record Spec(@PreserveUnknownFields Object extra) {
		}

	}

	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1")
	static class Untyped extends CustomResource<Untyped.Spec, Void> {

		record Spec(String name, Object anything) {
		}

	}

	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1")
	static class Threaded extends CustomResource<Threaded.Spec, Void> {

		record Spec(List<String> names, Thread worker) {
		}

	}

	@KubernetesResource(group = "crdgen.kubeop.test", version = "v1")
	static class Cyclic extends CustomResource<CrdGeneratorTests.Node, Void> {

	}

	record Node(String name, List<Node> children) {
	}

}
