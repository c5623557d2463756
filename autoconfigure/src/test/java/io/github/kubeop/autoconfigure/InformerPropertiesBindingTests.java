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

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that the informer properties are bound once per context: by the registrar (or, in
 * an application processed ahead of time, by the client's preparation), and taken from
 * there by the preparation and the specs bean.
 *
 * @author Kubeop authors
 */
class InformerPropertiesBindingTests {

	private static final String KIND = "kubeop.informers.resources.pods.kind";

	@Test
	void theRegistrarThePreparationAndTheSpecsBeanBindTheInformerPropertiesOnce() {
		int oneBinding = readsOf(KIND,
				(environment) -> InformerSpecs.bind(environment, new DefaultListableBeanFactory()));
		assertThat(oneBinding).isPositive();
		int startUp = readsOf(KIND, (environment) -> {
			DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
			new InformerBeanRegistrar(environment).postProcessBeanDefinitionRegistry(beanFactory);
			KubeopInformersAutoConfiguration.kubeopKubernetesClientPreparationStarter(environment)
				.postProcessBeanFactory(beanFactory);
			InformerSpecs specs = InformerBeans.informerSpecs(List.of("pods"), environment, beanFactory);
			assertThat(specs.spec("pods").kind()).isEqualTo("Pod");
		});
		assertThat(startUp).isEqualTo(oneBinding);
	}

	@Test
	void anApplicationProcessedAheadOfTimeBindsThemOnceToo() {
		int oneBinding = readsOf(KIND,
				(environment) -> InformerSpecs.bind(environment, new DefaultListableBeanFactory()));
		int startUp = readsOf(KIND, (environment) -> {
			// no registrar: it is left out of the processed application
			DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
			KubeopInformersAutoConfiguration.kubeopKubernetesClientPreparationStarter(environment)
				.postProcessBeanFactory(beanFactory);
			InformerBeans.informerSpecs(List.of("pods"), environment, beanFactory);
		});
		assertThat(startUp).isEqualTo(oneBinding);
	}

	@Test
	void aBindingThatFailedIsNotKeptAndTheSpecsBeanReportsIt() {
		MockEnvironment environment = new MockEnvironment().withProperty("kubeop.informers.resources.pods.api-version",
				"v1");
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		KubeopInformersAutoConfiguration.kubeopKubernetesClientPreparationStarter(environment)
			.postProcessBeanFactory(beanFactory);
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> InformerBeans.informerSpecs(List.of("pods"), environment, beanFactory))
			.withMessageContaining(KIND);
	}

	/**
	 * Returns how often the action read a property from the environment it was given.
	 */
	private static int readsOf(String property, Consumer<MockEnvironment> action) {
		AtomicInteger reads = new AtomicInteger();
		MockEnvironment environment = new MockEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("informers",
					Map.of("kubeop.informers.resources.pods.api-version", "v1", KIND, "Pod")) {

				@Override
				public Object getProperty(String name) {
					if (name.equals(property)) {
						reads.incrementAndGet();
					}
					return super.getProperty(name);
				}

			});
		action.accept(environment);
		return reads.get();
	}

}
