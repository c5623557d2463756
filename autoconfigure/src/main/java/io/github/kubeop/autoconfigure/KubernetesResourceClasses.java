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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * The typed custom resource classes of the application: the {@link KubernetesResource}
 * classes in the auto-configuration packages, found as Spring Data's entity scan finds
 * entities, so that an informer configured by API version and kind alone reads them as
 * the user's class rather than as a dynamic object.
 *
 * @author Kubeop authors
 */
final class KubernetesResourceClasses {

	/**
	 * The bean factory's singleton that holds the classes once scanned: the informer
	 * properties are bound twice at start-up (by the bean definition registrar and by the
	 * specs bean, which ahead-of-time processing keeps), and the class path scan was the
	 * costliest part of binding them. The class path does not change in between.
	 */
	static final String BEAN = "kubeopKubernetesResourceClasses";

	private final Map<String, Class<? extends KubernetesObject>> byGroupVersionKind = new LinkedHashMap<>();

	private final Map<String, Class<? extends KubernetesObject>> byGroupVersionPlural = new LinkedHashMap<>();

	private KubernetesResourceClasses() {
	}

	/**
	 * Scans the auto-configuration packages of a bean factory, if any are registered,
	 * once per bean factory.
	 * @param beanFactory the bean factory
	 * @return the classes found
	 */
	static KubernetesResourceClasses scan(BeanFactory beanFactory) {
		// the registrar's scan, kept for the specs bean, which binds the properties again
		if (beanFactory instanceof SingletonBeanRegistry singletons && singletons.containsSingleton(BEAN)
				&& singletons.getSingleton(BEAN) instanceof KubernetesResourceClasses scanned) {
			return scanned;
		}
		List<String> packages = AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory)
				: List.of();
		KubernetesResourceClasses classes = scan(packages, ClassUtils.getDefaultClassLoader());
		if (beanFactory instanceof SingletonBeanRegistry singletons && !singletons.containsSingleton(BEAN)) {
			singletons.registerSingleton(BEAN, classes);
		}
		return classes;
	}

	static KubernetesResourceClasses scan(List<String> packages, ClassLoader classLoader) {
		KubernetesResourceClasses classes = new KubernetesResourceClasses();
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
		scanner.addIncludeFilter(new AnnotationTypeFilter(KubernetesResource.class, false));
		for (String basePackage : new ArrayList<>(packages)) {
			scanner.findCandidateComponents(basePackage).forEach((candidate) -> {
				Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), classLoader);
				if (KubernetesObject.class.isAssignableFrom(type)) {
					classes.add(type.asSubclass(KubernetesObject.class));
				}
			});
		}
		return classes;
	}

	private void add(Class<? extends KubernetesObject> type) {
		ResourceType resource = ResourceType.of(type);
		this.byGroupVersionKind.putIfAbsent(key(resource.group(), resource.version(), resource.kind()), type);
		this.byGroupVersionPlural.putIfAbsent(key(resource.group(), resource.version(), resource.plural()), type);
	}

	/**
	 * Returns the class for a kind, or plural resource name, of a group and version.
	 * @param group the API group
	 * @param version the version
	 * @param kindOrPlural the kind, such as {@code StaticSite}, or the plural, such as
	 * {@code staticsites}
	 * @return the class, or {@code null} if there is none
	 */
	Class<? extends KubernetesObject> find(String group, String version, String kindOrPlural) {
		Class<? extends KubernetesObject> type = this.byGroupVersionKind.get(key(group, version, kindOrPlural));
		return (type != null) ? type : this.byGroupVersionPlural.get(key(group, version, kindOrPlural));
	}

	private static String key(String group, String version, String name) {
		return group + "/" + version + "/" + name;
	}

}
