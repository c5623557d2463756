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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;

import io.github.kubeop.webhook.SelfSignedCertificates;
import io.github.kubeop.webhook.LocalWebhookRegistration;
import io.github.kubeop.webhook.VersionConverter;
import io.github.kubeop.webhook.WebServerMissingException;
import io.github.kubeop.webhook.WebhookAnnotationBeanPostProcessor;
import io.github.kubeop.webhook.WebhookFilter;
import io.github.kubeop.webhook.WebhookObserver;
import io.github.kubeop.webhook.WebhookRegistry;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import jakarta.servlet.Filter;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Auto-configuration of admission and conversion webhooks: discovery of
 * {@code @ValidatingWebhook} and {@code @MutatingWebhook} methods and
 * {@code VersionConverter} beans; in a servlet web application on Tomcat their TLS
 * connector and the filter that serves them, in a WebFlux application a Reactor Netty
 * server of their own; and (with {@code kubeop.webhooks.local.register}) their
 * registration with the API server.
 *
 * @author Kubeop authors
 */
@AutoConfiguration(after = KubeopClientAutoConfiguration.class)
@ConditionalOnClass(ApiClient.class)
@ConditionalOnBooleanProperty(name = "kubeop.webhooks.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeopProperties.class)
public final class KubeopWebhooksAutoConfiguration {

	private static final String SERVLET_WEB_APPLICATION_CONTEXT = "org.springframework.web.context.WebApplicationContext";

	private static final String REACTIVE_WEB_APPLICATION_CONTEXT = "org.springframework.boot.web.context.reactive.ReactiveWebApplicationContext";

	private static final String TOMCAT_FACTORY = "org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory";

	private static final String REACTOR_NETTY_SERVER = "reactor.netty.http.server.HttpServer";

	@Bean
	static WebhookAnnotationBeanPostProcessor kubeopWebhookAnnotationBeanPostProcessor(
			ObjectProvider<WebhookRegistry> registry, ApplicationContext context) {
		return new WebhookAnnotationBeanPostProcessor(registry, () -> checkServed(context));
	}

	/**
	 * Keeps webhook beans out of {@code spring.main.lazy-initialization}: nothing asks
	 * for them, so a lazy one would never be registered.
	 * @return the filter
	 */
	@Bean
	static LazyInitializationExcludeFilter kubeopWebhookBeansLazyInitializationExcludeFilter() {
		return (beanName, definition, type) -> WebhookAnnotationBeanPostProcessor.hasWebhookMethods(type)
				|| VersionConverter.class.isAssignableFrom(type);
	}

	@Bean
	@ConditionalOnMissingBean
	WebhookRegistry kubeopWebhookRegistry(ObjectProvider<ApiClient> client, ObjectProvider<WebhookObserver> observers) {
		ApiClient apiClient = client.getIfAvailable();
		List<WebhookObserver> all = observers.orderedStream().toList();
		return new WebhookRegistry((apiClient != null) ? apiClient.getJSON().getGson() : new JSON().getGson(),
				(all.size() == 1) ? all.get(0) : composite(all));
	}

	static void checkServed(ApplicationContext context) {
		ClassLoader classLoader = context.getClassLoader();
		boolean servletWeb = isInstance(SERVLET_WEB_APPLICATION_CONTEXT, context);
		boolean reactiveWeb = isInstance(REACTIVE_WEB_APPLICATION_CONTEXT, context);
		if (servletWeb && ClassUtils.isPresent(TOMCAT_FACTORY, classLoader)) {
			return;
		}
		if (reactiveWeb && ClassUtils.isPresent(REACTOR_NETTY_SERVER, classLoader)) {
			return;
		}
		String lack = servletWeb ? "its servlet web server is not Tomcat" : reactiveWeb
				? "Reactor Netty is not on its class path" : "it is neither a servlet nor a reactive web application";
		throw new WebServerMissingException("The application has webhooks (@ValidatingWebhook or @MutatingWebhook "
				+ "methods, or VersionConverter beans), but " + lack + ": nothing would serve them to the API server.");
	}

	private static boolean isInstance(String type, ApplicationContext context) {
		ClassLoader classLoader = context.getClassLoader();
		return ClassUtils.isPresent(type, classLoader)
				&& ClassUtils.resolveClassName(type, classLoader).isInstance(context);
	}

	static LocalWebhookRegistration localRegistration(WebhookRegistry registry, ApiClient client,
			KubeopProperties properties, ObjectProvider<SelfSignedCertificates> certificates, IntSupplier port,
			Environment environment) {
		String name = environment.getProperty("spring.application.name", "operator")
			.toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9-]", "-");
		return new LocalWebhookRegistration(registry, client, properties.getWebhooks().getLocal().getHost(), port,
				() -> authorityPem(properties.getWebhooks(), certificates), name);
	}

	/**
	 * Returns the authority of the served certificate: the one made at startup, or the
	 * {@code ca.crt} of the certificate directory (cert-manager's Secret holds it).
	 */
	private static String authorityPem(KubeopProperties.Webhooks properties,
			ObjectProvider<SelfSignedCertificates> certificates) {
		String directory = properties.getCertificateDirectory();
		if (directory == null) {
			return certificates.getObject().authorityPem();
		}
		Path authority = Path.of(directory, "ca.crt");
		try {
			return Files.readString(authority);
		}
		catch (IOException ex) {
			throw new InvalidConfigurationPropertyValueException("kubeop.webhooks.certificate-directory", directory,
					"kubeop.webhooks.local.register gives the API server the authority of the served certificate, "
							+ "which must be in this directory as ca.crt (" + ex + ")");
		}
	}

	private static WebhookObserver composite(List<WebhookObserver> observers) {
		return new WebhookObserver() {

			@Override
			public void registered(String path) {
				observers.forEach((observer) -> observer.registered(path));
			}

			@Override
			public void started(String path) {
				observers.forEach((observer) -> observer.started(path));
			}

			@Override
			public void answered(String path, int code, long nanos) {
				observers.forEach((observer) -> observer.answered(path, code, nanos));
			}

			@Override
			public void threw(String path, Throwable failure) {
				observers.forEach((observer) -> observer.threw(path, failure));
			}

		};
	}

	/**
	 * Serving on Tomcat, in a servlet web application.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ Filter.class, TomcatServletWebServerFactory.class })
	static class ServletWebhooksConfiguration {

		/**
		 * The self-signed serving certificate, made when the webhook connector or the
		 * local registration first asks for it: generating its two RSA keys took most of
		 * Kubeop's start-up on the main thread (seconds in a cold JVM) in every
		 * application on Tomcat, webhooks or not.
		 * @return the certificates
		 */
		@Bean
		@Lazy
		@ConditionalOnMissingBean
		SelfSignedCertificates kubeopWebhookCertificates() {
			return SelfSignedCertificates.create(List.of());
		}

		@Bean
		TomcatWebhookConnector kubeopWebhookConnector(KubeopProperties properties,
				ObjectProvider<SelfSignedCertificates> certificates, ConfigurableListableBeanFactory beanFactory) {
			return new TomcatWebhookConnector(properties.getWebhooks(), certificates::getObject,
					() -> hasWebhookBeans(beanFactory));
		}

		/**
		 * Returns whether a bean declares webhook methods or converts versions, from the
		 * bean definitions, before the beans exist: the web server's connectors are made
		 * first.
		 */
		private static boolean hasWebhookBeans(ConfigurableListableBeanFactory beanFactory) {
			if (beanFactory.getBeanNamesForType(VersionConverter.class, true, false).length > 0) {
				return true;
			}
			for (String name : beanFactory.getBeanDefinitionNames()) {
				Class<?> type = beanFactory.getType(name, false);
				if (type != null
						&& WebhookAnnotationBeanPostProcessor.hasWebhookMethods(ClassUtils.getUserClass(type))) {
					return true;
				}
			}
			return false;
		}

		@Bean
		FilterRegistrationBean<WebhookFilter> kubeopWebhookFilter(ObjectProvider<WebhookRegistry> registry,
				TomcatWebhookConnector connector) {
			FilterRegistrationBean<WebhookFilter> registration = new FilterRegistrationBean<>(
					new WebhookFilter(registry::getObject, connector::isWebhookPort));
			registration.setName("kubeopWebhookFilter");
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
			return registration;
		}

		@Bean
		@ConditionalOnBooleanProperty("kubeop.webhooks.local.register")
		LocalWebhookRegistration kubeopLocalWebhookRegistration(WebhookRegistry registry, ApiClient client,
				KubeopProperties properties, ObjectProvider<SelfSignedCertificates> certificates,
				TomcatWebhookConnector connector, Environment environment) {
			return localRegistration(registry, client, properties, certificates, connector::localPort, environment);
		}

	}

	/**
	 * Serving on a Reactor Netty server of their own, in a WebFlux application.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(HttpServer.class)
	static class ReactiveWebhooksConfiguration {

		/**
		 * The self-signed serving certificate, made when the webhook server or the local
		 * registration first asks for it, as on Tomcat: not in an application without
		 * webhooks.
		 * @return the certificates
		 */
		@Bean
		@Lazy
		@ConditionalOnMissingBean
		SelfSignedCertificates kubeopWebhookCertificates() {
			return SelfSignedCertificates.create(List.of());
		}

		@Bean
		NettyWebhookServer kubeopWebhookServer(KubeopProperties properties,
				ObjectProvider<SelfSignedCertificates> certificates, ObjectProvider<WebhookRegistry> registry) {
			return new NettyWebhookServer(properties.getWebhooks(), certificates::getObject, registry::getObject);
		}

		@Bean
		@ConditionalOnBooleanProperty("kubeop.webhooks.local.register")
		LocalWebhookRegistration kubeopLocalWebhookRegistration(WebhookRegistry registry, ApiClient client,
				KubeopProperties properties, ObjectProvider<SelfSignedCertificates> certificates,
				NettyWebhookServer server, Environment environment) {
			return localRegistration(registry, client, properties, certificates, server::localPort, environment);
		}

	}

}
