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
 * A {@link WorkQueue} that can add items later. Unlike the official Java client's
 * delaying queue it holds any number of delayed items.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public interface DelayingQueue<K> extends WorkQueue<K> {

	/**
	 * Adds an item after a delay; an item already waiting to be added at an earlier time
	 * keeps the earlier time.
	 * @param item the item
	 * @param delay the delay; zero or negative adds at once
	 */
	void addAfter(K item, Duration delay);

	/**
	 * Adds an item at a priority after a delay; an item already waiting for its delay
	 * keeps the earlier due time and the higher priority of the two.
	 * @param item the item
	 * @param delay the delay; zero or negative adds at once
	 * @param priority the priority
	 */
	void addAfter(K item, Duration delay, int priority);

}
