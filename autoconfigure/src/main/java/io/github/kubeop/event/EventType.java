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

package io.github.kubeop.event;

/**
 * The type of a Kubernetes Event, as the API server accepts it.
 *
 * @author Kubeop authors
 */
public enum EventType {

	/**
	 * Something expected happened, such as a rollout that started.
	 */
	NORMAL("Normal"),

	/**
	 * Something may need attention, such as a spec that cannot be satisfied.
	 */
	WARNING("Warning");

	private final String value;

	EventType(String value) {
		this.value = value;
	}

	/**
	 * Returns the value of the Event's {@code type} field.
	 * @return {@code Normal} or {@code Warning}
	 */
	public String value() {
		return this.value;
	}

}
