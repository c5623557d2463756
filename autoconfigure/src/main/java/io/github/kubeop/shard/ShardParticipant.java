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

package io.github.kubeop.shard;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * What a shard member moves keys in and out of: the replica's handlers.
 *
 * @author Kubeop authors
 */
public interface ShardParticipant {

	/**
	 * Stops taking keys outside the given ones and drops their state; running calls go
	 * on.
	 * @param keys the keys kept
	 */
	void narrow(Predicate<String> keys);

	/**
	 * Returns whether no call runs for a key outside the given ones.
	 * @param keys the keys kept
	 * @return whether the keys given away are drained
	 */
	boolean drained(Predicate<String> keys);

	/**
	 * Interrupts the calls for keys outside the given ones and waits for them.
	 * @param keys the keys kept
	 * @param timeout how long to wait
	 * @return whether they ended in time
	 */
	boolean interrupt(Predicate<String> keys, Duration timeout);

	/**
	 * Starts handling the given keys; cached objects with keys gained are handled as
	 * adds.
	 * @param keys the keys handled from now on
	 * @return how many cached objects were gained
	 */
	int widen(Predicate<String> keys);

	/**
	 * Returns how many cached objects of the handled resources have keys among the given
	 * ones.
	 * @param keys the keys
	 * @return the number of cached objects
	 */
	int cached(Predicate<String> keys);

}
