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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that Spring's test context cache keeps working for {@link KubeopOperatorTest}:
 * this class and {@link KubeopOperatorTestContextCacheSecondTests}, of the same
 * configuration, share one context (its start-up, the client's preparation and the
 * informers' sync included, is paid once), whichever runs first.
 *
 * @author Kubeop authors
 */
@KubeopOperatorTest(properties = { "kubeop.informers.resources.cached.api-version=v1",
		"kubeop.informers.resources.cached.kind=ConfigMap" })
@ContextConfiguration(classes = KubeopOperatorTestContextCacheTests.Operator.class)
class KubeopOperatorTestContextCacheTests {

	private static final Set<ApplicationContext> contexts = ConcurrentHashMap.newKeySet();

	@Test
	void sharesItsContextWithATestClassOfTheSameConfiguration(@Autowired ApplicationContext context) {
		assertOneContext(context);
	}

	@Test
	void theOperatorsClientWasPreparedOffTheMainThread(@Autowired ApplicationContext context) {
		// the control plane's connection details are a ready-made singleton, which the
		// client's preparation takes as they are
		assertThat(context.containsBean("kubeopKubernetesClientPreparation")).isTrue();
	}

	/**
	 * Records a test class's context and checks that every class had the same one.
	 * @param context the test class's context
	 */
	static void assertOneContext(ApplicationContext context) {
		contexts.add(context);
		assertThat(contexts).as("the contexts of the test classes of the same configuration").hasSize(1);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Operator {

	}

}
