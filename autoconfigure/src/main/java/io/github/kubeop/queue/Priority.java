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
 * Priorities of queued items, as controller-runtime's priority queue has them: a worker
 * takes the waiting item of the highest priority first, items of one priority in the
 * order they were added. Objects handled only because a handler started, was activated or
 * resynced wait at {@link #LOW}, behind every real change ({@link #NORMAL}); a handler
 * may ask for any priority from {@link #LOW} to {@link #HIGH} with its requeue.
 *
 * @author Kubeop authors
 */
public final class Priority {

	/**
	 * Work that no change asked for: every cached object queued when a handler starts, is
	 * activated (leader, shard keys gained), or resyncs. controller-runtime's
	 * {@code handler.LowPriority}.
	 */
	public static final int LOW = -100;

	/**
	 * A change that came through the watch, and every add that names no priority.
	 */
	public static final int NORMAL = 0;

	/**
	 * The highest priority a handler may ask for.
	 */
	public static final int HIGH = 100;

	private Priority() {
	}

	/**
	 * Returns whether a priority is one a handler may ask for.
	 * @param priority the priority
	 * @return whether it is from {@link #LOW} to {@link #HIGH}
	 */
	public static boolean isAllowed(int priority) {
		return priority >= LOW && priority <= HIGH;
	}

	/**
	 * Returns the nearest allowed priority.
	 * @param priority a priority
	 * @return the priority, clamped to {@link #LOW} and {@link #HIGH}
	 */
	public static int clamp(int priority) {
		return Math.max(LOW, Math.min(HIGH, priority));
	}

}
