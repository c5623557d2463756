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

package io.github.kubeop.handler;

import java.time.Duration;

/**
 * What a handler method may return to be called again later for the same key, as
 * controller-runtime's {@code reconcile.Result}. Returning a {@link Duration} does the
 * same.
 *
 * @param requeueAfter when to call again, or {@code null} not to
 * @param priority the queue priority to be called again at, from
 * {@link io.github.kubeop.queue.Priority#LOW} to
 * {@link io.github.kubeop.queue.Priority#HIGH}, or {@code null} for the priority this
 * call was taken at; a priority outside that range is clamped to it
 * @author Kubeop authors
 */
public record Result(Duration requeueAfter, Integer priority) {

	private static final Result DONE = new Result(null, null);

	/**
	 * Creates a result asking to be called again after a delay, at the priority of this
	 * call.
	 * @param requeueAfter when to call again, or {@code null} not to
	 */
	public Result(Duration requeueAfter) {
		this(requeueAfter, null);
	}

	/**
	 * Returns a result that asks for nothing more.
	 * @return the result
	 */
	public static Result done() {
		return DONE;
	}

	/**
	 * Returns a result asking to be called again after a delay.
	 * @param delay the delay
	 * @return the result
	 */
	public static Result requeueAfter(Duration delay) {
		return new Result(delay);
	}

	/**
	 * Returns this result with a queue priority for the next call: a key waiting at a
	 * higher priority is taken first (see {@link io.github.kubeop.queue.Priority}).
	 * @param priority the priority, from {@link io.github.kubeop.queue.Priority#LOW} to
	 * {@link io.github.kubeop.queue.Priority#HIGH}
	 * @return the result
	 */
	public Result withPriority(int priority) {
		return new Result(this.requeueAfter, priority);
	}

}
