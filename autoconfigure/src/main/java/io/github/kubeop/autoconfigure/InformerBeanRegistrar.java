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

import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Registers, for each {@code kubeop.informers.resources.<name>} entry, an informer bean
 * ({@code <name>Informer}) and typed {@link Lister} and {@link Indexer} beans
 * ({@code <name>Lister}, {@code <name>Indexer}) that can be injected by generic type,
 * such as {@code Lister<V1Pod>}, or by name where one type is watched in several scopes.
 * The {@code Lister} and {@code Indexer} beans return deep copies, the caller's to change
 * (see {@link ResourceInformer#copyingIndexer()}). Properties are checked here, before
 * any bean is created, so that a wrong value fails startup naming the property.
 * <p>
 * The beans are created by the factory methods of {@link InformerBeans} from the
 * informer's name, so that Spring's ahead-of-time processing writes their definitions as
 * code; this registrar is then left out of the processed application (it would register
 * them twice, see {@link KubeopAotProcessor}), and the specs bean binds and checks the
 * properties at run time. Otherwise the properties are bound once, here, and the
 * preparation of the client and the specs bean take what was bound
 * ({@link InformerSpecs#bound}).
 *
 * @author Kubeop authors
 */
class InformerBeanRegistrar implements BeanDefinitionRegistryPostProcessor {

	static final String PREFIX = "kubeop.informers";

	/**
	 * The shortest stall timeout that can work: the API server's bookmark interval (one
	 * minute) with room for its delivery.
	 */
	static final Duration MIN_STALL_TIMEOUT = Duration.ofSeconds(90);

	static final String SPECS_BEAN = "kubeopInformerSpecs";

	private final Environment environment;

	InformerBeanRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		InformerSpecs specs = InformerSpecs.bound(this.environment, (BeanFactory) registry);
		if (specs == null) {
			return;
		}
		RootBeanDefinition specsBean = factoryMethodBean(InformerSpecs.class, "informerSpecs", specs.names());
		registry.registerBeanDefinition(SPECS_BEAN, specsBean);
		for (String name : specs.names()) {
			register(registry, name, specs.spec(name));
		}
	}

	private void register(BeanDefinitionRegistry registry, String name, InformerSpec<?> spec) {
		String informerBean = name + "Informer";
		RootBeanDefinition informer = factoryMethodBean(ResourceInformer.class, "informer", name);
		informer.setTargetType(ResolvableType.forClassWithGenerics(ResourceInformer.class, spec.type()));
		informer.setDependsOn(SPECS_BEAN);
		registry.registerBeanDefinition(informerBean, informer);
		RootBeanDefinition lister = factoryMethodBean(Lister.class, "lister", informerBean);
		lister.setTargetType(ResolvableType.forClassWithGenerics(Lister.class, spec.type()));
		registry.registerBeanDefinition(name + "Lister", lister);
		RootBeanDefinition indexer = factoryMethodBean(Indexer.class, "indexer", informerBean);
		indexer.setTargetType(ResolvableType.forClassWithGenerics(Indexer.class, spec.type()));
		registry.registerBeanDefinition(name + "Indexer", indexer);
	}

	/**
	 * Returns the definition of a bean made by a static factory method of
	 * {@link InformerBeans} from a value given here and beans autowired by type.
	 */
	private static RootBeanDefinition factoryMethodBean(Class<?> type, String factoryMethod, Object argument) {
		RootBeanDefinition definition = new RootBeanDefinition(InformerBeans.class);
		definition.setFactoryMethodName(factoryMethod);
		definition.getConstructorArgumentValues().addIndexedArgumentValue(0, argument);
		definition.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
		definition.setTargetType(type);
		return definition;
	}

}
