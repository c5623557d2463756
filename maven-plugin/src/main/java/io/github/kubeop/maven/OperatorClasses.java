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

package io.github.kubeop.maven;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopProperties;
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.webhook.WebhookAnnotationBeanPostProcessor;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * What the generators read from an operator's compiled classes: its typed custom resource
 * classes, its handler classes and its {@code kubeop.*} configuration.
 *
 * @author Kubeop authors
 */
public final class OperatorClasses {

	static final List<Class<? extends java.lang.annotation.Annotation>> HANDLER_ANNOTATIONS = List.of(OnAdd.class,
			OnUpdate.class, OnDelete.class, Reconcile.class);

	private final List<Class<?>> resourceClasses;

	private final List<Class<?>> handlerClasses;

	private final List<KubeopProperties> properties;

	private final List<Class<?>> webhookClasses;

	OperatorClasses(List<Class<?>> resourceClasses, List<Class<?>> handlerClasses, List<KubeopProperties> properties) {
		this(resourceClasses, handlerClasses, properties, List.of());
	}

	OperatorClasses(List<Class<?>> resourceClasses, List<Class<?>> handlerClasses, List<KubeopProperties> properties,
			List<Class<?>> webhookClasses) {
		this.resourceClasses = List.copyOf(resourceClasses);
		this.handlerClasses = List.copyOf(handlerClasses);
		this.properties = List.copyOf(properties);
		this.webhookClasses = List.copyOf(webhookClasses);
	}

	/**
	 * Scans a directory of compiled classes and the {@code application*.properties},
	 * {@code application*.yaml} and {@code application*.yml} files at its root.
	 * @param classesDirectory the directory, such as {@code target/classes}
	 * @param classLoader a class loader that loads the classes and their dependencies
	 * @param packages the packages to scan, empty for all
	 * @return what was found
	 * @throws IOException if the directory cannot be read
	 */
	public static OperatorClasses scan(Path classesDirectory, ClassLoader classLoader, Collection<String> packages)
			throws IOException {
		List<Class<?>> resourceClasses = new ArrayList<>();
		List<Class<?>> handlerClasses = new ArrayList<>();
		List<Class<?>> webhookClasses = new ArrayList<>();
		if (Files.isDirectory(classesDirectory)) {
			List<String> classNames;
			try (Stream<Path> files = Files.walk(classesDirectory)) {
				classNames = files.filter((file) -> file.toString().endsWith(".class"))
					.map((file) -> className(classesDirectory.relativize(file)))
					.filter((name) -> !name.endsWith("package-info") && !name.endsWith("module-info"))
					.filter((name) -> packages.isEmpty()
							|| packages.stream().anyMatch((prefix) -> name.startsWith(prefix + ".")))
					.sorted()
					.toList();
			}
			for (String className : classNames) {
				Class<?> type = load(className, classLoader);
				if (type == null) {
					continue;
				}
				if (isResourceClass(type)) {
					resourceClasses.add(type);
				}
				if (isHandlerClass(type)) {
					handlerClasses.add(type);
				}
				if (isWebhookClass(type)) {
					webhookClasses.add(type);
				}
			}
		}
		return new OperatorClasses(resourceClasses, handlerClasses, properties(classesDirectory, classLoader),
				webhookClasses);
	}

	/**
	 * Returns the concrete classes extending {@link CustomResource} and annotated with
	 * {@link KubernetesResource}.
	 * @return the resource classes
	 */
	public List<Class<?>> resourceClasses() {
		return this.resourceClasses;
	}

	/**
	 * Returns the classes with {@code @ValidatingWebhook} or {@code @MutatingWebhook}
	 * methods.
	 * @return the webhook classes
	 */
	public List<Class<?>> webhookClasses() {
		return this.webhookClasses;
	}

	/**
	 * Returns the classes with handler methods or {@link Owns}.
	 * @return the handler classes
	 */
	public List<Class<?>> handlerClasses() {
		return this.handlerClasses;
	}

	/**
	 * Returns the {@code kubeop.*} properties of each configuration document, profile
	 * specific ones included: the operator may run with any of them, so its role covers
	 * them all.
	 * @return the properties, one per document
	 */
	public List<KubeopProperties> properties() {
		return this.properties;
	}

	private static String className(Path relative) {
		String name = relative.toString().replace(relative.getFileSystem().getSeparator(), ".");
		return name.substring(0, name.length() - ".class".length());
	}

	private static Class<?> load(String className, ClassLoader classLoader) {
		try {
			return Class.forName(className, false, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			// a class whose optional dependencies are absent cannot be a resource we need
			return null;
		}
	}

	private static boolean isResourceClass(Class<?> type) {
		return type.isAnnotationPresent(KubernetesResource.class) && CustomResource.class.isAssignableFrom(type)
				&& !Modifier.isAbstract(type.getModifiers());
	}

	private static boolean isWebhookClass(Class<?> type) {
		try {
			return WebhookAnnotationBeanPostProcessor.hasWebhookMethods(type);
		}
		catch (LinkageError ex) {
			return false;
		}
	}

	private static boolean isHandlerClass(Class<?> type) {
		if (type.isAnnotationPresent(Owns.class) || type.isAnnotationPresent(Owns.List.class)) {
			return true;
		}
		try {
			for (Method method : type.getDeclaredMethods()) {
				if (HANDLER_ANNOTATIONS.stream().anyMatch(method::isAnnotationPresent)) {
					return true;
				}
			}
		}
		catch (LinkageError ex) {
			return false;
		}
		return false;
	}

	static List<KubeopProperties> properties(Path classesDirectory, ClassLoader classLoader) throws IOException {
		List<KubeopProperties> documents = new ArrayList<>();
		if (!Files.isDirectory(classesDirectory)) {
			return documents;
		}
		List<Path> files;
		try (Stream<Path> list = Files.list(classesDirectory)) {
			files = list.filter((file) -> file.getFileName().toString().startsWith("application")).sorted().toList();
		}
		ClassLoader previous = Thread.currentThread().getContextClassLoader();
		// informer types are bound by class name, loaded from the project's classes
		Thread.currentThread().setContextClassLoader(classLoader);
		try {
			for (Path file : files) {
				PropertySourceLoader loader = loader(file.getFileName().toString());
				if (loader == null) {
					continue;
				}
				for (PropertySource<?> source : loader.load(file.getFileName().toString(),
						new FileSystemResource(file))) {
					Binder binder = new Binder(ConfigurationPropertySource.from(source));
					documents.add(binder.bind("kubeop", Bindable.of(KubeopProperties.class))
						.orElseGet(KubeopProperties::new));
				}
			}
		}
		finally {
			Thread.currentThread().setContextClassLoader(previous);
		}
		return documents;
	}

	private static PropertySourceLoader loader(String fileName) {
		if (fileName.endsWith(".properties")) {
			return new PropertiesPropertySourceLoader();
		}
		if (fileName.endsWith(".yaml") || fileName.endsWith(".yml")) {
			return new YamlPropertySourceLoader();
		}
		return null;
	}

}
