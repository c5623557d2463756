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

import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopProperties;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.health.HandlersHealthIndicator;
import io.github.kubeop.health.InformersHealthIndicator;
import io.github.kubeop.health.ShardingHealthIndicator;
import io.github.kubeop.informer.InformerRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the {@code informers} and {@code handlers} health contributors.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(after = { KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class },
		// the readiness group post-processor extends the group that Boot's runs before it
		afterName = "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration")
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(InformerRegistry.class)
@ConditionalOnEnabledHealthIndicator("informers")
public final class KubeopHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "informersHealthIndicator")
	InformersHealthIndicator informersHealthIndicator(InformerRegistry informers,
			ObjectProvider<HandlerRegistrar> handlers, KubeopProperties properties) {
		return new InformersHealthIndicator(informers, () -> {
			HandlerRegistrar registrar = handlers.getIfAvailable();
			return (registrar != null) ? registrar.controllers().size() : 0;
		}, properties.getHealth().getWatchFailureThreshold());
	}

	@Bean
	@ConditionalOnMissingBean(name = "handlersHealthIndicator")
	@ConditionalOnBean(HandlerRegistrar.class)
	@ConditionalOnEnabledHealthIndicator("handlers")
	HandlersHealthIndicator handlersHealthIndicator(HandlerRegistrar handlers) {
		return new HandlersHealthIndicator(handlers);
	}

	@Bean
	@ConditionalOnMissingBean(name = "shardingHealthIndicator")
	@ConditionalOnBean(ShardingLifecycle.class)
	@ConditionalOnEnabledHealthIndicator("sharding")
	ShardingHealthIndicator shardingHealthIndicator(ShardingLifecycle sharding) {
		return new ShardingHealthIndicator(sharding.member());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor")
	@ConditionalOnEnabledHealthIndicator("informers")
	@ConditionalOnBooleanProperty(name = "kubeop.health.readiness", matchIfMissing = true)
	static class ReadinessGroupConfiguration {

		@Bean
		InformersReadinessGroupPostProcessor informersReadinessGroupPostProcessor(Environment environment) {
			return new InformersReadinessGroupPostProcessor(environment);
		}

	}

}
