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

package io.github.kubeop.docs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ConfigurationPropertiesTable}.
 *
 * @author Kubeop authors
 */
class ConfigurationPropertiesTableTests {

	@Test
	void everyKubeopPropertyIsInTheTableWithItsDescription() throws Exception {
		String table = ConfigurationPropertiesTable.table(ConfigurationPropertiesTable.metadata());
		assertThat(table).contains("| `kubeop.informers.sync-timeout`\n| `2m`\n| How long startup waits")
			.contains("| `kubeop.leader-election.lease-duration`\n| `15s`")
			.contains("| `kubeop.handlers.rate-limiter.base-delay`\n| `5ms`")
			.contains("| `kubeop.handlers.rate-limiter.max-delay`\n| `1000s`")
			.contains("| `kubeop.handlers.rate-limiter.qps`\n| `10`")
			.contains("| `kubeop.handlers.rate-limiter.burst`\n| `100`")
			.contains("| `kubeop.client.kubeconfig`")
			.endsWith("|===\n");
	}

}
