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

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Puts the {@code informers} health contributor into the readiness group by default (with
 * Spring Boot's {@code readinessState}), unless the application configures the group
 * itself or sets {@code kubeop.health.readiness=false}. It never touches the liveness
 * group: an unreachable API server is no reason to restart the process.
 *
 * @author Kubeop authors
 */
class ReadinessGroupEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	static final String INCLUDE = "management.endpoint.health.group.readiness.include";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (environment.containsProperty(INCLUDE)
				|| !environment.getProperty("kubeop.health.readiness", Boolean.class, true)) {
			return;
		}
		environment.getPropertySources()
			.addLast(new MapPropertySource("kubeopReadinessGroup", Map.of(INCLUDE, "readinessState,informers")));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
