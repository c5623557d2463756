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

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a handler filter the API server would reject fails startup naming the
 * method, before any event.
 *
 * @author Kubeop authors
 */
class InvalidFilterTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void labelSelectorKubernetesRejectsNamesTheMethodAndTheReason() {
		this.runner.withBean(BadValue.class).run((context) -> {
			assertThat(context).hasFailed();
			Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(cause).isInstanceOf(InvalidHandlerMethodException.class)
				.hasMessageContaining("BadValue.added(V1ConfigMap) has label selector 'tier=-web'")
				.hasMessageContaining("value '-web' of key 'tier' is invalid");
		});
	}

	@Test
	void labelSelectorOnAnotherMethodOfTheHandlerIsNamed() {
		this.runner.withBean(BadSetOnDelete.class).run((context) -> {
			assertThat(context).hasFailed();
			Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
			assertThat(cause).isInstanceOf(InvalidHandlerMethodException.class)
				.hasMessageContaining("BadSetOnDelete.removed(V1ConfigMap) has label selector 'tier in web'");
		});
	}

	static class BadValue {

		@OnAdd(labelSelector = "tier=-web")
		void added(V1ConfigMap configMap) {
		}

	}

	static class BadSetOnDelete {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

		@OnDelete(labelSelector = "tier in web")
		void removed(V1ConfigMap configMap) {
		}

	}

}
