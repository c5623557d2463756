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

package io.github.kubeop.handler;

import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that {@link Cleanup} declarations Kubeop cannot honour fail startup naming the
 * method and the fix, before any event and before any request to the API server.
 *
 * @author Kubeop authors
 */
class CleanupDeclarationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void finalizerWithoutASlash() {
		assertInvalid(UnqualifiedFinalizer.class, "UnqualifiedFinalizer.cleanUp(V1ConfigMap)",
				"finalizer 'cleanup' is not a qualified name", "'sample.kubeop.io/cleanup'");
	}

	@Test
	void twoCleanupMethodsForOneResource() {
		assertInvalid(TwoCleanups.class, "TwoCleanups.second(V1ConfigMap)",
				"is a second @Cleanup method of the same bean and resource, next to first",
				"Keep one @Cleanup method per bean and resource");
	}

	@Test
	void cleanupWithoutAMethodThatAddsTheFinalizer() {
		assertInvalid(CleanupOnly.class, "CleanupOnly.cleanUp(V1ConfigMap)",
				"has no @Reconcile, @OnAdd or @OnUpdate method for the same resource",
				"Add a @Reconcile method (or @OnAdd/@OnUpdate)");
	}

	@Test
	void cleanupNextToAnAnotherAnnotationOnOneMethod() {
		assertInvalid(CleanupAndReconcile.class, "CleanupAndReconcile.both(V1ConfigMap)",
				"has more than one of @OnAdd, @OnUpdate, @OnDelete, @Reconcile and @Cleanup",
				"Use one method per event");
	}

	@Test
	void cleanupWithTwoObjects() {
		assertInvalid(CleanupWithTwoObjects.class, "CleanupWithTwoObjects.cleanUp(V1ConfigMap, V1ConfigMap)",
				"takes 2 objects", "An @Cleanup method takes one object.");
	}

	@Test
	void programmaticCleanupWithoutAnAddOrReconcile() {
		assertThatIllegalArgumentException().isThrownBy(() -> HandlerEndpoint.builder("cleaner", V1ConfigMap.class)
			.onCleanup("sample.kubeop.io/cleanup", (configMap) -> {
			})
			.onDelete((configMap) -> {
			})
			.build())
			.withMessageContaining("Handler 'cleaner'")
			.withMessageContaining("needs a reconcile, add or update method");
	}

	@Test
	void programmaticUnqualifiedFinalizer() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> HandlerEndpoint.builder("cleaner", V1ConfigMap.class).onCleanup("cleanup", (configMap) -> {
				}))
			.withMessageContaining("finalizer 'cleanup' is not a qualified name");
	}

	private void assertInvalid(Class<?> handler, String method, String problem, String fix) {
		this.runner.withBean(handler).run((context) -> {
			assertThat(context).hasFailed();
			Throwable cause = context.getStartupFailure();
			while (cause != null && !(cause instanceof InvalidHandlerMethodException)) {
				cause = cause.getCause();
			}
			assertThat(cause).isInstanceOf(InvalidHandlerMethodException.class);
			InvalidHandlerMethodException invalid = (InvalidHandlerMethodException) cause;
			assertThat(invalid.getMessage()).contains(method).contains(problem);
			assertThat(invalid.getFix()).contains(fix);
		});
	}

	static class UnqualifiedFinalizer {

		@Reconcile
		void reconcile(V1ConfigMap configMap) {
		}

		@Cleanup(finalizer = "cleanup")
		void cleanUp(V1ConfigMap configMap) {
		}

	}

	static class TwoCleanups {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

		@Cleanup(finalizer = "sample.kubeop.io/first")
		void first(V1ConfigMap configMap) {
		}

		@Cleanup(finalizer = "sample.kubeop.io/second")
		void second(V1ConfigMap configMap) {
		}

	}

	static class CleanupOnly {

		@Cleanup(finalizer = "sample.kubeop.io/cleanup")
		void cleanUp(V1ConfigMap configMap) {
		}

		@OnDelete
		void deleted(V1ConfigMap configMap) {
		}

	}

	static class CleanupAndReconcile {

		@Reconcile
		@Cleanup(finalizer = "sample.kubeop.io/cleanup")
		void both(V1ConfigMap configMap) {
		}

	}

	static class CleanupWithTwoObjects {

		@Reconcile
		void reconcile(V1ConfigMap configMap) {
		}

		@Cleanup(finalizer = "sample.kubeop.io/cleanup")
		void cleanUp(V1ConfigMap oldConfigMap, V1ConfigMap configMap) {
		}

	}

}
