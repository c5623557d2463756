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

package io.github.kubeop.autoconfigure.actuate;

import io.github.kubeop.actuate.InformersEndpoint;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.InformerRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code informers} actuator endpoint.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(after = { KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class })
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(InformerRegistry.class)
@ConditionalOnAvailableEndpoint(InformersEndpoint.class)
public final class KubeopEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	InformersEndpoint informersEndpoint(InformerRegistry informers, ObjectProvider<HandlerRegistrar> handlers,
			ObjectProvider<ShardingLifecycle> sharding) {
		return new InformersEndpoint(informers, handlers, () -> {
			ShardingLifecycle lifecycle = sharding.getIfAvailable();
			return (lifecycle != null) ? lifecycle.member().state() : null;
		});
	}

}
