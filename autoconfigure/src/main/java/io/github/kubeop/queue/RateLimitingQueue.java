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

package io.github.kubeop.queue;

/**
 * A {@link DelayingQueue} that adds failed items back after a delay its
 * {@link RateLimiter} decides.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public interface RateLimitingQueue<K> extends DelayingQueue<K> {

	/**
	 * Adds an item after the rate limiter's delay for it.
	 * @param item the item
	 */
	void addRateLimited(K item);

	/**
	 * Adds an item at a priority after the rate limiter's delay for it.
	 * @param item the item
	 * @param priority the priority
	 */
	void addRateLimited(K item, int priority);

	/**
	 * Tells the rate limiter the item succeeded, resetting its back-off.
	 * @param item the item
	 */
	void forget(K item);

	/**
	 * Returns how often the item was added back since it was last forgotten.
	 * @param item the item
	 * @return the number of requeues
	 */
	int numRequeues(K item);

}
