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

import java.nio.file.Path;
import java.util.List;

import io.github.kubeop.autoconfigure.KubeopProperties;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OperatorClasses}.
 *
 * @author Kubeop authors
 */
class OperatorClassesTests {

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void findsConcreteResourceClassesAndHandlerClassesOfThePackages() throws Exception {
		OperatorClasses classes = OperatorClasses.scan(testClasses(), this.classLoader,
				List.of("io.github.kubeop.maven"));
		assertThat(classes.resourceClasses()).contains(Gateway.class, CrdGeneratorTests.Free.class)
			.doesNotContain(Gateway.Spec.class, RbacGeneratorTests.PodHandler.class);
		assertThat(classes.handlerClasses())
			.contains(RbacGeneratorTests.PodHandler.class, GeneratedRbacIntegrationTests.GatewayHandler.class)
			.doesNotContain(Gateway.class);
	}

	@Test
	void scansOnlyTheConfiguredPackages() throws Exception {
		OperatorClasses classes = OperatorClasses.scan(testClasses(), this.classLoader,
				List.of("io.github.kubeop.mav"));
		assertThat(classes.resourceClasses()).isEmpty();
		assertThat(classes.handlerClasses()).isEmpty();
	}

	@Test
	void bindsEveryConfigurationDocumentProfileSpecificOnesIncluded() throws Exception {
		Path operator = new ClassPathResource("io/github/kubeop/maven/operator/application.yaml").getFile()
			.toPath()
			.getParent();
		List<KubeopProperties> documents = OperatorClasses.properties(operator, this.classLoader);
		assertThat(documents).hasSize(2);
		assertThat(documents.get(0).getInformers().getResources().get("deployments").getKind()).isEqualTo("Deployment");
		assertThat(documents.get(0).getLeaderElection().isEnabled()).isFalse();
		assertThat(documents.get(1).getLeaderElection().isEnabled()).isTrue();
	}

	private static Path testClasses() throws Exception {
		return Path.of(Gateway.class.getProtectionDomain().getCodeSource().getLocation().toURI());
	}

}
