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

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * The second test class of {@link KubeopOperatorTestContextCacheTests}' configuration.
 *
 * @author Kubeop authors
 */
@KubeopOperatorTest(properties = { "kubeop.informers.resources.cached.api-version=v1",
		"kubeop.informers.resources.cached.kind=ConfigMap" })
@ContextConfiguration(classes = KubeopOperatorTestContextCacheTests.Operator.class)
class KubeopOperatorTestContextCacheSecondTests {

	@Test
	void sharesItsContextWithATestClassOfTheSameConfiguration(@Autowired ApplicationContext context) {
		KubeopOperatorTestContextCacheTests.assertOneContext(context);
	}

}
