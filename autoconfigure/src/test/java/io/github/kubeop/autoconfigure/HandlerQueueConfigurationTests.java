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

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that wrong queue ordering settings ({@code kubeop.handlers.priorities},
 * {@code fairness}, {@code partition-label}) fail startup naming the property.
 *
 * @author Kubeop authors
 */
class HandlerQueueConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void unknownFairnessFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("kubeop.handlers.controllers.web.fairness=round-robin").run((context) -> {
			BindException failure = InformerConfigurationFailureTests.rootCause(context.getStartupFailure(),
					BindException.class);
			assertThat(failure.getProperty().getName().toString())
				.isEqualTo("kubeop.handlers.controllers.web.fairness");
		});
	}

	@Test
	void partitionLabelNoObjectCouldCarryFailsStartupNamingTheProperty() {
		this.runner
			.withPropertyValues("kubeop.handlers.controllers.web.fairness=label",
					"kubeop.handlers.controllers.web.partition-label=tenant name")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = InformerConfigurationFailureTests
					.rootCause(context.getStartupFailure(), InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.handlers.controllers.web.partition-label");
				assertThat(failure.getReason()).contains("'tenant name' is not a label key");
			});
	}

	@Test
	void fairnessByLabelWithoutALabelFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("kubeop.handlers.fairness=label").run((context) -> {
			InvalidConfigurationPropertyValueException failure = InformerConfigurationFailureTests
				.rootCause(context.getStartupFailure(), InvalidConfigurationPropertyValueException.class);
			assertThat(failure.getName()).isEqualTo("kubeop.handlers.partition-label");
			assertThat(failure.getReason()).contains("needs the label's key");
		});
	}

	@Test
	void validSettingsStart() {
		this.runner
			.withPropertyValues("kubeop.handlers.priorities=false", "kubeop.handlers.fairness=namespace",
					"kubeop.handlers.controllers.web.fairness=label",
					"kubeop.handlers.controllers.web.partition-label=example.com/tenant")
			.run((context) -> assertThat(context).hasNotFailed());
	}

}
