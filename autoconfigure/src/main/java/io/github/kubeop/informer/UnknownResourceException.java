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

package io.github.kubeop.informer;

/**
 * Thrown when the API server does not serve a resource that an informer is asked for.
 *
 * @author Kubeop authors
 */
public class UnknownResourceException extends InformerException {

	private final String apiVersion;

	private final String kind;

	/**
	 * Creates a new instance.
	 * @param apiVersion the API version asked for
	 * @param kind the kind or plural asked for, or {@code null} when the API version
	 * itself is unknown
	 * @param reason why the resource is unknown
	 */
	public UnknownResourceException(String apiVersion, String kind, String reason) {
		super(reason, null);
		this.apiVersion = apiVersion;
		this.kind = kind;
	}

	/**
	 * Returns the API version asked for.
	 * @return the API version
	 */
	public String getApiVersion() {
		return this.apiVersion;
	}

	/**
	 * Returns the kind or plural asked for.
	 * @return the kind, or {@code null} when the API version itself is unknown
	 */
	public String getKind() {
		return this.kind;
	}

}
