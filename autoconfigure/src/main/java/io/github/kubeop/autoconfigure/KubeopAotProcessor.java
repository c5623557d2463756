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

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.informer.ResourceInformer;

import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.aot.BeanFactoryInitializationCode;
import org.springframework.beans.factory.aot.BeanRegistrationExcludeFilter;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ReflectionUtils;

/**
 * Kubeop's part in Spring's ahead-of-time processing. It leaves
 * {@link InformerBeanRegistrar} out of the processed application, whose informer beans
 * are written as code, and it records the reflection a native image needs: the fields and
 * constructors of every type an informer decodes (the generated models, typed custom
 * resources, and the types of their fields, which Gson reads reflectively), and the
 * handler methods, which are invoked reflectively.
 *
 * @author Kubeop authors
 */
public class KubeopAotProcessor implements BeanFactoryInitializationAotProcessor, BeanRegistrationExcludeFilter {

	private static final Set<Class<? extends java.lang.annotation.Annotation>> HANDLER_ANNOTATIONS = Set.of(OnAdd.class,
			OnUpdate.class, OnDelete.class, Reconcile.class, Cleanup.class);

	@Override
	public boolean isExcludedFromAotProcessing(RegisteredBean registeredBean) {
		return InformerBeanRegistrar.class.equals(registeredBean.getBeanClass());
	}

	@Override
	public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
		Set<Class<?>> decoded = new HashSet<>();
		Set<Method> handlerMethods = new HashSet<>();
		for (String beanName : beanFactory.getBeanDefinitionNames()) {
			ResolvableType type = beanFactory.getMergedBeanDefinition(beanName).getResolvableType();
			Class<?> beanClass = type.resolve();
			if (beanClass == null) {
				continue;
			}
			if (ResourceInformer.class.isAssignableFrom(beanClass)) {
				Class<?> objects = type.as(ResourceInformer.class).getGeneric(0).resolve();
				if (objects != null) {
					decoded.add(objects);
				}
			}
			ReflectionUtils.doWithMethods(beanClass, handlerMethods::add, (method) -> isHandlerMethod(method));
		}
		if (decoded.isEmpty() && handlerMethods.isEmpty()) {
			return null;
		}
		return (GenerationContext context, BeanFactoryInitializationCode code) -> {
			RuntimeHints hints = context.getRuntimeHints();
			Set<Class<?>> seen = new HashSet<>();
			decoded.forEach((type) -> registerDecoded(hints, type, seen));
			for (Method method : handlerMethods) {
				hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
				for (Class<?> parameter : method.getParameterTypes()) {
					registerDecoded(hints, parameter, seen);
				}
			}
		};
	}

	private static boolean isHandlerMethod(Method method) {
		MergedAnnotations annotations = MergedAnnotations.from(method, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY);
		return HANDLER_ANNOTATIONS.stream().anyMatch(annotations::isPresent);
	}

	/**
	 * Registers a type Gson decodes reflectively, and the types of its fields, down to
	 * the JDK's own types.
	 */
	private static void registerDecoded(RuntimeHints hints, Class<?> type, Set<Class<?>> seen) {
		if (type == null || type.isPrimitive() || type.getName().startsWith("java.") || !seen.add(type)) {
			return;
		}
		if (type.isArray()) {
			registerDecoded(hints, type.getComponentType(), seen);
			return;
		}
		hints.reflection()
			.registerType(type, MemberCategory.ACCESS_DECLARED_FIELDS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			for (Field field : current.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers())) {
					continue;
				}
				ResolvableType fieldType = ResolvableType.forField(field);
				registerDecoded(hints, fieldType.resolve(), seen);
				for (ResolvableType generic : fieldType.getGenerics()) {
					registerDecoded(hints, generic.resolve(), seen);
				}
			}
			if (current != type) {
				registerDecoded(hints, current, seen);
			}
		}
	}

}
