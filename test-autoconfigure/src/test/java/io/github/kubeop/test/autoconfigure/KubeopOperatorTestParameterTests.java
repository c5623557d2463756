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

package io.github.kubeop.test.autoconfigure;

// tag::imports[]
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
// end::imports[]

/**
 * Tests that the parameters of a {@link KubeopOperatorTest}'s methods resolve without a
 * clash between Spring's extension and the control plane's: an {@code @Autowired}
 * parameter is a bean, a plain one comes from the control plane.
 *
 * @author Kubeop authors
 */
// tag::parameters[]
@KubeopOperatorTest
class KubeopOperatorTestParameterTests {

	private static ApiClient clientBeforeAll;

	@BeforeAll
	static void keepOperatorClient(@Autowired ApiClient client) {
		clientBeforeAll = client;
	}

	@Test
	void autowiredParametersAreBeansAndOthersComeFromTheControlPlane(@Autowired ApiClient operatorClient,
			ApiClient admin, ControlPlane controlPlane, TestNamespace namespace, ApplicationContext context) {
		ApiClient bean = context.getBean(ApiClient.class);
		assertThat(clientBeforeAll).isSameAs(bean);
		assertThat(operatorClient).isSameAs(bean);
		assertThat(admin).isNotSameAs(bean);
		assertThat(admin.getBasePath()).isEqualTo(controlPlane.serverUrl());
		assertThat(namespace.name()).startsWith("kubeop-operator-test-parameter-tests-");
	}

	// end::parameters[]

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class NoHandlers {

	}

}
