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

package io.github.kubeop.test;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.ControlPlanes;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JUnit Jupiter extension behind {@link KubernetesTest}: shares one control plane
 * across the run, creates a namespace per test class and resolves parameters, leaving
 * those that Spring's extension resolves to it.
 *
 * @author Kubeop authors
 */
public class ControlPlaneExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

	private static final Logger logger = LoggerFactory.getLogger(ControlPlaneExtension.class);

	private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace
		.create(ControlPlaneExtension.class);

	@Override
	public void beforeAll(ExtensionContext context) throws ApiException {
		ControlPlane controlPlane = controlPlane(context);
		String name = namespaceName(context.getRequiredTestClass());
		new CoreV1Api(controlPlane.apiClient())
			.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name)))
			.execute();
		context.getStore(STORE).put(TestNamespace.class, new TestNamespace(name));
	}

	@Override
	public void afterAll(ExtensionContext context) {
		TestNamespace namespace = context.getStore(STORE).remove(TestNamespace.class, TestNamespace.class);
		if (namespace != null) {
			try {
				new CoreV1Api(controlPlane(context).apiClient()).deleteNamespace(namespace.name()).execute();
			}
			catch (ApiException ex) {
				logger.warn("Could not delete test namespace {}: {}", namespace, ex.getCode());
			}
		}
	}

	/**
	 * Resolves {@link ControlPlane}, {@link ApiClient} (an administrator client) and
	 * {@link TestNamespace} parameters, except those that Spring's extension resolves in
	 * a Spring test (annotated with {@code @Autowired}, {@code @Qualifier} or
	 * {@code @Value}, or of an autowired constructor): those are beans, such as the
	 * operator's own {@code ApiClient}, and two resolvers for one parameter would fail
	 * the test.
	 */
	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<?> type = parameterContext.getParameter().getType();
		return (type == ControlPlane.class || type == ApiClient.class || type == TestNamespace.class)
				&& !SpringTestParameters.resolvedBySpring(parameterContext, extensionContext);
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<?> type = parameterContext.getParameter().getType();
		if (type == ControlPlane.class) {
			return controlPlane(extensionContext);
		}
		if (type == ApiClient.class) {
			return controlPlane(extensionContext).apiClient();
		}
		TestNamespace namespace = extensionContext.getStore(STORE).get(TestNamespace.class, TestNamespace.class);
		if (namespace == null) {
			throw new ParameterResolutionException("No test namespace yet: a TestNamespace is available from "
					+ "@BeforeAll on, in classes annotated with @KubernetesTest");
		}
		return namespace;
	}

	/**
	 * Returns the shared control plane with the components the test class asks for.
	 */
	private static ControlPlane controlPlane(ExtensionContext context) {
		return ControlPlanes.shared(context.getTestClass().map(ControlPlaneExtension::components).orElse(Set.of()));
	}

	/**
	 * Returns the components that {@link KubernetesTest} on the test class asks for, or
	 * an annotation meta-annotated with it that declares {@code components()} of its own
	 * (such as {@code @KubeopOperatorTest}).
	 */
	static Set<Component> components(Class<?> testClass) {
		Set<Component> components = EnumSet.noneOf(Component.class);
		for (Class<?> type = testClass; type != null && type != Object.class; type = type.getSuperclass()) {
			for (Annotation annotation : type.getDeclaredAnnotations()) {
				Component[] declared = declaredComponents(annotation);
				if (declared != null) {
					components.addAll(Arrays.asList(declared));
					return components;
				}
			}
		}
		return components;
	}

	private static Component[] declaredComponents(Annotation annotation) {
		if (annotation instanceof KubernetesTest kubernetesTest) {
			return kubernetesTest.components();
		}
		if (!AnnotationSupport.isAnnotated(annotation.annotationType(), KubernetesTest.class)) {
			return null;
		}
		try {
			Method components = annotation.annotationType().getMethod("components");
			return (components.getReturnType() == Component[].class) ? (Component[]) components.invoke(annotation)
					: null;
		}
		catch (NoSuchMethodException ex) {
			return new Component[0];
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Could not read components() of " + annotation, ex);
		}
	}

	static String namespaceName(Class<?> testClass) {
		String base = testClass.getSimpleName()
			.replaceAll("([a-z0-9])([A-Z])", "$1-$2")
			.toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9-]", "-");
		base = base.substring(0, Math.min(base.length(), 50)).replaceAll("-+$", "");
		return base + "-" + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36 * 36), 36);
	}

}
