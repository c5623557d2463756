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

package io.github.kubeop.autoconfigure;

import io.github.kubeop.webhook.WebServerMissingException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains webhooks without a web server to serve them, naming the dependencies to add.
 *
 * @author Kubeop authors
 */
class WebServerMissingFailureAnalyzer extends AbstractFailureAnalyzer<WebServerMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WebServerMissingException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Add the dependency org.springframework.boot:spring-boot-starter-webmvc (Tomcat) or, for a "
						+ "reactive application, org.springframework.boot:spring-boot-starter-webflux (Reactor Netty); "
						+ "either serves the webhooks over TLS on kubeop.webhooks.port. Or set "
						+ "kubeop.webhooks.enabled=false to run without them.",
				cause);
	}

}
