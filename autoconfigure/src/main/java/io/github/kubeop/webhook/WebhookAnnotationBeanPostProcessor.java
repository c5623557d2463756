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

package io.github.kubeop.webhook;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeop.annotation.AnnotatedMethodCandidates;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds {@link ValidatingWebhook} and {@link MutatingWebhook} methods on beans as they
 * are initialized and registers them with the {@link WebhookRegistry}; once every
 * singleton exists, registers the {@link VersionConverter} beans and checks that a web
 * server will serve them all.
 *
 * @author Kubeop authors
 */
public class WebhookAnnotationBeanPostProcessor
		implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware {

	private static final AnnotatedMethodCandidates CANDIDATES = new AnnotatedMethodCandidates(
			Set.of(ValidatingWebhook.class, MutatingWebhook.class));

	private final ObjectProvider<WebhookRegistry> registry;

	private final Runnable checkServed;

	private final Set<Class<?>> withoutWebhooks = ConcurrentHashMap.newKeySet();

	private BeanFactory beanFactory;

	/**
	 * Creates a post processor.
	 * @param registry the registry, created when the first webhook is found
	 * @param checkServed called once every singleton exists if the application has
	 * webhooks, to fail startup when no web server will serve them
	 */
	public WebhookAnnotationBeanPostProcessor(ObjectProvider<WebhookRegistry> registry, Runnable checkServed) {
		this.registry = registry;
		this.checkServed = checkServed;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (this.withoutWebhooks.contains(type)) {
			return bean;
		}
		if (!hasWebhookMethods(type)) {
			this.withoutWebhooks.add(type);
			return bean;
		}
		this.registry.getObject().registerBean(bean, type);
		return bean;
	}

	/**
	 * Returns whether a class declares webhook methods, to keep the beans of such classes
	 * out of lazy initialization.
	 * @param type the class
	 * @return whether it has {@link ValidatingWebhook} or {@link MutatingWebhook} methods
	 */
	public static boolean hasWebhookMethods(Class<?> type) {
		if (!CANDIDATES.mayDeclare(type)) {
			return false;
		}
		boolean[] found = { false };
		ReflectionUtils.doWithMethods(type, (method) -> found[0] = true,
				(method) -> !found[0] && (AnnotatedElementUtils.hasAnnotation(method, ValidatingWebhook.class)
						|| AnnotatedElementUtils.hasAnnotation(method, MutatingWebhook.class)));
		return found[0];
	}

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public void afterSingletonsInstantiated() {
		Map<String, VersionConverter> converters = ((org.springframework.beans.factory.ListableBeanFactory) this.beanFactory)
			.getBeansOfType(VersionConverter.class);
		WebhookRegistry registry = this.registry.getIfAvailable();
		if (registry == null) {
			return;
		}
		registry.registerConverters((List) List.copyOf(converters.values()));
		if (!registry.isEmpty()) {
			this.checkServed.run();
		}
	}

}
