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
 * What the API server does when it cannot reach a webhook or the webhook does not answer
 * in time, as a webhook configuration's {@code failurePolicy}.
 *
 * @author Kubeop authors
 */
public enum FailurePolicy {

	/**
	 * The request is rejected: nothing gets past the webhook while it is down.
	 */
	FAIL,

	/**
	 * The request goes on as if the webhook had allowed it.
	 */
	IGNORE;

	String value() {
		return (this == FAIL) ? "Fail" : "Ignore";
	}

}
