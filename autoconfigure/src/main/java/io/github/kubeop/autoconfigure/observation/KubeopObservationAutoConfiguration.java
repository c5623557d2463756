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
package io.github.kubeop.autoconfigure.observation;

import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.tracing.HandlerCallObservationConvention;
import io.github.kubeop.tracing.KubernetesWriteObservationConvention;
import io.github.kubeop.tracing.ObservationTracing;
import io.github.kubeop.write.KubernetesTemplate;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the observations of handler calls and of the writes they make,
 * when an {@link ObservationRegistry} exists (Boot's observation auto-configuration
 * provides one; a tracing bridge such as {@code spring-boot-starter-opentelemetry} gives
 * it a tracing handler). A registry without handlers observes nothing, at no cost per
 * call. {@link HandlerCallObservationConvention} and
 * {@link KubernetesWriteObservationConvention} beans replace the default names and tags.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(before = KubeopHandlersAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
public final class KubeopObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ObservationTracing kubeopObservationTracing(ObservationRegistry registry,
			ObjectProvider<HandlerCallObservationConvention> handlerCallConvention,
			ObjectProvider<KubernetesWriteObservationConvention> writeConvention) {
		return new ObservationTracing(registry, handlerCallConvention.getIfAvailable(),
				writeConvention.getIfAvailable());
	}

	@Bean
	SmartInitializingSingleton kubeopTemplateTracingBinder(ObservationTracing tracing,
			ObjectProvider<KubernetesTemplate> templates) {
		return () -> {
			if (tracing.isActive()) {
				templates.ifAvailable((template) -> template.setWriteTracing(tracing));
			}
		};
	}

	/**
	 * The meter of trace contexts that handler calls found malformed or foreign on their
	 * objects, when Micrometer's meters are on the class path (Boot binds every
	 * {@link MeterBinder} bean to its registry).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class TraceContextMeters {

		@Bean
		MeterBinder kubeopTraceContextMeters(ObservationTracing tracing) {
			return (registry) -> FunctionCounter
				.builder("kubeop.trace.context.rejected", tracing, ObservationTracing::rejectedTraceContexts)
				.description("Handler calls whose object carried a malformed or foreign trace context annotation "
						+ "(kubeop.io/traceparent), each started a new trace instead")
				.register(registry);
		}

	}

}
