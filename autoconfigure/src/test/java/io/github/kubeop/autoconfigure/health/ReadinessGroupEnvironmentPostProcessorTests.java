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

package io.github.kubeop.autoconfigure.health;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReadinessGroupEnvironmentPostProcessor}.
 *
 * @author Kubeop authors
 */
class ReadinessGroupEnvironmentPostProcessorTests {

	private final ReadinessGroupEnvironmentPostProcessor processor = new ReadinessGroupEnvironmentPostProcessor();

	@Test
	void readinessGroupIncludesTheInformersByDefault() {
		MockEnvironment environment = new MockEnvironment();
		this.processor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(ReadinessGroupEnvironmentPostProcessor.INCLUDE))
			.isEqualTo("readinessState,informers");
		assertThat(environment.getProperty("management.endpoint.health.group.liveness.include")).isNull();
	}

	@Test
	void applicationsOwnReadinessGroupWins() {
		MockEnvironment environment = new MockEnvironment().withProperty(ReadinessGroupEnvironmentPostProcessor.INCLUDE,
				"readinessState");
		this.processor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(ReadinessGroupEnvironmentPostProcessor.INCLUDE)).isEqualTo("readinessState");
	}

	@Test
	void optOutByProperty() {
		MockEnvironment environment = new MockEnvironment().withProperty("kubeop.health.readiness", "false");
		this.processor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(ReadinessGroupEnvironmentPostProcessor.INCLUDE)).isNull();
	}

}
