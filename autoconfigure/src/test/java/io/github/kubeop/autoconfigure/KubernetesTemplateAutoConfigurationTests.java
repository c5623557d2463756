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

package io.github.kubeop.autoconfigure;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the auto-configuration of the {@link KubernetesTemplate}.
 *
 * @author Kubeop authors
 */
class KubernetesTemplateAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
		.withBean(ApiClient.class, ApiClient::new);

	@Test
	void fieldManagerDefaultsToKubeopAndConflictsAreForced() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(KubernetesTemplate.class);
			assertThat(context.getBean(KubernetesTemplate.class).getFieldManager()).isEqualTo("kubeop");
			assertThat(context.getBean(KubernetesTemplate.class)).hasFieldOrPropertyWithValue("forceConflicts", true);
		});
	}

	@Test
	void fieldManagerDefaultsToTheApplicationName() {
		this.runner.withPropertyValues("spring.application.name=shop-operator")
			.run((context) -> assertThat(context.getBean(KubernetesTemplate.class).getFieldManager())
				.isEqualTo("shop-operator"));
	}

	@Test
	void propertiesWin() {
		this.runner
			.withPropertyValues("spring.application.name=shop-operator", "kubeop.write.field-manager=shop",
					"kubeop.write.force-conflicts=false")
			.run((context) -> {
				assertThat(context.getBean(KubernetesTemplate.class).getFieldManager()).isEqualTo("shop");
				assertThat(context.getBean(KubernetesTemplate.class)).hasFieldOrPropertyWithValue("forceConflicts",
						false);
			});
	}

	@Test
	void backsOffToAUserTemplate() {
		KubernetesTemplate mine = new KubernetesTemplate(new ApiClient(), new InformerRegistry(new ApiClient()), "me",
				true);
		this.runner.withBean(KubernetesTemplate.class, () -> mine)
			.run((context) -> assertThat(context).getBean(KubernetesTemplate.class).isSameAs(mine));
	}

	@Test
	void absentWithoutTheKubernetesClient() {
		this.runner.withClassLoader(new FilteredClassLoader(ApiClient.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KubernetesTemplate.class));
	}

}
