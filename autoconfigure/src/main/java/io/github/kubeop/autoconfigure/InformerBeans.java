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

import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import io.github.kubeop.annotation.InformerIndex;
import io.github.kubeop.annotation.InformerTransform;
import io.github.kubeop.informer.CustomResourceDefinitionNotFoundException;
import io.github.kubeop.informer.IndexFunction;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.StandardTransform;
import io.github.kubeop.informer.TransformFunction;
import io.github.kubeop.informer.UnknownResourceException;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * The factory methods of the beans that {@link InformerBeanRegistrar} registers for each
 * {@code kubeop.informers.resources} entry. Factory methods with plain arguments (the
 * informer's name), rather than instance suppliers, so that Spring's ahead-of-time
 * processing can write the bean definitions as code and replay them at run time.
 *
 * @author Kubeop authors
 */
final class InformerBeans {

	private InformerBeans() {
	}

	/**
	 * Returns the informer properties as bound for this context (by the registrar, or at
	 * run time in an application processed ahead of time), checking that they declare the
	 * informers whose beans were registered: under ahead-of-time processing, the set of
	 * informers was fixed at build time.
	 * @param registered the names of the informers whose beans are registered
	 * @param environment the environment
	 * @param beanFactory the bean factory
	 * @return the informers' specs
	 */
	static InformerSpecs informerSpecs(List<String> registered, Environment environment, BeanFactory beanFactory) {
		InformerSpecs specs = InformerSpecs.bound(environment, beanFactory);
		List<String> declared = (specs != null) ? specs.names() : List.of();
		// in any order: the order of a map property's keys may differ between sources
		if (!new HashSet<>(declared).equals(new HashSet<>(registered))) {
			throw new InvalidConfigurationPropertyValueException(InformerBeanRegistrar.PREFIX + ".resources", declared,
					"the application was processed ahead of time with the informers " + registered
							+ ", whose beans were fixed then; process it again with these properties, or run it "
							+ "without -Dspring.aot.enabled=true");
		}
		return specs;
	}

	/**
	 * Creates the informer of a {@code kubeop.informers.resources} entry.
	 * @param name the entry's name
	 * @param beanFactory the bean factory
	 * @return the informer
	 */
	static ResourceInformer<?> informer(String name, BeanFactory beanFactory) {
		InformerSpecs specs = beanFactory.getBean(InformerSpecs.class);
		return createInformer(beanFactory, withTransforms(beanFactory, specs.spec(name), specs.transformBeans(name)));
	}

	/**
	 * Returns the copying {@link Lister} of an informer bean.
	 * @param informerBean the name of the informer bean
	 * @param beanFactory the bean factory
	 * @return the lister
	 */
	static Lister<?> lister(String informerBean, BeanFactory beanFactory) {
		return beanFactory.getBean(informerBean, ResourceInformer.class).copyingLister();
	}

	/**
	 * Returns the copying {@link Indexer} of an informer bean.
	 * @param informerBean the name of the informer bean
	 * @param beanFactory the bean factory
	 * @return the indexer
	 */
	static Indexer<?> indexer(String informerBean, BeanFactory beanFactory) {
		return beanFactory.getBean(informerBean, ResourceInformer.class).copyingIndexer();
	}

	private static <T extends KubernetesObject> ResourceInformer<T> createInformer(BeanFactory beanFactory,
			InformerSpec<T> spec) {
		InformerSpec<T> indexed = spec;
		for (String indexName : indexNames(beanFactory, spec)) {
			try {
				@SuppressWarnings("unchecked")
				Function<T, List<String>> function = beanFactory.getBean(indexName, IndexFunction.class);
				indexed = indexed.withIndexer(indexName, function);
			}
			catch (BeansException ex) {
				throw new InvalidConfigurationPropertyValueException(
						InformerBeanRegistrar.PREFIX + ".resources." + spec.name() + ".indexers", indexName,
						"there is no IndexFunction bean named '" + indexName + "' (" + ex.getMessage() + ")");
			}
		}
		try {
			return beanFactory.getBean(InformerRegistry.class).informer(indexed);
		}
		catch (CustomResourceDefinitionNotFoundException ex) {
			// the class, not a property value, is what the user must act on
			throw ex;
		}
		catch (UnknownResourceException ex) {
			String property = InformerBeanRegistrar.PREFIX + ".resources." + spec.name()
					+ ((ex.getKind() != null) ? ".kind" : ".api-version");
			throw new InvalidConfigurationPropertyValueException(property,
					(ex.getKind() != null) ? ex.getKind() : ex.getApiVersion(), ex.getMessage());
		}
	}

	/**
	 * Returns the spec with the transform beans the property names and those annotated
	 * with {@link InformerTransform} for this informer, in that order.
	 */
	@SuppressWarnings("unchecked")
	private static <T extends KubernetesObject> InformerSpec<T> withTransforms(BeanFactory beanFactory,
			InformerSpec<T> spec, List<String> transformBeans) {
		Set<String> names = new LinkedHashSet<>(transformBeans);
		if (beanFactory instanceof ListableBeanFactory listable) {
			for (String beanName : listable.getBeanNamesForAnnotation(InformerTransform.class)) {
				InformerTransform transform = listable.findAnnotationOnBean(beanName, InformerTransform.class);
				if (transform != null && Arrays.asList(transform.value()).contains(spec.name())) {
					names.add(beanName);
				}
			}
		}
		InformerSpec<T> transformed = spec;
		String property = InformerBeanRegistrar.PREFIX + ".resources." + spec.name() + ".transforms";
		for (String beanName : names) {
			if (!beanFactory.containsBean(beanName) || !beanFactory.isTypeMatch(beanName, TransformFunction.class)) {
				throw new InvalidConfigurationPropertyValueException(property, beanName,
						"it is neither a ready-made transform (" + StandardTransform.propertyValues()
								+ ") nor the name of a TransformFunction bean");
			}
			if (!beanFactory.isTypeMatch(beanName,
					ResolvableType.forClassWithGenerics(TransformFunction.class, spec.type()))) {
				throw new InvalidConfigurationPropertyValueException(property, beanName,
						"the TransformFunction bean '" + beanName + "' does not take " + spec.type().getName()
								+ ", the type informer '" + spec.name() + "' holds");
			}
			transformed = transformed.withTransform(beanFactory.getBean(beanName, TransformFunction.class));
		}
		return transformed;
	}

	private static Set<String> indexNames(BeanFactory beanFactory, InformerSpec<?> spec) {
		Set<String> names = new LinkedHashSet<>(spec.indexers().keySet());
		if (beanFactory instanceof ListableBeanFactory listable) {
			for (String beanName : listable.getBeanNamesForAnnotation(InformerIndex.class)) {
				InformerIndex index = listable.findAnnotationOnBean(beanName, InformerIndex.class);
				if (index != null && Arrays.asList(index.value()).contains(spec.name())) {
					names.add(beanName);
				}
			}
		}
		return names;
	}

}
