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
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.github.kubeop.informer.StandardTransform;
import io.github.kubeop.resource.GeneratedModels;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

/**
 * The informers that {@code kubeop.informers.resources} declares, bound and checked: a
 * wrong value fails naming the property. Read when the bean definitions are registered,
 * and again, from the same properties, when the informers are created, so that an
 * application processed ahead of time (where the definitions were registered at build
 * time) reads its settings at run time, as Spring Boot's configuration properties are.
 *
 * @author Kubeop authors
 */
final class InformerSpecs {

	/**
	 * The singleton that keeps the bound properties of a bean factory: not an
	 * {@code InformerSpecs} itself, which the informer beans look up by type.
	 */
	static final String BOUND_BEAN = "kubeopBoundInformerSpecs";

	private final Map<String, InformerSpec<?>> specs;

	private final Map<String, List<String>> transformBeans;

	private InformerSpecs(Map<String, InformerSpec<?>> specs, Map<String, List<String>> transformBeans) {
		this.specs = specs;
		this.transformBeans = transformBeans;
	}

	/**
	 * Returns the informer properties bound and checked for a bean factory, binding them
	 * the first time: the registrar, the client's preparation and the specs bean all need
	 * them, and each bound them again (a few milliseconds of the main thread per informer
	 * each time). A binding that failed is not kept: the next one fails the same way and
	 * reports it.
	 * @param environment the environment
	 * @param beanFactory the bean factory, which keeps the result as a singleton
	 * @return the informers, or {@code null} if informers are disabled
	 * @throws InvalidConfigurationPropertyValueException if a property is wrong
	 */
	static InformerSpecs bound(Environment environment, BeanFactory beanFactory) {
		if (!(beanFactory instanceof SingletonBeanRegistry singletons)) {
			return bind(environment, beanFactory);
		}
		if (singletons.getSingleton(BOUND_BEAN) instanceof Bound bound) {
			return bound.specs();
		}
		InformerSpecs specs = bind(environment, beanFactory);
		if (!singletons.containsSingleton(BOUND_BEAN)) {
			singletons.registerSingleton(BOUND_BEAN, new Bound(specs));
		}
		return specs;
	}

	/**
	 * Binds and checks the informer properties.
	 * @param environment the environment
	 * @param beanFactory the bean factory, whose auto-configuration packages hold the
	 * application's typed custom resources
	 * @return the informers, or {@code null} if informers are disabled
	 * @throws InvalidConfigurationPropertyValueException if a property is wrong
	 */
	static InformerSpecs bind(Environment environment, BeanFactory beanFactory) {
		KubeopProperties.Informers informers = Binder.get(environment)
			.bind(InformerBeanRegistrar.PREFIX, Bindable.of(KubeopProperties.Informers.class))
			.orElseGet(KubeopProperties.Informers::new);
		if (!informers.isEnabled()) {
			return null;
		}
		checkDefaults(informers);
		KubeopProperties.Sharding sharding = Binder.get(environment)
			.bind(ShardingSettings.PREFIX, Bindable.of(KubeopProperties.Sharding.class))
			.orElseGet(KubeopProperties.Sharding::new);
		boolean labels = sharding.isEnabled() && sharding.getMode() == KubeopProperties.Sharding.Mode.LABELS;
		String group = (sharding.getName() != null && !sharding.getName().isBlank()) ? sharding.getName()
				: environment.getProperty("spring.application.name", "kubeop");
		// scanned only for a kind that is neither given a type nor one of the client's
		// models: the scan of the class path took a sixth of Kubeop's start-up on the
		// main
		// thread in an application whose informers all watch built-in kinds
		Supplier<KubernetesResourceClasses> customResources = SingletonSupplier
			.of(() -> KubernetesResourceClasses.scan(beanFactory));
		Map<String, InformerSpec<?>> specs = new LinkedHashMap<>();
		Map<String, List<String>> transformBeans = new LinkedHashMap<>();
		informers.getResources().forEach((name, resource) -> {
			InformerSpec<?> spec = spec(name, resource, informers, customResources);
			if (labels && sharding.getInformers().contains(name)) {
				// this replica caches only the objects of its shard
				spec = spec.withLabelSelector(ShardingSettings.shardSelector(spec.labelSelector(), group,
						ShardingSettings.identity(sharding)));
			}
			specs.put(name, spec);
			transformBeans.put(name, transformBeanNames(resource));
		});
		return new InformerSpecs(Collections.unmodifiableMap(specs), Collections.unmodifiableMap(transformBeans));
	}

