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
 * Whether a webhook changes anything besides its answer, as a webhook configuration's
 * {@code sideEffects}. The API server sends dry-run requests only to webhooks without
 * side effects, or whose side effects are skipped on dry run.
 *
 * @author Kubeop authors
 */
public enum SideEffects {

	/**
	 * The webhook only answers.
	 */
	NONE,

	/**
	 * The webhook has side effects, and skips them when
	 * {@link AdmissionRequest#isDryRun()} is true.
	 */
	NONE_ON_DRY_RUN;

	String value() {
		return (this == NONE) ? "None" : "NoneOnDryRun";
	}

}
