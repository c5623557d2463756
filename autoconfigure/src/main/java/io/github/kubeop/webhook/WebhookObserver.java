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
 * Told of every webhook call, for meters. The metrics auto-configuration provides one
 * that records controller-runtime's webhook meters.
 *
 * @author Kubeop authors
 */
public interface WebhookObserver {

	/**
	 * An observer that does nothing.
	 */
	WebhookObserver NONE = new WebhookObserver() {
	};

	/**
	 * Called when a webhook is known, before its first call, so that its meters read zero
	 * from the start.
	 * @param path the path of the webhook
	 */
	default void registered(String path) {
	}

	/**
	 * Called when a request starts.
	 * @param path the path of the webhook
	 */
	default void started(String path) {
	}

	/**
	 * Called when a request was answered.
	 * @param path the path of the webhook
	 * @param code the code of the answer: 200 allowed, 403 denied, 400 unreadable, 500
	 * the webhook threw
	 * @param nanos how long the answer took
	 */
	default void answered(String path, int code, long nanos) {
	}

	/**
	 * Called when a webhook method threw, so the request was denied with the exception's
	 * message (counted as controller-runtime counts webhook panics).
	 * @param path the path of the webhook
	 * @param failure what the method threw
	 */
	default void threw(String path, Throwable failure) {
	}

}
