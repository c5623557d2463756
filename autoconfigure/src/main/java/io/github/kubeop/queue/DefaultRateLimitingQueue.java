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

import java.util.function.Function;

/**
 * client-go's rate-limiting queue: a {@link DefaultDelayingQueue} that asks its
 * {@link RateLimiter} how long a failed item waits.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
public class DefaultRateLimitingQueue<K> extends DefaultDelayingQueue<K> implements RateLimitingQueue<K> {

	private final RateLimiter<K> rateLimiter;

	/**
	 * Creates a queue.
	 * @param name the queue name, for threads and metrics
	 * @param rateLimiter decides how long failed items wait
	 * @param metrics told what the queue does
	 * @param ticker the time source
	 */
	public DefaultRateLimitingQueue(String name, RateLimiter<K> rateLimiter, QueueMetrics metrics, Ticker ticker) {
		this(name, rateLimiter, metrics, ticker, null);
	}

	/**
	 * Creates a queue whose items take turns by lane.
	 * @param name the queue name, for threads and metrics
	 * @param rateLimiter decides how long failed items wait
	 * @param metrics told what the queue does
	 * @param ticker the time source
	 * @param lanes the lane of an item, or {@code null} for one lane
	 * @see DefaultWorkQueue#DefaultWorkQueue(String, QueueMetrics, Ticker, Function)
	 */
	public DefaultRateLimitingQueue(String name, RateLimiter<K> rateLimiter, QueueMetrics metrics, Ticker ticker,
			Function<? super K, String> lanes) {
		super(name, metrics, ticker, lanes);
		this.rateLimiter = rateLimiter;
	}

	/**
	 * Creates a queue without metrics.
	 * @param name the queue name
	 * @param rateLimiter decides how long failed items wait
	 */
	public DefaultRateLimitingQueue(String name, RateLimiter<K> rateLimiter) {
		this(name, rateLimiter, QueueMetrics.NOOP, Ticker.system());
	}

	@Override
	public void addRateLimited(K item) {
		addRateLimited(item, Priority.NORMAL);
	}

	@Override
	public void addRateLimited(K item, int priority) {
		metrics().retried();
		addAfter(item, this.rateLimiter.when(item), priority);
	}

	@Override
	public void forget(K item) {
		this.rateLimiter.forget(item);
	}

	@Override
	public int numRequeues(K item) {
		return this.rateLimiter.numRequeues(item);
	}

}
