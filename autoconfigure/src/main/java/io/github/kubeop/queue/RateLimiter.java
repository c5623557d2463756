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

import java.time.Duration;

/**
 * Decides how long a failed item waits before it is tried again.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public interface RateLimiter<K> {

	/**
	 * Returns how long the item waits now, counting this as one more failure.
	 * @param item the item
	 * @return the delay
	 */
	Duration when(K item);

	/**
	 * Forgets the item's failures.
	 * @param item the item
	 */
	void forget(K item);

	/**
	 * Returns how many failures of the item are counted.
	 * @param item the item
	 * @return the failures
	 */
	int numRequeues(K item);

}
