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

package io.github.kubeop.autoconfigure.metrics;

import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.LeaderElectionLifecycle;
import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.metrics.KubeopMetrics;
import io.github.kubeop.metrics.WebhookMeters;
import io.github.kubeop.write.KubernetesTemplate;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of Kubeop's Micrometer meters, when a {@link MeterRegistry} exists.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(before = KubeopHandlersAutoConfiguration.class, after = KubeopInformersAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public final class KubeopMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KubeopMetrics kubeopMetrics(MeterRegistry registry) {
		return new KubeopMetrics(registry);
	}

	@Bean
	@ConditionalOnMissingBean
	WebhookMeters kubeopWebhookMeters(MeterRegistry registry) {
		return new WebhookMeters(registry);
	}

	@Bean
	SmartInitializingSingleton kubeopTemplateMetricsBinder(KubeopMetrics metrics,
			ObjectProvider<KubernetesTemplate> templates) {
		return () -> templates.ifAvailable((template) -> template.setWriteListener(metrics));
	}

	@Bean
	SmartLifecycle kubeopMetricsBinder(KubeopMetrics metrics, ObjectProvider<InformerRegistry> informers,
			ObjectProvider<HandlerRegistrar> handlers, ObjectProvider<LeaderElectionLifecycle> leaderElection,
			ObjectProvider<ShardingLifecycle> sharding) {
		return new MetricsBinder(metrics, informers, handlers, leaderElection, sharding);
	}

	/**
	 * Registers the meters of every informer and handler that exists before the informers
	 * start, so that every meter reads zero from the first scrape, and those of informers
	 * and handlers created later (a lazy handler bean, an informer asked for in code) as
	 * they appear.
	 */
	static final class MetricsBinder implements SmartLifecycle {

		private final KubeopMetrics metrics;

		private final ObjectProvider<InformerRegistry> informers;

		private final ObjectProvider<HandlerRegistrar> handlers;

		private final ObjectProvider<LeaderElectionLifecycle> leaderElection;

		private final ObjectProvider<ShardingLifecycle> sharding;

		private volatile boolean running;

		private boolean listening;

		MetricsBinder(KubeopMetrics metrics, ObjectProvider<InformerRegistry> informers,
				ObjectProvider<HandlerRegistrar> handlers, ObjectProvider<LeaderElectionLifecycle> leaderElection,
				ObjectProvider<ShardingLifecycle> sharding) {
			this.sharding = sharding;
			this.metrics = metrics;
			this.informers = informers;
			this.handlers = handlers;
			this.leaderElection = leaderElection;
		}

		@Override
		public void start() {
			if (!this.listening) {
				this.informers.ifAvailable((registry) -> registry.forEachInformer(this.metrics::bind));
				this.handlers.ifAvailable((registrar) -> registrar.forEachController((controller) -> {
					this.metrics.bind(controller);
					if (registrar.mapsReferencesByFunction(controller.name())) {
						this.metrics.bindReferenceMappingFailures(registrar, controller.name());
					}
				}));
				this.leaderElection.ifAvailable((lifecycle) -> this.metrics
					.bindLeaderElection(lifecycle.elector().config().leaseName(), lifecycle.elector()::isLeader));
				this.sharding.ifAvailable((lifecycle) -> this.metrics.bindSharding(lifecycle.member().config().name(),
						lifecycle.member()::state));
				this.listening = true;
			}
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return Integer.MIN_VALUE + 500;
		}

	}

}
