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

package io.github.kubeop.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.kubeop.handler.HandlerEndpoint;
import io.github.kubeop.handler.HandlerMethod;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.InvalidHandlerMethodException;
import io.github.kubeop.handler.QueueSettings;
import io.github.kubeop.handler.Reference;
import io.github.kubeop.handler.ReferenceMapper;
import io.kubernetes.client.common.KubernetesObject;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotationSelectors;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.RepeatableContainers;
import org.springframework.util.ClassUtils;

/**
 * Finds {@link OnAdd}, {@link OnUpdate}, {@link OnDelete}, {@link Reconcile} and
 * {@link Cleanup} methods (directly or through composed annotations, on proxied beans
 * too), checks their signatures as each bean is initialized so that a wrong one fails
 * startup, and registers one {@link HandlerEndpoint} per bean and resource once every
 * singleton exists. The {@link HandlerRegistrar} is only looked up then, so user beans
 * are never created early.
 * <p>
 * A handler bean created later (a {@code @Lazy} bean first asked for after startup) is
 * registered as it appears, and its workers start at once if the handlers run, as
 * spring-kafka does for listener beans created after its registry started. A handler bean
 * that is not a singleton (prototype or any other scope) fails startup: its handlers are
 * registered per instance, so every instance would add its handlers again.
 *
 * @author Kubeop authors
 */
