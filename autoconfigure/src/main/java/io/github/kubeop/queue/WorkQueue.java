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
 * A work queue with client-go's semantics: an item waits at most once however often it is
 * added; an item added while being processed waits again once it is {@link #done(Object)
 * done}, so it is never processed by two workers at once and no change is lost.
 *
 * @param <K> the item type, usually a {@code namespace/name} key
 * @author Kubeop authors
 */
public interface WorkQueue<K> {

	/**
	 * Adds an item, unless it is already waiting.
	 * @param item the item
	 */
	void add(K item);

	/**
	 * Adds an item at a priority; an item already waiting is raised to it if that is
	 * higher, never lowered.
	 * @param item the item
	 * @param priority the priority, {@link Priority#NORMAL} for a plain add
	 */
	void add(K item, int priority);

	/**
	 * Returns the priority an item being processed was taken at, so that a retry can keep
	 * it.
	 * @param item the item
	 * @return its priority, {@link Priority#NORMAL} if it is not being processed
	 */
	int priorityOf(K item);

	/**
	 * Takes the next item, waiting for one; the caller must call {@link #done(Object)}.
	 * @return the item, or {@code null} once the queue is shut down
	 * @throws InterruptedException if interrupted while waiting
	 */
	K get() throws InterruptedException;

	/**
	 * Marks an item processed; if it was added meanwhile, it waits again.
	 * @param item the item
	 */
	void done(K item);

	/**
	 * Returns how many items wait (not counting those being processed).
	 * @return the number of waiting items
	 */
	int length();

	/**
	 * Shuts down: adds are ignored and {@link #get()} returns {@code null}.
	 */
	void shutDown();

	/**
	 * Shuts down like {@link #shutDown()}, then waits until every item being processed is
	 * done.
	 * @throws InterruptedException if interrupted while waiting
	 */
	void shutDownWithDrain() throws InterruptedException;

	/**
	 * Returns whether the queue is shut down.
	 * @return whether it is shutting down
	 */
	boolean isShuttingDown();

}
