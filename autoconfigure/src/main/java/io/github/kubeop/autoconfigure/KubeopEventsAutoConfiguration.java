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

import java.io.IOException;
import java.net.InetAddress;

import io.github.kubeop.event.DefaultEventRecorder;
import io.github.kubeop.event.EventRecorder;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the {@link EventRecorder} that handlers use to write Kubernetes
 * Events.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(after = KubeopClientAutoConfiguration.class)
@ConditionalOnClass(ApiClient.class)
@ConditionalOnBean(ApiClient.class)
@ConditionalOnBooleanProperty(name = "kubeop.events.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeopProperties.class)
public final class KubeopEventsAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(EventRecorder.class)
	DefaultEventRecorder kubeopEventRecorder(ApiClient client, KubeopProperties properties, Environment environment) {
		KubeopProperties.Events events = properties.getEvents();
		String controller = events.getReportingController();
		if (controller == null || controller.isBlank()) {
			controller = environment.getProperty("spring.application.name", "kubeop");
		}
		if (controller.length() > 128) {
			throw new InvalidConfigurationPropertyValueException("kubeop.events.reporting-controller", controller,
					"the API server takes at most 128 characters (set it when spring.application.name does not fit)");
		}
		if (events.getQueueCapacity() < 1) {
			throw new InvalidConfigurationPropertyValueException("kubeop.events.queue-capacity",
					events.getQueueCapacity(), "at least one Event must fit");
		}
		LeaderElectionSettings.positive("kubeop.events.request-timeout", events.getRequestTimeout());
		// client-go's reporting instance: the controller and the host (a pod's name)
		return new DefaultEventRecorder(client, controller, controller + "-" + hostName(), events.getQueueCapacity(),
				events.getRequestTimeout());
	}

	private static String hostName() {
		String host = System.getenv("HOSTNAME");
		if (host != null && !host.isBlank()) {
			return host;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class EventMetricsConfiguration {

		/**
		 * Counts the Events of the default recorder by outcome, each counter at zero from
		 * the first scrape.
		 */
		@Bean
		MeterBinder kubeopEventsMeterBinder(ObjectProvider<DefaultEventRecorder> recorder) {
			return (registry) -> recorder.ifAvailable((events) -> {
				for (DefaultEventRecorder.Outcome outcome : DefaultEventRecorder.Outcome.values()) {
					FunctionCounter.builder("kubeop.events", events, (counted) -> counted.count(outcome))
						.description("Kubernetes Events recorded, by outcome")
						.tag("result", outcome.tag())
						.register(registry);
				}
			});
		}

	}

}