public class HandlerAnnotationBeanPostProcessor
		implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware {

	private static final Set<Class<? extends Annotation>> ANNOTATIONS = Set.of(OnAdd.class, OnUpdate.class,
			OnDelete.class, Reconcile.class, Cleanup.class);

	private static final AnnotatedMethodCandidates CANDIDATES = new AnnotatedMethodCandidates(ANNOTATIONS);

	private final ObjectProvider<HandlerRegistrar> registrar;

	private final List<HandlerEndpoint> endpoints = new ArrayList<>();

	private ConfigurableListableBeanFactory beanFactory;

	private boolean singletonsInstantiated;

	private HandlerRegistrar lateRegistrar;

	/**
	 * Creates a new instance.
	 * @param registrar the registrar, looked up when every singleton exists
	 */
	public HandlerAnnotationBeanPostProcessor(ObjectProvider<HandlerRegistrar> registrar) {
		this.registrar = registrar;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			this.beanFactory = listable;
		}
	}

	/**
	 * Returns whether a type declares {@link OnAdd}, {@link OnUpdate} or {@link OnDelete}
	 * methods.
	 * @param type the type, or {@code null}
	 * @return whether instances of the type are handlers
	 */
	public static boolean isHandlerType(Class<?> type) {
		return firstHandlerMethod(type) != null;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		if (!CANDIDATES.mayDeclare(targetClass)) {
			return bean;
		}
		Map<Method, HandlerMethod> methods = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<HandlerMethod>) (method) -> handlerMethod(bean, method));
		if (methods.isEmpty()) {
			return bean;
		}
		List<HandlerEndpoint> endpoints = new ArrayList<>();
		Map<String, List<Method>> byResource = new LinkedHashMap<>();
		Map<String, HandlerMethod> handlerMethods = new LinkedHashMap<>();
		for (Map.Entry<Method, HandlerMethod> entry : sorted(methods)) {
			String resource = informerName(entry.getKey()) + "|" + entry.getValue().resourceType().getName();
			byResource.computeIfAbsent(resource, (key) -> new ArrayList<>()).add(entry.getKey());
			handlerMethods.put(entry.getKey().toGenericString(), entry.getValue());
		}
		rejectIfNotSingleton(beanName, sorted(methods).get(0).getKey());
		Map<Class<? extends KubernetesObject>, String> owned = new LinkedHashMap<>();
		AnnotatedElementUtils.findMergedRepeatableAnnotations(targetClass, Owns.class)
			.forEach((owns) -> owned.put(owns.value(), owns.informer()));
		HandlerQueue declared = AnnotatedElementUtils.findMergedAnnotation(targetClass, HandlerQueue.class);
		QueueSettings queue = (declared != null)
				? new QueueSettings(declared.priorities(), declared.fairness(), declared.partitionLabel())
				: QueueSettings.UNSET;
		List<Reference> references = references(targetClass, beanName);
		for (List<Method> group : byResource.values()) {
			List<HandlerMethod> groupMethods = group.stream()
				.map((method) -> handlerMethods.get(method.toGenericString()))
				.toList();
			rejectReconcileMixedWithEdges(group, groupMethods);
			checkCleanup(group, groupMethods);
			String informer = informerName(group.get(0));
			String name = (byResource.size() == 1) ? beanName : beanName + "-"
					+ (informer.isEmpty() ? groupMethods.get(0).resourceType().getSimpleName() : informer);
			endpoints.add(endpoint(name, informer.isEmpty() ? null : informer, group, groupMethods, owned, references,
					queue));
		}
		register(endpoints);
		return bean;
	}

	@Override
	public void afterSingletonsInstantiated() {
		rejectNonSingletonHandlerBeans();
		HandlerRegistrar handlers = this.registrar.getIfAvailable();
		List<HandlerEndpoint> collected;
		synchronized (this) {
			this.singletonsInstantiated = true;
			this.lateRegistrar = handlers;
			collected = List.copyOf(this.endpoints);
			this.endpoints.clear();
		}
		if (handlers != null) {
			collected.forEach(handlers::register);
		}
	}

	/**
	 * Fails for a {@code @Reconcile} method next to an {@code @OnAdd} or
	 * {@code @OnUpdate} method of the same bean and resource: both would be called for
	 * the same changes.
	 */
	private static void rejectReconcileMixedWithEdges(List<Method> group, List<HandlerMethod> groupMethods) {
		Method reconcile = null;
		Method edge = null;
		for (int i = 0; i < group.size(); i++) {
			HandlerMethod.Kind kind = groupMethods.get(i).kind();
			if (kind == HandlerMethod.Kind.RECONCILE && reconcile == null) {
				reconcile = group.get(i);
			}
			else if ((kind == HandlerMethod.Kind.ADD || kind == HandlerMethod.Kind.UPDATE) && edge == null) {
				edge = group.get(i);
			}
		}
		if (reconcile != null && edge != null) {
			throw new InvalidHandlerMethodException(reconcile,
					"is a @Reconcile method, and " + edge.getName() + " of the same bean and resource is an @OnAdd "
							+ "or @OnUpdate method: both would be called for the same changes",
					"Keep either @Reconcile (called for adds and updates) or @OnAdd/@OnUpdate for this resource; "
							+ "@OnDelete may stay next to @Reconcile.");
		}
	}

	/**
	 * Fails for a second {@code @Cleanup} method of the same bean and resource, and for
	 * one without a {@code @Reconcile}, {@code @OnAdd} or {@code @OnUpdate} method,
	 * before whose calls the finalizer would be added.
	 */
	private static void checkCleanup(List<Method> group, List<HandlerMethod> groupMethods) {
		Method cleanup = null;
		boolean addsFinalizer = false;
		for (int i = 0; i < group.size(); i++) {
			switch (groupMethods.get(i).kind()) {
				case CLEANUP -> {
					if (cleanup != null) {
						throw new InvalidHandlerMethodException(group.get(i),
								"is a second @Cleanup method of the same bean and resource, next to "
										+ cleanup.getName(),
								"Keep one @Cleanup method per bean and resource; one finalizer guards the object.");
					}
					cleanup = group.get(i);
				}
				case ADD, UPDATE, RECONCILE -> addsFinalizer = true;
				default -> {
				}
			}
		}
		if (cleanup != null && !addsFinalizer) {
			throw new InvalidHandlerMethodException(cleanup,
					"is a @Cleanup method, but its bean has no @Reconcile, @OnAdd or @OnUpdate method for the same "
							+ "resource, before whose calls the finalizer would be added",
					"Add a @Reconcile method (or @OnAdd/@OnUpdate) for this resource to the same bean, with the same "
							+ "informer.");
		}
	}

	/**
	 * Returns the references a handler class declares; a mapper is a bean looked up by
	 * name when first called, checked to exist now.
	 */
	private List<Reference> references(Class<?> targetClass, String beanName) {
		List<Reference> references = new ArrayList<>();
		for (References declared : AnnotatedElementUtils.findMergedRepeatableAnnotations(targetClass,
				References.class)) {
			ReferenceMapper<?> mapper = declared.mapper().isEmpty() ? null : mapper(declared, targetClass, beanName);
			try {
				Reference reference = new Reference(declared.value(), declared.informer(), declared.path(),
						declared.namespacePath(), mapper, declared.referencedOnly());
				references.add(reference);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalStateException("@References on handler bean '" + beanName + "' ("
						+ targetClass.getName() + "): " + ex.getMessage(), ex);
			}
		}
		return references;
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private ReferenceMapper<?> mapper(References declared, Class<?> targetClass, String beanName) {
		String mapperName = declared.mapper();
		if (this.beanFactory != null && (!this.beanFactory.containsBean(mapperName)
				|| !this.beanFactory.isTypeMatch(mapperName, ReferenceMapper.class))) {
			throw new IllegalStateException("@References on handler bean '" + beanName + "' (" + targetClass.getName()
					+ ") names mapper '" + mapperName
					+ "', which is not a ReferenceMapper bean; declare a bean of that name implementing "
					+ ReferenceMapper.class.getName());
		}
		BeanFactory beans = this.beanFactory;
		return (object) -> ((ReferenceMapper) beans.getBean(mapperName, ReferenceMapper.class))
			.primaries((KubernetesObject) object);
	}

	private static HandlerEndpoint endpoint(String name, String informer, List<Method> group,
			List<HandlerMethod> groupMethods, Map<Class<? extends KubernetesObject>, String> owned,
			List<Reference> references, QueueSettings queue) {
		String labelSelector = labelSelector(group);
		try {
			return new HandlerEndpoint(name, informer, groupMethods.get(0).resourceType(), groupMethods,
					namespaces(group), labelSelector, owned, references, queue);
		}
		catch (IllegalArgumentException ex) {
			Method method = group.stream()
				.filter((candidate) -> !attribute(candidate, "labelSelector", "").isEmpty())
				.findFirst()
				.orElse(group.get(0));
			throw new InvalidHandlerMethodException(method,
					"has label selector '" + labelSelector + "', which Kubernetes rejects: " + ex.getMessage(),
					"Write the selector as kubectl -l takes it, such as 'app=web,tier in (api, web),!legacy'.");
		}
	}

	private void register(List<HandlerEndpoint> endpoints) {
		HandlerRegistrar handlers;
		synchronized (this) {
			if (!this.singletonsInstantiated) {
				this.endpoints.addAll(endpoints);
				return;
			}
			handlers = this.lateRegistrar;
		}
		// a bean created after startup (@Lazy): its workers start at once if handlers run
		if (handlers != null) {
			endpoints.forEach(handlers::register);
		}
	}

	/**
	 * Fails for handler beans of any scope but singleton, created or not: they would
	 * register their handlers once per instance, or (never asked for) not at all.
	 */
	private void rejectNonSingletonHandlerBeans() {
		if (this.beanFactory == null) {
			return;
		}
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = this.beanFactory.getMergedBeanDefinition(beanName);
			if (!definition.isAbstract() && !definition.isSingleton()) {
				Method method = firstHandlerMethod(this.beanFactory.getType(beanName, false));
				if (method != null) {
					throw notSingleton(beanName, definition, method);
				}
			}
		}
	}

	private void rejectIfNotSingleton(String beanName, Method method) {
		if (this.beanFactory != null && this.beanFactory.containsBeanDefinition(beanName)) {
			BeanDefinition definition = this.beanFactory.getMergedBeanDefinition(beanName);
			if (!definition.isSingleton()) {
				throw notSingleton(beanName, definition, method);
			}
		}
	}

	private static InvalidHandlerMethodException notSingleton(String beanName, BeanDefinition definition,
			Method method) {
		return new InvalidHandlerMethodException(method,
				"is declared on bean '" + beanName + "' of scope '" + definition.getScope()
						+ "', but handlers are registered once per bean instance: every instance would add its "
						+ "handlers again",
				"Make bean '" + beanName + "' a singleton (remove its @Scope), or register handlers from code "
						+ "with HandlerRegistrar.");
	}

	private static Method firstHandlerMethod(Class<?> type) {
		if (type == null) {
			return null;
		}
		Class<?> userClass = ClassUtils.getUserClass(type);
		if (!CANDIDATES.mayDeclare(userClass)) {
			return null;
		}
		Map<Method, Boolean> methods = MethodIntrospector.selectMethods(userClass,
				(MethodIntrospector.MetadataLookup<Boolean>) (method) -> ANNOTATIONS.stream()
					.anyMatch((annotation) -> AnnotatedElementUtils.hasAnnotation(method, annotation)) ? Boolean.TRUE
							: null);
		return methods.keySet().stream().min((a, b) -> a.toGenericString().compareTo(b.toGenericString())).orElse(null);
	}

	/**
	 * Returns the annotation as {@link AnnotatedElementUtils#findMergedAnnotation} does.
	 */
	private static <A extends Annotation> A merged(MergedAnnotations annotations, Class<A> type) {
		return annotations.get(type, null, MergedAnnotationSelectors.firstDirectlyDeclared())
			.synthesize(MergedAnnotation::isPresent)
			.orElse(null);
	}

	private static HandlerMethod handlerMethod(Object bean, Method method) {
		// one search of the method's hierarchy, asked five times: every method of every
		// bean comes here at start-up
		MergedAnnotations annotations = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY,
				RepeatableContainers.none());
		OnAdd add = merged(annotations, OnAdd.class);
		OnUpdate update = merged(annotations, OnUpdate.class);
		OnDelete delete = merged(annotations, OnDelete.class);
		Reconcile reconcile = merged(annotations, Reconcile.class);
		Cleanup cleanup = merged(annotations, Cleanup.class);
		int count = ((add != null) ? 1 : 0) + ((update != null) ? 1 : 0) + ((delete != null) ? 1 : 0)
				+ ((reconcile != null) ? 1 : 0) + ((cleanup != null) ? 1 : 0);
		if (count == 0) {
			return null;
		}
		if (count > 1) {
			throw new InvalidHandlerMethodException(method,
					"has more than one of @OnAdd, @OnUpdate, @OnDelete, @Reconcile and @Cleanup",
					"Use one method per event; a shared helper method can hold common code.");
		}
		if (add != null) {
			return HandlerMethod.of(bean, method, HandlerMethod.Kind.ADD, declaredType(add.informer()), false, false);
		}
		if (update != null) {
			return HandlerMethod
				.of(bean, method, HandlerMethod.Kind.UPDATE, declaredType(update.informer()), update.resync(),
						update.generationChanged())
				.withOwnWrites(update.ownWrites());
		}
		if (reconcile != null) {
			return HandlerMethod
				.of(bean, method, HandlerMethod.Kind.RECONCILE, declaredType(reconcile.informer()), reconcile.resync(),
						false)
				.withOwnWrites(reconcile.ownWrites())
				.withPruning(reconcile.prune());
		}
		if (cleanup != null) {
			HandlerMethod handlerMethod = HandlerMethod.of(bean, method, HandlerMethod.Kind.CLEANUP,
					declaredType(cleanup.informer()), false, false);
			try {
				return handlerMethod.withFinalizer(cleanup.finalizer());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidHandlerMethodException(method, "has " + ex.getMessage(),
						"Name the finalizer '<your domain>/<name>', such as 'sample.kubeop.io/cleanup'.");
			}
		}
		return HandlerMethod.of(bean, method, HandlerMethod.Kind.DELETE, declaredType(delete.informer()), false, false);
	}

	private static Class<? extends KubernetesObject> declaredType(String informer) {
		// a named informer fixes the resource; its Java type is checked at registration
		return informer.isEmpty() ? null : KubernetesObject.class;
	}

	private static String informerName(Method method) {
		return attribute(method, "informer", "");
	}

	private static Set<String> namespaces(List<Method> methods) {
		String joined = agreed(methods, "namespaces");
		return joined.isEmpty() ? Set.of() : new LinkedHashSet<>(Arrays.asList(joined.split(",")));
	}

	private static String labelSelector(List<Method> methods) {
		return agreed(methods, "labelSelector");
	}

	/**
	 * Returns the value of a filter attribute that the methods of one handler agree on:
	 * methods that leave it empty take the others' value; two different values are an
	 * error.
	 */
	private static String agreed(List<Method> methods, String attribute) {
		String agreed = "";
		Method first = null;
		for (Method method : methods) {
			String value = attribute(method, attribute, "");
			if (value.isEmpty()) {
				continue;
			}
			if (!agreed.isEmpty() && !agreed.equals(value)) {
				throw new InvalidHandlerMethodException(method,
						"filters with " + attribute + " '" + value + "' while " + first.getName() + " uses '" + agreed
								+ "'",
						"Give every handler method of one bean and resource the same " + attribute
								+ ", or leave it empty on all but one.");
			}
			agreed = value;
			first = method;
		}
		return agreed;
	}

	private static String attribute(Method method, String name, String defaultValue) {
		for (Class<? extends Annotation> type : List.of(OnAdd.class, OnUpdate.class, OnDelete.class, Reconcile.class,
				Cleanup.class)) {
			Annotation annotation = AnnotatedElementUtils.findMergedAnnotation(method, type);
			if (annotation != null) {
				Object value = AnnotationUtils.getValue(annotation, name);
				return (value instanceof String[] values) ? String.join(",", values)
						: (value != null) ? value.toString() : defaultValue;
			}
		}
		return defaultValue;
	}

	private static List<Map.Entry<Method, HandlerMethod>> sorted(Map<Method, HandlerMethod> methods) {
		List<Map.Entry<Method, HandlerMethod>> entries = new ArrayList<>(methods.entrySet());
		entries.sort(Map.Entry.comparingByKey((a, b) -> a.toGenericString().compareTo(b.toGenericString())));
		return entries;
	}

}
