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

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Tells whether Spring's JUnit extension resolves a parameter of a Spring test (one
 * annotated with {@code @Autowired}, {@code @Qualifier} or {@code @Value}, or of an
 * autowired constructor), so that {@link ControlPlaneExtension} leaves such a parameter
 * to it instead of competing for it. Spring's own rules decide, by asking its extension;
 * this module does not depend on Spring, so the extension is found by name.
 *
 * @author Kubeop authors
 */
final class SpringTestParameters {

	private static final String SPRING_EXTENSION = "org.springframework.test.context.junit.jupiter.SpringExtension";

	private SpringTestParameters() {
	}

	/**
	 * Returns whether the test class uses Spring's extension and that extension resolves
	 * the parameter.
	 * @param parameterContext the parameter
	 * @param extensionContext the context of the test
	 * @return whether Spring resolves the parameter
	 */
	static boolean resolvedBySpring(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<? extends Extension> springExtension = springExtension(extensionContext.getRequiredTestClass());
		if (springExtension == null) {
			return false;
		}
		try {
			ParameterResolver resolver = (ParameterResolver) springExtension.getDeclaredConstructor().newInstance();
			return resolver.supportsParameter(parameterContext, extensionContext);
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			// a Spring version that cannot be asked: compete, as before, so that JUnit
			// names
			// both resolvers
			return false;
		}
	}

	/**
	 * Returns the Spring extension that the test class (or a class enclosing it, for
	 * {@code @Nested} tests) extends with, directly or through an annotation such as
	 * {@code @SpringBootTest}, or {@code null}.
	 */
	private static Class<? extends Extension> springExtension(Class<?> testClass) {
		for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
			for (ExtendWith extendWith : AnnotationSupport.findRepeatableAnnotations(type, ExtendWith.class)) {
				for (Class<? extends Extension> extension : extendWith.value()) {
					if (extension.getName().equals(SPRING_EXTENSION)) {
						return extension;
					}
				}
			}
		}
		return null;
	}

}