	/**
	 * Returns the names of the informers, in declaration order.
	 * @return the names
	 */
	List<String> names() {
		return List.copyOf(this.specs.keySet());
	}

	/**
	 * Returns the spec of an informer.
	 * @param name the informer's name
	 * @return the spec
	 * @throws IllegalStateException if the properties declare no such informer
	 */
	InformerSpec<?> spec(String name) {
		InformerSpec<?> spec = this.specs.get(name);
		if (spec == null) {
			throw new IllegalStateException(
					"There is no informer '" + name + "' under " + InformerBeanRegistrar.PREFIX + ".resources");
		}
		return spec;
	}

	/**
	 * Returns the names of the transform beans the properties name for an informer.
	 * @param name the informer's name
	 * @return the bean names
	 */
	List<String> transformBeans(String name) {
		return this.transformBeans.getOrDefault(name, List.of());
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

	@SuppressWarnings({ "unchecked", "rawtypes" })
	static InformerSpec<?> spec(String name, KubeopProperties.Resource resource, KubeopProperties.Informers defaults,
			Supplier<KubernetesResourceClasses> customResources) {
		String property = InformerBeanRegistrar.PREFIX + ".resources." + name;
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
				defaults.getStallTimeout(), defaults.getPingInterval(), standardTransforms, List.of(),
				(resource.getEncoding() != null) ? resource.getEncoding() : defaults.getEncoding());
	}

	private static Class<?> type(String property, KubeopProperties.Resource resource,
			Supplier<KubernetesResourceClasses> customResources) {
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
		Class<?> custom = customResources.get().find(group, version, resource.getKind().trim());
		return (custom != null) ? custom : DynamicKubernetesObject.class;
	}

	private static void checkDefaults(KubeopProperties.Informers informers) {
		requireNotNegative(InformerBeanRegistrar.PREFIX + ".resync-period", informers.getResyncPeriod());
		requirePositive(InformerBeanRegistrar.PREFIX + ".sync-timeout", informers.getSyncTimeout());
		requirePositive(InformerBeanRegistrar.PREFIX + ".watch-timeout", informers.getWatchTimeout());
		requireNotNegative(InformerBeanRegistrar.PREFIX + ".stall-timeout", informers.getStallTimeout());
		if (informers.getStallTimeout() == null || (!informers.getStallTimeout().isZero()
				&& informers.getStallTimeout().compareTo(InformerBeanRegistrar.MIN_STALL_TIMEOUT) < 0)) {
			throw new InvalidConfigurationPropertyValueException(InformerBeanRegistrar.PREFIX + ".stall-timeout",
					informers.getStallTimeout(),
					"the API server sends a watch a bookmark only every minute, so a quiet, healthy watch would be "
							+ "taken for dead and replaced again and again; use at least "
							+ InformerBeanRegistrar.MIN_STALL_TIMEOUT.toSeconds()
							+ "s, or 0 to find dead connections by HTTP/2 pings alone (" + InformerBeanRegistrar.PREFIX
							+ ".ping-interval)");
		}
		requireNotNegative(InformerBeanRegistrar.PREFIX + ".ping-interval", informers.getPingInterval());
		if (informers.getPingInterval() == null) {
			throw new InvalidConfigurationPropertyValueException(InformerBeanRegistrar.PREFIX + ".ping-interval", null,
					"a ping interval is required; use 0 to disable pings");
		}
		if (informers.getPageSize() < 1) {
			throw new InvalidConfigurationPropertyValueException(InformerBeanRegistrar.PREFIX + ".page-size",
					informers.getPageSize(), "the page size must be at least 1");
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

	/**
	 * The informer properties bound for a bean factory.
	 *
	 * @param specs the informers, or {@code null} if informers are disabled
	 */
	record Bound(InformerSpecs specs) {
	}

}
