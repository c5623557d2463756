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

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the informer registry, its lifecycle, and the informer, Lister
 * and Indexer beans of {@code kubeop.informers.resources}, and of the
 * {@link KubernetesTemplate}, which shares the registry's resource discovery.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(after = KubeopClientAutoConfiguration.class)
@ConditionalOnClass(ApiClient.class)
@ConditionalOnBooleanProperty(name = "kubeop.informers.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeopProperties.class)
public final class KubeopInformersAutoConfiguration {

	@Bean
	static InformerBeanRegistrar kubeopInformerBeanRegistrar(Environment environment) {
		return new InformerBeanRegistrar(environment);
	}

	/**
	 * Starts the client's preparation, in applications processed ahead of time too (where
	 * the registrar is left out). A plain post-processor, run after the ordered ones: a
	 * test's {@code @MockitoBean ApiClient} replaces Kubeop's client bean from one of
	 * those, and the preparation must see that to build no client. Where there is nothing
	 * to prepare (a user's client), the client's classes are loaded on a thread of their
	 * own instead ({@link ClientClassesWarmUp}): the preparation loads them itself, and
	 * two threads loading the same classes only took a core from the main thread and the
	 * JIT compilers.
	 * @param environment the environment
	 * @return the post-processor
	 */
	@Bean
	static BeanFactoryPostProcessor kubeopKubernetesClientPreparationStarter(Environment environment) {
		return (beanFactory) -> {
			if (!(beanFactory instanceof BeanDefinitionRegistry registry)) {
				return;
			}
			InformerSpecs specs;
			try {
				specs = InformerSpecs.bound(environment, beanFactory);
			}
			catch (RuntimeException ex) {
				// the specs bean binds them again and reports it
				return;
			}
			if (specs != null && !KubernetesClientPreparation.start(registry, environment, specs)) {
				ClientClassesWarmUp.start();
			}
		};
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(ApiClient.class)
	InformerRegistry kubeopInformerRegistry(ApiClient client, KubeopProperties properties, BeanFactory beanFactory) {
		InformerRegistry registry = new InformerRegistry(client,
				KubernetesClientPreparation.discovery(beanFactory, client));
		registry.setListStrategy(properties.getInformers().getListStrategy());
		return registry;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(InformerRegistry.class)
	InformersLifecycle kubeopInformersLifecycle(InformerRegistry registry, KubeopProperties properties) {
		return new InformersLifecycle(registry, properties.getInformers().getSyncTimeout());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(InformerRegistry.class)
	KubernetesTemplate kubernetesTemplate(ApiClient client, InformerRegistry registry, KubeopProperties properties,
			Environment environment) {
		KubeopProperties.Write write = properties.getWrite();
		String fieldManager = (write.getFieldManager() != null) ? write.getFieldManager()
				: environment.getProperty("spring.application.name", "kubeop");
		return new KubernetesTemplate(client, registry, fieldManager, write.isForceConflicts());
	}

}
