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
 * Told what a queue does, so that controller-runtime's workqueue metrics can be derived:
 * adds, time spent waiting, time spent processing, retries. Called under the queue's
 * lock: implementations must be fast and must not call back into the queue.
 *
 * @author Kubeop authors
 */
public interface QueueMetrics {

	/**
	 * Metrics that record nothing.
	 */
	QueueMetrics NOOP = new QueueMetrics() {
	};

	/**
	 * An item was added (and was not already waiting).
	 * @param priority its priority
	 */
	default void added(int priority) {
	}

	/**
	 * A waiting item's priority was raised.
	 * @param from the priority it waited at
	 * @param to the priority it waits at now
	 */
	default void raised(int from, int to) {
	}

	/**
	 * An item was taken by a worker.
	 * @param waitedNanos how long it waited in the queue
	 * @param priority the priority it was taken at
	 */
	default void taken(long waitedNanos, int priority) {
	}

	/**
	 * An item was done.
	 * @param workedNanos how long it was processed
	 */
	default void done(long workedNanos) {
	}

	/**
	 * An item was added back after a failure.
	 */
	default void retried() {
	}

}
