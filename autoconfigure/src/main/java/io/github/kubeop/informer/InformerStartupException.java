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
 * Thrown when an informer cannot work as configured: the API server rejects its list with
 * a client error, such as a malformed selector (400) or missing RBAC permission (403).
 *
 * @author Kubeop authors
 */
public class InformerStartupException extends InformerException {

	private final String informerName;

	private final String reason;

	/**
	 * Creates a new instance.
	 * @param informerName the informer name
	 * @param informer a description of the informer
	 * @param reason the reason the API server gave
	 * @param cause the cause
	 */
	public InformerStartupException(String informerName, String informer, String reason, Throwable cause) {
		super(informer + " cannot list and watch: " + reason, cause);
		this.informerName = informerName;
		this.reason = reason;
	}

	/**
	 * Returns the informer name.
	 * @return the name
	 */
	public String getInformerName() {
		return this.informerName;
	}

	/**
	 * Returns the reason the API server gave.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

}
