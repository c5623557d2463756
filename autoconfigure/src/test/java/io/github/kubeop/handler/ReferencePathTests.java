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

package io.github.kubeop.handler;

import java.util.List;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1EnvFromSource;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ProjectedVolumeSource;
import io.kubernetes.client.openapi.models.V1SecretEnvSource;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Reading reference paths: pure logic, so unit tests.
 *
 * @author Kubeop authors
 */
class ReferencePathTests {

	@Test
	void listPathReadsEveryElementAndSkipsElementsWithoutTheField() {
		ReferencePath path = ReferencePath.of("spec.template.spec.volumes[].secret.secretName", V1Deployment.class);
		V1Deployment deployment = deployment(
				new V1Volume().name("a").secret(new V1SecretVolumeSource().secretName("one")),
				new V1Volume().name("b").projected(new V1ProjectedVolumeSource()),
				new V1Volume().name("c").secret(new V1SecretVolumeSource().secretName("two")));
		int prefix = path.listPrefix();
		List<String> names = path.nodes(deployment, prefix)
			.stream()
			.flatMap((node) -> path.strings(node, prefix).stream())
			.toList();
		assertThat(names).containsExactly("one", "two");
	}

	@Test
	void nestedListsAreFollowed() {
		ReferencePath path = ReferencePath.of("spec.template.spec.containers[].envFrom[].secretRef.name",
				V1Deployment.class);
		V1Deployment deployment = new V1Deployment().spec(
				new V1DeploymentSpec()
					.template(
							new V1PodTemplateSpec().spec(
									new V1PodSpec()
										.addContainersItem(new V1Container().name("a")
											.addEnvFromItem(new V1EnvFromSource()
												.secretRef(new V1SecretEnvSource().name("one")))
											.addEnvFromItem(new V1EnvFromSource()
												.secretRef(new V1SecretEnvSource().name("two"))))
										.addContainersItem(new V1Container().name("b")))));
		assertThat(path.strings(path.nodes(deployment, 0).get(0), 0)).containsExactly("one", "two");
	}

	@Test
	void namespacePathMustReadBesideTheNamePath() {
		ReferencePath path = ReferencePath.of("spec.template.spec.volumes[].secret.secretName", V1Deployment.class);
		path.checkBeside(ReferencePath.of("spec.template.spec.volumes[].name", V1Deployment.class));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> path.checkBeside(ReferencePath.of("metadata.namespace", V1Deployment.class)))
			.withMessageContaining("does not read beside");
	}

	@Test
	void listPathOnAFieldThatIsNotAListIsRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ReferencePath.of("spec.template[].metadata.name", V1Deployment.class))
			.withMessage("'template' of V1DeploymentSpec is not a list, so 'template[]' has no elements");
	}

	@Test
	void dynamicObjectIsReadFromItsJson() {
		DynamicKubernetesObject object = new DynamicKubernetesObject(JsonParser
			.parseString("{\"spec\":{\"consumers\":[{\"secretRef\":{\"name\":\"one\",\"namespace\":\"other\"}},"
					+ "{\"secretRef\":{\"name\":\"two\"}},{\"secretRef\":null}]}}")
			.getAsJsonObject());
		ReferencePath names = ReferencePath.of("spec.consumers[].secretRef.name", DynamicKubernetesObject.class);
		ReferencePath namespaces = ReferencePath.of("spec.consumers[].secretRef.namespace",
				DynamicKubernetesObject.class);
		names.checkBeside(namespaces);
		int prefix = names.listPrefix();
		List<String> pairs = names.nodes(object, prefix)
			.stream()
			.map((node) -> namespaces.strings(node, prefix) + "/" + names.strings(node, prefix))
			.toList();
		assertThat(pairs).containsExactly("[other]/[one]", "[]/[two]", "[]/[]");
	}

	private static V1Deployment deployment(V1Volume... volumes) {
		return new V1Deployment().spec(new V1DeploymentSpec()
			.template(new V1PodTemplateSpec().spec(new V1PodSpec().volumes(List.of(volumes)))));
	}

}
