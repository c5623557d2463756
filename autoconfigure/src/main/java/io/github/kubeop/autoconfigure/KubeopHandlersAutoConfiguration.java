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

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import io.github.kubeop.annotation.HandlerAnnotationBeanPostProcessor;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerTracing;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.HandlersLifecycle;
import io.github.kubeop.handler.QueueSettings;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.leader.LeaderElectionConfig;
import io.github.kubeop.leader.LeaderElector;
import io.github.kubeop.write.KubernetesTemplate;
import io.github.kubeop.queue.DefaultRateLimitingQueue;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.QueueMetricsFactory;
import io.github.kubeop.queue.RateLimiters;
import io.github.kubeop.queue.RateLimitingQueue;
import io.github.kubeop.queue.Ticker;
import io.github.kubeop.shard.ShardLabels;
import io.github.kubeop.shard.ShardMember;
import io.github.kubeop.shard.ShardingConfig;
import io.kubernetes.client.openapi.ApiClient;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of handlers: discovery of {@code @OnAdd}, {@code @OnUpdate} and
 * {@code @OnDelete} methods, their queues and workers, and the lifecycle that runs them.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(after = KubeopInformersAutoConfiguration.class)
@ConditionalOnClass(ApiClient.class)
@ConditionalOnBooleanProperty(name = "kubeop.handlers.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeopProperties.class)
public final class KubeopHandlersAutoConfiguration {

	private static final String PREFIX = "kubeop.handlers";

	@Bean
	static HandlerAnnotationBeanPostProcessor kubeopHandlerAnnotationBeanPostProcessor(
			ObjectProvider<HandlerRegistrar> registrar) {
		return new HandlerAnnotationBeanPostProcessor(registrar);
	}

	/**
	 * Keeps handler beans out of {@code spring.main.lazy-initialization}: nothing asks
	 * for a handler bean, so a lazy one would never be created and never called.
	 * @return the filter
	 */
	@Bean
	static LazyInitializationExcludeFilter kubeopHandlerBeansLazyInitializationExcludeFilter() {
		return (beanName, definition, type) -> HandlerAnnotationBeanPostProcessor.isHandlerType(type);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(InformerRegistry.class)
	HandlerRegistrar kubeopHandlerRegistrar(InformerRegistry informers, KubeopProperties properties,
			ObjectProvider<HandlerObserver> observers, ObjectProvider<QueueMetricsFactory> queueMetrics,
			ObjectProvider<KubernetesTemplate> templates, ObjectProvider<HandlerTracing> tracings) {
		KubeopProperties.Handlers handlers = properties.getHandlers();
		check(handlers);
		List<HandlerObserver> all = observers.orderedStream().toList();
		HandlerTracing tracing = tracings.getIfAvailable(() -> HandlerTracing.NONE);
		QueueMetricsFactory meters = queueMetrics.getIfAvailable(() -> (queue) -> QueueMetrics.NOOP);
		QueueMetricsFactory metrics = (queue) -> tracing.queueMetrics(meters.queueMetrics(queue));
		HandlerRegistrar registrar = new HandlerRegistrar(informers, properties.getInformers().getNamespaces(),
				properties.getInformers().getResyncPeriod(), (name, lanes) -> queue(name, handlers, metrics, lanes),
				(name) -> workers(name, handlers), composite(all),
				(name, declared) -> queueSettings(name, declared, handlers));
		registrar.setCallTimeouts((name) -> callTimeout(name, handlers));
		KubeopProperties.Informers informerDefaults = properties.getInformers();
		registrar.setInformerDefaults((spec) -> spec.withPageSize(informerDefaults.getPageSize())
			.withWatchTimeouts(informerDefaults.getWatchTimeout(), informerDefaults.getStallTimeout())
			.withPingInterval(informerDefaults.getPingInterval())
			.withEncoding(informerDefaults.getEncoding()));
		registrar.setTracing(tracing);
		// read when a handler prunes, after every singleton exists
		registrar.setFieldManager(() -> {
			KubernetesTemplate template = templates.getIfAvailable();
			return (template != null) ? template.getFieldManager() : null;
		});
		return registrar;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(HandlerRegistrar.class)
	HandlersLifecycle kubeopHandlersLifecycle(HandlerRegistrar registrar, KubeopProperties properties) {
		return new HandlersLifecycle(registrar, properties.getHandlers().getShutdownTimeout(),
				!properties.getLeaderElection().isEnabled());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(HandlersLifecycle.class)
	@ConditionalOnBooleanProperty("kubeop.leader-election.enabled")
	LeaderElectionLifecycle kubeopLeaderElectionLifecycle(ApiClient client, HandlersLifecycle handlers,
			KubeopProperties properties, Environment environment, ConfigurableApplicationContext context) {
		LeaderElectionConfig config = LeaderElectionSettings.config(properties.getLeaderElection(), environment);
		Runnable exit = properties.getLeaderElection().isExitOnLoss() ? LeaderElectionLifecycle.exit(context) : null;
		return new LeaderElectionLifecycle((callbacks) -> new LeaderElector(config, client, callbacks), handlers, exit);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(HandlersLifecycle.class)
	@ConditionalOnBooleanProperty("kubeop.sharding.enabled")
	ShardingLifecycle kubeopShardingLifecycle(ApiClient client, HandlerRegistrar registrar, InformerRegistry informers,
			KubeopProperties properties, Environment environment, ListableBeanFactory beanFactory) {
		ShardingConfig config = ShardingSettings.config(properties, environment);
		ShardLabels labels = null;
		if (properties.getSharding().getMode() == KubeopProperties.Sharding.Mode.LABELS) {
			List<String> names = properties.getSharding().getInformers();
			labels = new ShardLabels(client, config.name(),
					() -> names.stream()
						.<ResourceInformer<?>>map(
								(name) -> beanFactory.getBean(name + "Informer", ResourceInformer.class))
						.toList(),
					registrar::shardKey, informers);
		}
		return new ShardingLifecycle(
				new ShardMember(config, client, new ShardingLifecycle.Handlers(registrar), labels));
	}

	static RateLimitingQueue<String> queue(String name, KubeopProperties.Handlers handlers,
			QueueMetricsFactory metrics) {
		return queue(name, handlers, metrics, null);
	}

	static RateLimitingQueue<String> queue(String name, KubeopProperties.Handlers handlers, QueueMetricsFactory metrics,
			Function<String, String> lanes) {
		KubeopProperties.RateLimiter defaults = handlers.getRateLimiter();
		KubeopProperties.Handler handler = handlers.getControllers().get(name);
		KubeopProperties.RateLimiter own = (handler != null) ? handler.getRateLimiter() : null;
		Duration base = pick(own != null ? own.getBaseDelay() : null, defaults.getBaseDelay());
		Duration max = pick(own != null ? own.getMaxDelay() : null, defaults.getMaxDelay());
		double qps = pick(own != null ? own.getQps() : null, defaults.getQps());
		int burst = pick(own != null ? own.getBurst() : null, defaults.getBurst());
		return new DefaultRateLimitingQueue<>(name, RateLimiters.controllerRateLimiter(base, max, qps, burst),
				metrics.queueMetrics(name), Ticker.system(), lanes);
	}

	/**
	 * A handler's queue settings: its properties, else what it declares
	 * ({@code @HandlerQueue}), else {@code kubeop.handlers.*}; a partition label no
	 * object could carry fails startup, naming where it was set.
	 */
	static QueueSettings queueSettings(String name, QueueSettings declared, KubeopProperties.Handlers handlers) {
		KubeopProperties.Handler handler = handlers.getControllers().get(name);
		QueueSettings own = (handler != null)
				? new QueueSettings(handler.getPriorities(), handler.getFairness(), handler.getPartitionLabel())
				: QueueSettings.UNSET;
		QueueSettings defaults = new QueueSettings(handlers.isPriorities(), handlers.getFairness(),
				handlers.getPartitionLabel());
		QueueSettings settings = own.orElse(declared).orElse(defaults);
		if (settings.fairness() == QueueSettings.Fairness.LABEL) {
			String source = (own.partitionLabel() != null) ? PREFIX + ".controllers." + name + ".partition-label"
					: (declared.partitionLabel() != null) ? "@HandlerQueue(partitionLabel) of handler '" + name + "'"
							: PREFIX + ".partition-label";
			try {
				QueueSettings.checkPartitionLabel(settings.partitionLabel());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidConfigurationPropertyValueException(source, settings.partitionLabel(),
						"handler '" + name + "' takes turns by label: " + ex.getMessage());
			}
		}
		return settings;
	}

	static int workers(String name, KubeopProperties.Handlers handlers) {
		KubeopProperties.Handler handler = handlers.getControllers().get(name);
		Integer workers = (handler != null && handler.getWorkers() != null) ? handler.getWorkers()
				: handlers.getWorkers();
		if (workers < 1) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".controllers." + name + ".workers", workers,
					"a handler needs at least one worker");
		}
		return workers;
	}

	static Duration callTimeout(String name, KubeopProperties.Handlers handlers) {
		KubeopProperties.Handler handler = handlers.getControllers().get(name);
		return (handler != null && handler.getCallTimeout() != null) ? handler.getCallTimeout()
				: handlers.getCallTimeout();
	}

	private static void check(KubeopProperties.Handlers handlers) {
		if (handlers.getWorkers() < 1) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".workers", handlers.getWorkers(),
					"a handler needs at least one worker");
		}
		if (handlers.getShutdownTimeout().isNegative()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".shutdown-timeout",
					handlers.getShutdownTimeout(), "the timeout must not be negative");
		}
		checkCallTimeout(PREFIX + ".call-timeout", handlers.getCallTimeout());
		check(PREFIX + ".rate-limiter", handlers.getRateLimiter());
		handlers.getControllers().forEach((name, handler) -> {
			check(PREFIX + ".controllers." + name + ".rate-limiter", handler.getRateLimiter());
			checkCallTimeout(PREFIX + ".controllers." + name + ".call-timeout", handler.getCallTimeout());
		});
		// a label set in the properties is checked at once; one a handler declares, when
		// the handler registers
		if (handlers.getFairness() == QueueSettings.Fairness.LABEL || handlers.getPartitionLabel() != null) {
			checkPartitionLabel(PREFIX + ".partition-label", handlers.getPartitionLabel());
		}
		handlers.getControllers().forEach((name, handler) -> {
			if (handler.getPartitionLabel() != null) {
				checkPartitionLabel(PREFIX + ".controllers." + name + ".partition-label", handler.getPartitionLabel());
			}
		});
	}

	private static void checkPartitionLabel(String property, String label) {
		try {
			QueueSettings.checkPartitionLabel(label);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(property, label,
					"handler queues take turns by label: " + ex.getMessage());
		}
	}

	private static void checkCallTimeout(String property, Duration timeout) {
		if (timeout == null && property.equals(PREFIX + ".call-timeout")) {
			throw new InvalidConfigurationPropertyValueException(property, null,
					"the timeout must be set; use 0 for calls without a time limit");
		}
		if (timeout != null && timeout.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(property, timeout,
					"the timeout must not be negative; use 0 for calls without a time limit");
		}
	}

	private static void check(String prefix, KubeopProperties.RateLimiter limiter) {
		if (limiter.getBaseDelay() != null && limiter.getBaseDelay().isNegative()) {
			throw new InvalidConfigurationPropertyValueException(prefix + ".base-delay", limiter.getBaseDelay(),
					"the delay must not be negative");
		}
		if (limiter.getMaxDelay() != null && limiter.getMaxDelay().isNegative()) {
			throw new InvalidConfigurationPropertyValueException(prefix + ".max-delay", limiter.getMaxDelay(),
					"the delay must not be negative");
		}
		if (limiter.getQps() != null && limiter.getQps() <= 0) {
			throw new InvalidConfigurationPropertyValueException(prefix + ".qps", limiter.getQps(),
					"the rate must be positive");
		}
		if (limiter.getBurst() != null && limiter.getBurst() < 1) {
			throw new InvalidConfigurationPropertyValueException(prefix + ".burst", limiter.getBurst(),
					"the burst must be at least 1");
		}
	}

	private static <V> V pick(V own, V defaultValue) {
		return (own != null) ? own : defaultValue;
	}

	private static HandlerObserver composite(List<HandlerObserver> observers) {
		if (observers.isEmpty()) {
			return HandlerObserver.NONE;
		}
		if (observers.size() == 1) {
			return observers.get(0);
		}
		return new HandlerObserver() {

			@Override
			public void handled(String handler, Outcome outcome, long nanos) {
				observers.forEach((observer) -> observer.handled(handler, outcome, nanos));
			}

			@Override
			public void workerStarted(String handler) {
				observers.forEach((observer) -> observer.workerStarted(handler));
			}

			@Override
			public void workerFinished(String handler) {
				observers.forEach((observer) -> observer.workerFinished(handler));
			}

		};
	}

}
