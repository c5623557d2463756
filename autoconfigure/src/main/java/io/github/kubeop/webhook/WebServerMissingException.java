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

package io.github.kubeop.webhook;

/**
 * Thrown at startup when the application has webhooks but nothing to serve them: a
 * non-web application, a servlet one on another server than Tomcat, or a reactive one
 * without Reactor Netty.
 *
 * @author Kubeop authors
 */
public class WebServerMissingException extends RuntimeException {

	/**
	 * Creates a new instance.
	 * @param message what the application has and lacks
	 */
	public WebServerMissingException(String message) {
		super(message);
	}

}
