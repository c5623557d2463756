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

package io.github.kubeop.actuate;

import java.time.Duration;

import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.actuate.KubeopEndpointAutoConfiguration;
import io.github.kubeop.autoconfigure.health.KubeopHealthContributorAutoConfiguration;
import io.github.kubeop.autoconfigure.metrics.KubeopMetricsAutoConfiguration;
import io.github.kubeop.health.HandlersHealthIndicator;
import io.github.kubeop.health.InformersHealthIndicator;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.metrics.KubeopMetrics;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ApplicationContextRunner tests of the observability auto-configurations, and of the
 * health indicator's states that need no API server.
 *
 * @author Kubeop authors
 */
class ObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
						KubeopHandlersAutoConfiguration.class, KubeopMetricsAutoConfiguration.class,
						KubeopHealthContributorAutoConfiguration.class, KubeopEndpointAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void metricsNeedAMeterRegistryAndBackOffToTheUsersBean() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(KubeopMetrics.class));
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(KubeopMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("workqueue.depth").meters()).isEmpty();
		});
		KubeopMetrics mine = new KubeopMetrics(new SimpleMeterRegistry());
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(KubeopMetrics.class, () -> mine)
			.run((context) -> assertThat(context).getBean(KubeopMetrics.class).isSameAs(mine));
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeopMetrics.class));
	}

	@Test
	void healthIndicatorIsSwitchedOffByItsFlagAndGoneWithoutActuatorHealth() {
		this.runner.run((context) -> assertThat(context).hasBean("informersHealthIndicator"));
		this.runner.withPropertyValues("management.health.informers.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("informersHealthIndicator"));
		this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean("informersHealthIndicator"));
		InformersHealthIndicator mine = new InformersHealthIndicator(new InformerRegistry(new ApiClient()), () -> 0,
				Duration.ofSeconds(1));
		this.runner.withBean("informersHealthIndicator", InformersHealthIndicator.class, () -> mine)
			.run((context) -> assertThat(context).getBean("informersHealthIndicator").isSameAs(mine));
	}

	@Test
	void handlersHealthIndicatorIsSwitchedOffByItsFlagAndGoneWithoutHandlers() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(HandlersHealthIndicator.class));
		this.runner.withPropertyValues("management.health.handlers.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(HandlersHealthIndicator.class));
		this.runner.withPropertyValues("kubeop.handlers.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(HandlersHealthIndicator.class));
	}

	@Test
	void endpointExistsWhenExposedAndIsGoneWithoutActuator() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(InformersEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=informers")
			.run((context) -> assertThat(context).hasSingleBean(InformersEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=informers")
			.withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(InformersEndpoint.class));
	}

	@Test
	void healthIsDownUntilInformersHaveSyncedAndWhileHandlersWaitForInformers() {
		InformerRegistry empty = new InformerRegistry(new ApiClient());
		assertThat(new InformersHealthIndicator(empty, () -> 0, Duration.ofSeconds(1)).health(true).getStatus())
			.isEqualTo(Status.UP);
		assertThat(new InformersHealthIndicator(empty, () -> 1, Duration.ofSeconds(1)).health(true).getStatus())
			.isEqualTo(Status.DOWN);
	}

}
