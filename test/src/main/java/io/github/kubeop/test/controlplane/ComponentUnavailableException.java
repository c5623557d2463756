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
 * Thrown when a {@link Component} that a control plane needs can be neither found nor
 * built, or does not start. The message names the component and says why: for a build or
 * start failure, the command and the last lines of its output.
 *
 * @author Kubeop authors
 */
public class ComponentUnavailableException extends IllegalStateException {

	private final Component component;

	ComponentUnavailableException(Component component, String reason) {
		this(component, reason, null);
	}

	ComponentUnavailableException(Component component, String reason, Throwable cause) {
		super("Control plane component " + component.executableName() + " is unavailable: " + reason, cause);
		this.component = component;
	}

	/**
	 * Returns the component that is unavailable.
	 * @return the component
	 */
	public Component component() {
		return this.component;
	}

}
