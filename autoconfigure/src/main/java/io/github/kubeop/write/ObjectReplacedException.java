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

package io.github.kubeop.write;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiException;

/**
 * Thrown by {@link KubernetesTemplate#delete} when its {@code uid} precondition fails:
 * the object of that name is not the one the caller meant, it was deleted and created
 * again, and is left alone. A {@code 409 Conflict}, with the server's answer kept.
 *
 * @author Kubeop authors
 */
public class ObjectReplacedException extends ApiException {

	/**
	 * Creates a new exception.
	 * @param message the message
	 * @param code the HTTP status code
	 * @param headers the response headers
	 * @param body the response body
	 */
	public ObjectReplacedException(String message, int code, Map<String, List<String>> headers, String body) {
		super(message, code, headers, body);
	}

}
