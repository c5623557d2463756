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

import com.google.gson.JsonObject;

/**
 * Answers the reviews the API server posts to one path: an {@code AdmissionReview} or a
 * {@code ConversionReview}, read and answered as JSON trees.
 *
 * @author Kubeop authors
 */
interface WebhookEndpoint {

	/**
	 * Returns the path.
	 * @return the path
	 */
	String path();

	/**
	 * Answers a review.
	 * @param review the review the API server sent
	 * @return the review with its response
	 */
	Answer answer(JsonObject review);

	/**
	 * A review with its response, and the code meters record it with.
	 *
	 * @param review the review to send back
	 * @param code 200 allowed or converted, 403 denied, 400 unreadable, 500 threw
	 * @param failure what the webhook's code threw, or {@code null}
	 */
	record Answer(JsonObject review, int code, Throwable failure) {

	}

}
