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

package io.github.kubeop.test.controlplane;

/**
 * Thrown when this machine can provide no Kubernetes control plane for tests. The message
 * names every way to get one.
 *
 * @author Kubeop authors
 */
public class NoControlPlaneException extends IllegalStateException {

	/**
	 * Creates a new instance.
	 * @param message the message naming the ways to get a control plane
	 */
	public NoControlPlaneException(String message) {
		super(message);
	}

	/**
	 * Creates a new instance.
	 * @param message the message naming the ways to get a control plane
	 * @param cause why the last way tried failed
	 */
	public NoControlPlaneException(String message, Throwable cause) {
		super(message, cause);
	}

}
