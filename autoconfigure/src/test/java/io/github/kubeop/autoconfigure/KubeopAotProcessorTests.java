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

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.ResolvableType;
import org.springframework.javapoet.ClassName;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KubeopAotProcessor} and the run-time side of the informer beans of an
 * application processed ahead of time ({@link InformerBeans}).
 *
 * @author Kubeop authors
 */
class KubeopAotProcessorTests {

	@Test
	void registersHintsForDecodedTypesAndHandlerMethods() throws NoSuchMethodException {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		RootBeanDefinition informer = new RootBeanDefinition(InformerBeans.class);
		informer.setFactoryMethodName("informer");
		informer.setTargetType(ResolvableType.forClassWithGenerics(ResourceInformer.class, V1Pod.class));
		beanFactory.registerBeanDefinition("podsInformer", informer);
		beanFactory.registerBeanDefinition("handler", new RootBeanDefinition(ConfigMapHandler.class));
		BeanFactoryInitializationAotContribution contribution = new KubeopAotProcessor()
			.processAheadOfTime(beanFactory);
		DefaultGenerationContext context = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(Object.class)), new InMemoryGeneratedFiles());
		contribution.applyTo(context, null);
		RuntimeHints hints = context.getRuntimeHints();
		for (Class<?> decoded : List.of(V1Pod.class, V1PodSpec.class, V1ObjectMeta.class, V1ConfigMap.class)) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(decoded)
				.withMemberCategories(MemberCategory.ACCESS_DECLARED_FIELDS,
						MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
				.as(decoded.getName())
				.accepts(hints);
		}
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ConfigMapHandler.class.getDeclaredMethod("added", V1ConfigMap.class))).accepts(hints);
	}

	@Test
	void leavesTheRegistrarOutOfTheProcessedApplication() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("registrar", new RootBeanDefinition(InformerBeanRegistrar.class));
		beanFactory.registerBeanDefinition("handler", new RootBeanDefinition(ConfigMapHandler.class));
		KubeopAotProcessor processor = new KubeopAotProcessor();
		assertThat(processor.isExcludedFromAotProcessing(RegisteredBean.of(beanFactory, "registrar"))).isTrue();
		assertThat(processor.isExcludedFromAotProcessing(RegisteredBean.of(beanFactory, "handler"))).isFalse();
	}

	@Test
	void runTimePropertiesDeclaringOtherInformersThanProcessedFailNamingTheProperty() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("kubeop.informers.resources.pods.api-version", "v1")
			.withProperty("kubeop.informers.resources.pods.kind", "Pod")
			.withProperty("kubeop.informers.resources.services.api-version", "v1")
			.withProperty("kubeop.informers.resources.services.kind", "Service");
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		assertThat(InformerBeans.informerSpecs(List.of("services", "pods"), environment, beanFactory).names())
			.containsExactlyInAnyOrder("pods", "services");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> InformerBeans.informerSpecs(List.of("pods"), environment, beanFactory))
			.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("kubeop.informers.resources"))
			.withMessageContaining("processed ahead of time with the informers [pods]");
	}

	static class ConfigMapHandler {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

	}

}
