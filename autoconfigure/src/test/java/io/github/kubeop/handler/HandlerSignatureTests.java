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

import java.util.List;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that handler methods Kubeop cannot call fail startup naming the method and the
 * fix, before any event.
 *
 * @author Kubeop authors
 */
class HandlerSignatureTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void unsupportedParameterNamesTheMethodAndTheFix() {
		assertInvalid(UnsupportedParameter.class, "UnsupportedParameter.added(V1ConfigMap, String)",
				"has parameter 2 of type java.lang.String", "optionally an io.github.kubeop.handler.HandlerContext");
	}

	@Test
	void tooManyObjectsForAnAdd() {
		assertInvalid(TwoObjectsOnAdd.class, "TwoObjectsOnAdd.added(V1ConfigMap, V1ConfigMap)", "takes 2 objects",
				"An @OnAdd method takes one object.");
	}

	@Test
	void mixedResourceTypes() {
		assertInvalid(MixedTypes.class, "MixedTypes.changed(V1ConfigMap, V1Pod)", "takes both V1ConfigMap and V1Pod",
				"same resource type");
	}

	@Test
	void unusableReturnType() {
		assertInvalid(WrongReturn.class, "WrongReturn.removed(V1ConfigMap)", "returns List",
				"Return void, a java.time.Duration or an io.github.kubeop.handler.Result");
	}

	@Test
	void noResource() {
		assertInvalid(NoResource.class, "NoResource.added(HandlerContext)", "does not say which resource it handles",
				"'informer' attribute");
	}

	@Test
	void twoEventAnnotationsOnOneMethod() {
		assertInvalid(TwoAnnotations.class, "TwoAnnotations.both(V1ConfigMap)",
				"has more than one of @OnAdd, @OnUpdate, @OnDelete, @Reconcile and @Cleanup",
				"Use one method per event");
	}

	@Test
	void conflictingFilters() {
		assertInvalid(ConflictingFilters.class, "ConflictingFilters.", "filters with labelSelector",
				"same labelSelector");
	}

	@Test
	void reconcileNextToAnUpdateMethodForTheSameResource() {
		assertInvalid(ReconcileAndUpdate.class, "ReconcileAndUpdate.reconcile(V1ConfigMap)",
				"changed of the same bean and resource is an @OnAdd or @OnUpdate method",
				"Keep either @Reconcile (called for adds and updates) or @OnAdd/@OnUpdate");
	}

	@Test
	void reconcileWithTwoObjects() {
		assertInvalid(ReconcileWithTwoObjects.class, "ReconcileWithTwoObjects.reconcile(V1ConfigMap, V1ConfigMap)",
				"takes 2 objects", "An @Reconcile method takes one object.");
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

	static class UnsupportedParameter {

		@OnAdd
		void added(V1ConfigMap configMap, String extra) {
		}

	}

	static class TwoObjectsOnAdd {

		@OnAdd
		void added(V1ConfigMap a, V1ConfigMap b) {
		}

	}

	static class MixedTypes {

		@OnUpdate
		void changed(V1ConfigMap a, V1Pod b) {
		}

	}

	static class WrongReturn {

		@OnDelete
		List<String> removed(V1ConfigMap configMap) {
			return List.of();
		}

	}

	static class NoResource {

		@OnAdd
		void added(HandlerContext context) {
		}

	}

	static class TwoAnnotations {

		@OnAdd
		@OnUpdate
		void both(V1ConfigMap configMap) {
		}

	}

	static class ConflictingFilters {

		@OnAdd(labelSelector = "app=web")
		void added(V1ConfigMap configMap) {
		}

		@OnUpdate(labelSelector = "app=db")
		void changed(V1ConfigMap configMap) {
		}

	}

	static class ReconcileAndUpdate {

		@Reconcile
		void reconcile(V1ConfigMap configMap) {
		}

		@OnUpdate
		void changed(V1ConfigMap configMap) {
		}

	}

	static class ReconcileWithTwoObjects {

		@Reconcile
		void reconcile(V1ConfigMap a, V1ConfigMap b) {
		}

	}

}
