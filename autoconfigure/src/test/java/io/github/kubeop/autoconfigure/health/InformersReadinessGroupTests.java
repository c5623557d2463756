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

import io.github.kubeop.informer.InformerRegistry;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the {@code informers} contributor joins the readiness group when it exists,
 * and that an application in which it does not exist (informers switched off, the
 * indicator disabled, the auto-configuration excluded) still starts.
 *
 * @author Kubeop authors
 */
class InformersReadinessGroupTests {

	@Test
	void informersJoinTheReadinessGroupAndNotTheLivenessGroup() {
		try (ConfigurableApplicationContext context = run(WithRegistry.class)) {
			HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
			assertThat(groups.get("readiness").isMember("informers")).isTrue();
			assertThat(groups.get("readiness").isMember("readinessState")).isTrue();
			assertThat(groups.get("liveness").isMember("informers")).isFalse();
		}
	}

	@Test
	void applicationsOwnReadinessMembersWin() {
		try (ConfigurableApplicationContext context = run(WithRegistry.class,
				"management.endpoint.health.group.readiness.include=readinessState")) {
			assertThat(context.getBean(HealthEndpointGroups.class).get("readiness").isMember("informers")).isFalse();
		}
	}

	@Test
	void optOutByProperty() {
		try (ConfigurableApplicationContext context = run(WithRegistry.class, "kubeop.health.readiness=false")) {
			assertThat(context.getBean(HealthEndpointGroups.class).get("readiness").isMember("informers")).isFalse();
		}
	}

	@Test
	void applicationWithoutInformersStarts() {
		try (ConfigurableApplicationContext context = run("kubeop.informers.enabled=false")) {
			HealthEndpointGroup readiness = context.getBean(HealthEndpointGroups.class).get("readiness");
			assertThat(readiness.isMember("readinessState")).isTrue();
			assertThat(readiness.isMember("informers")).isFalse();
		}
	}

	@Test
	void applicationWithTheInformersIndicatorDisabledStarts() {
		try (ConfigurableApplicationContext context = run("management.health.informers.enabled=false")) {
			HealthEndpointGroup readiness = context.getBean(HealthEndpointGroups.class).get("readiness");
			assertThat(readiness.isMember("readinessState")).isTrue();
			assertThat(readiness.isMember("informers")).isFalse();
		}
	}

	@Test
	void applicationWithTheHealthAutoConfigurationExcludedStarts() {
		try (ConfigurableApplicationContext context = run(
				"spring.autoconfigure.exclude=" + KubeopHealthContributorAutoConfiguration.class.getName())) {
			assertThat(context.getBean(HealthEndpointGroups.class).get("readiness").isMember("informers")).isFalse();
		}
	}

	private ConfigurableApplicationContext run(String... properties) {
		return run(NoCluster.class, properties);
	}

	private ConfigurableApplicationContext run(Class<?> configuration, String... properties) {
		return new SpringApplicationBuilder(configuration).web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off", "kubeop.informers.enabled=false")
			.properties(properties)
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class NoCluster {

		@Bean
		ApiClient apiClient() {
			return new ApiClient().setBasePath("https://127.0.0.1:1");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(NoCluster.class)
	static class WithRegistry {

		// an empty registry: the informers contributor exists, nothing is watched
		@Bean
		InformerRegistry informerRegistry(ApiClient client) {
			return new InformerRegistry(client);
		}

	}

}
