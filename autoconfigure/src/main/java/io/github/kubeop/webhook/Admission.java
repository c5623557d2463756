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

import java.util.ArrayList;
import java.util.List;

/**
 * The answer of a {@link ValidatingWebhook} method: allowed, or denied with a message the
 * API server passes on to the client, each with warnings the client shows (as
 * controller-runtime's {@code admission.Warnings}).
 *
 * @author Kubeop authors
 */
public final class Admission {

	private static final int FORBIDDEN = 403;

	private final boolean allowed;

	private final String message;

	private final int code;

	private final List<String> warnings;

	private Admission(boolean allowed, String message, int code, List<String> warnings) {
		this.allowed = allowed;
		this.message = message;
		this.code = code;
		this.warnings = List.copyOf(warnings);
	}

	/**
	 * Allows the request.
	 * @return the answer
	 */
	public static Admission allowed() {
		return new Admission(true, null, 200, List.of());
	}

	/**
	 * Denies the request; the client sees the message, as in
	 * {@code admission webhook "vqueue.example.com" denied the request: <message>}.
	 * @param message why the request is denied
	 * @return the answer
	 */
	public static Admission denied(String message) {
		return new Admission(false, message, FORBIDDEN, List.of());
	}

	/**
	 * Returns this answer with one more warning, which {@code kubectl} prints as
	 * {@code Warning: <warning>} whether the request is allowed or not.
	 * @param warning the warning
	 * @return the answer with the warning
	 */
	public Admission withWarning(String warning) {
		List<String> all = new ArrayList<>(this.warnings);
		all.add(warning);
		return new Admission(this.allowed, this.message, this.code, all);
	}

	/**
	 * Returns whether the request is allowed.
	 * @return whether the request is allowed
	 */
	public boolean isAllowed() {
		return this.allowed;
	}

	/**
	 * Returns why the request is denied.
	 * @return the message, or {@code null} if the request is allowed
	 */
	public String getMessage() {
		return this.message;
	}

	/**
	 * Returns the warnings.
	 * @return the warnings
	 */
	public List<String> getWarnings() {
		return this.warnings;
	}

	int code() {
		return this.code;
	}

	static Admission errored(int code, String message) {
		return new Admission(false, message, code, List.of());
	}

	@Override
	public String toString() {
		return this.allowed ? "allowed" : "denied (" + this.code + "): " + this.message;
	}

}
