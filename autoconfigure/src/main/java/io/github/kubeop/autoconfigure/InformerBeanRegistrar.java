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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.github.kubeop.annotation.InformerIndex;
import io.github.kubeop.annotation.InformerTransform;
import io.github.kubeop.informer.CustomResourceDefinitionNotFoundException;
import io.github.kubeop.informer.IndexFunction;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.StandardTransform;
import io.github.kubeop.informer.TransformFunction;
import io.github.kubeop.informer.UnknownResourceException;
import io.github.kubeop.resource.GeneratedModels;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
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

	private final Environment environment;

	InformerBeanRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		KubeopProperties.Informers informers = Binder.get(this.environment)
			.bind(PREFIX, Bindable.of(KubeopProperties.Informers.class))
			.orElseGet(KubeopProperties.Informers::new);
		if (!informers.isEnabled()) {
			return;
		}
		ClientClassesWarmUp.start();
		checkDefaults(informers);
		KubeopProperties.Sharding sharding = Binder.get(this.environment)
			.bind(ShardingSettings.PREFIX, Bindable.of(KubeopProperties.Sharding.class))
			.orElseGet(KubeopProperties.Sharding::new);
		boolean labels = sharding.isEnabled() && sharding.getMode() == KubeopProperties.Sharding.Mode.LABELS;
		String group = (sharding.getName() != null && !sharding.getName().isBlank()) ? sharding.getName()
				: this.environment.getProperty("spring.application.name", "kubeop");
		BeanFactory beanFactory = (BeanFactory) registry;
		KubernetesResourceClasses customResources = KubernetesResourceClasses.scan(beanFactory);
		informers.getResources().forEach((name, resource) -> {
			InformerSpec<?> spec = spec(name, resource, informers, customResources);
			if (labels && sharding.getInformers().contains(name)) {
				// this replica caches only the objects of its shard
				spec = spec.withLabelSelector(ShardingSettings.shardSelector(spec.labelSelector(), group,
						ShardingSettings.identity(sharding)));
			}
			registerInformer(registry, beanFactory, name, spec, transformBeanNames(resource));
		});
	}

	private <T extends KubernetesObject> void registerInformer(BeanDefinitionRegistry registry, BeanFactory beanFactory,
			String name, InformerSpec<T> spec, List<String> transformBeans) {
		String informerBean = name + "Informer";
		RootBeanDefinition informer = new RootBeanDefinition(ResourceInformer.class);
		informer.setTargetType(ResolvableType.forClassWithGenerics(ResourceInformer.class, spec.type()));
		informer
			.setInstanceSupplier(() -> createInformer(beanFactory, withTransforms(beanFactory, spec, transformBeans)));
		registry.registerBeanDefinition(informerBean, informer);
		register(registry, name + "Lister", Lister.class, spec.type(),
				() -> informer(beanFactory, informerBean).copyingLister());
		register(registry, name + "Indexer", Indexer.class, spec.type(),
				() -> informer(beanFactory, informerBean).copyingIndexer());
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
				throw new InvalidConfigurationPropertyValueException(PREFIX + ".resources." + spec.name() + ".indexers",
						indexName,
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
			String property = PREFIX + ".resources." + spec.name()
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
		String property = PREFIX + ".resources." + spec.name() + ".transforms";
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

	/**
	 * Returns the entries of the transforms property that are not ready-made transforms:
	 * names of transform beans, resolved when the informer is created.
	 */
	private static List<String> transformBeanNames(KubeopProperties.Resource resource) {
		return resource.getTransforms()
			.stream()
			.map(String::trim)
			.filter((name) -> StandardTransform.forPropertyValue(name) == null)
			.toList();
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

	@SuppressWarnings("unchecked")
	private static ResourceInformer<KubernetesObject> informer(BeanFactory beanFactory, String beanName) {
		return beanFactory.getBean(beanName, ResourceInformer.class);
	}

	private static <B> void register(BeanDefinitionRegistry registry, String beanName, Class<B> beanClass,
			Class<?> type, java.util.function.Supplier<B> supplier) {
		RootBeanDefinition definition = new RootBeanDefinition(beanClass);
		definition.setTargetType(ResolvableType.forClassWithGenerics(beanClass, type));
		definition.setInstanceSupplier(supplier);
		registry.registerBeanDefinition(beanName, definition);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static InformerSpec<?> spec(String name, KubeopProperties.Resource resource,
			KubeopProperties.Informers defaults, KubernetesResourceClasses customResources) {
		String property = PREFIX + ".resources." + name;
		if (resource.getApiVersion() == null || resource.getApiVersion().isBlank()) {
			throw new InvalidConfigurationPropertyValueException(property + ".api-version", null,
					"an apiVersion is required, such as 'v1' or 'apps/v1'");
		}
		if (resource.getKind() == null || resource.getKind().isBlank()) {
			throw new InvalidConfigurationPropertyValueException(property + ".kind", null,
					"a kind (such as 'Pod') or plural resource name (such as 'pods') is required");
		}
		Duration resync = (resource.getResyncPeriod() != null) ? resource.getResyncPeriod()
				: defaults.getResyncPeriod();
		requireNotNegative(property + ".resync-period", resync);
		Class type = type(property, resource, customResources);
		if (resource.isMetadataOnly()) {
			if (resource.getType() != null && resource.getType() != PartialObjectMetadata.class) {
				throw new InvalidConfigurationPropertyValueException(property + ".type", resource.getType().getName(),
						"a metadata-only informer (" + property + ".metadata-only) holds "
								+ PartialObjectMetadata.class.getName() + "; remove the type, or the metadata-only "
								+ "flag to cache full objects");
			}
			type = PartialObjectMetadata.class;
		}
		Set<StandardTransform> standardTransforms = EnumSet.noneOf(StandardTransform.class);
		for (String transform : resource.getTransforms()) {
			if (transform == null || transform.isBlank()) {
				throw new InvalidConfigurationPropertyValueException(property + ".transforms", transform,
						"a transform name is blank; use " + StandardTransform.propertyValues()
								+ " or the name of a TransformFunction bean");
			}
			StandardTransform standard = StandardTransform.forPropertyValue(transform.trim());
			if (standard != null) {
				standardTransforms.add(standard);
			}
		}
		if (resource.isLean()) {
			standardTransforms.add(StandardTransform.DEDUPLICATE_STRINGS);
		}
		List<String> namespaces = resource.getNamespaces().isEmpty() ? defaults.getNamespaces()
				: resource.getNamespaces();
		Map<String, Function<KubernetesObject, List<String>>> indexers = new LinkedHashMap<>();
		// placeholders until the index function beans are resolved at informer creation
		resource.getIndexers().forEach((indexName) -> indexers.put(indexName, (object) -> List.of()));
		return new InformerSpec(name, resource.getApiVersion().trim(), resource.getKind().trim(), type,
				new ArrayList<>(namespaces), resource.getLabelSelector(), resource.getFieldSelector(), resync,
				resource.isStripManagedFields(), indexers, defaults.getPageSize(), defaults.getWatchTimeout(),
				defaults.getStallTimeout(), defaults.getPingInterval(), standardTransforms, List.of());
	}

	private static Class<?> type(String property, KubeopProperties.Resource resource,
			KubernetesResourceClasses customResources) {
		if (resource.getType() != null) {
			if (!KubernetesObject.class.isAssignableFrom(resource.getType())) {
				throw new InvalidConfigurationPropertyValueException(property + ".type", resource.getType().getName(),
						"the type must implement io.kubernetes.client.common.KubernetesObject; to read custom "
								+ "resources as your own class, extend io.github.kubeop.resource.CustomResource and "
								+ "annotate it with @KubernetesResource");
			}
			return resource.getType();
		}
		String apiVersion = resource.getApiVersion().trim();
		int slash = apiVersion.indexOf('/');
		String group = (slash < 0) ? "" : apiVersion.substring(0, slash);
		String version = apiVersion.substring(slash + 1);
		Class<?> model = GeneratedModels.modelOf(group, version, resource.getKind().trim());
		if (model != null) {
			return model;
		}
		Class<?> custom = customResources.find(group, version, resource.getKind().trim());
		return (custom != null) ? custom : DynamicKubernetesObject.class;
	}

	private static void checkDefaults(KubeopProperties.Informers informers) {
		requireNotNegative(PREFIX + ".resync-period", informers.getResyncPeriod());
		requirePositive(PREFIX + ".sync-timeout", informers.getSyncTimeout());
		requirePositive(PREFIX + ".watch-timeout", informers.getWatchTimeout());
		requireNotNegative(PREFIX + ".stall-timeout", informers.getStallTimeout());
		if (informers.getStallTimeout() == null || (!informers.getStallTimeout().isZero()
				&& informers.getStallTimeout().compareTo(MIN_STALL_TIMEOUT) < 0)) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".stall-timeout", informers.getStallTimeout(),
					"the API server sends a watch a bookmark only every minute, so a quiet, healthy watch would be "
							+ "taken for dead and replaced again and again; use at least "
							+ MIN_STALL_TIMEOUT.toSeconds() + "s, or 0 to find dead connections by HTTP/2 pings alone ("
							+ PREFIX + ".ping-interval)");
		}
		requireNotNegative(PREFIX + ".ping-interval", informers.getPingInterval());
		if (informers.getPingInterval() == null) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".ping-interval", null,
					"a ping interval is required; use 0 to disable pings");
		}
		if (informers.getPageSize() < 1) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".page-size", informers.getPageSize(),
					"the page size must be at least 1");
		}
	}

	private static void requireNotNegative(String property, Duration duration) {
		if (duration != null && duration.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(property, duration,
					"the duration must not be negative; use 0 to disable");
		}
	}

	private static void requirePositive(String property, Duration duration) {
		if (duration == null || duration.isNegative() || duration.isZero()) {
			throw new InvalidConfigurationPropertyValueException(property, duration, "the duration must be positive");
		}
	}

}
