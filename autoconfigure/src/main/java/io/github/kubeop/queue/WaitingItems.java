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

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The items of a {@link DefaultWorkQueue} that wait for a worker, by priority and, with
 * fairness on, by lane. The highest priority that has items is served first; within one
 * priority, the lanes that have items take turns, one item each, and each lane is FIFO.
 * So priorities hold across lanes, and a lane with 10,000 waiting items delays another
 * lane's one item by at most one item per worker.
 * <p>
 * An item whose priority is raised is placed again at the higher priority; its earlier
 * place is left where it is (a place is cheap, a search through a long lane is not) and
 * skipped when reached, unless the item waits at that priority again by then, in which
 * case it is taken there, no later than its new place. Not thread-safe: the queue calls
 * it under its lock.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
final class WaitingItems<K> {

	@SuppressWarnings("rawtypes")
	private static final Level[] NO_LEVELS = {};

	/**
	 * Whether items take turns by lane.
	 */
	private final boolean fair;

	/**
	 * The levels, highest priority first; a level stays once created (there are as many
	 * as priorities used, a handful).
	 */
	@SuppressWarnings("unchecked")
	private Level<K>[] levels = NO_LEVELS;

	/**
	 * The level of {@link Priority#NORMAL}, kept at hand: most items go there.
	 */
	private Level<K> normal;

	/**
	 * Items waiting.
	 */
	private int size;

	/**
	 * Places held, the places left behind by raised items included: when equal to
	 * {@link #size}, no place needs checking.
	 */
	private int places;

	WaitingItems(boolean fair) {
		this.fair = fair;
	}

	/**
	 * Places an item that does not wait yet.
	 * @param item the item
	 * @param priority its priority
	 * @param lane its lane, ignored without fairness
	 */
	void push(K item, int priority, String lane) {
		level(priority).push(item, lane);
		this.size++;
		this.places++;
	}

	/**
	 * Places a waiting item again at a higher priority.
	 * @param item the item
	 * @param to the higher priority
	 * @param lane its lane, ignored without fairness
	 */
	void raise(K item, int to, String lane) {
		level(to).push(item, lane);
		this.places++;
	}

	/**
	 * Takes the next item: the highest priority's, the next lane's turn.
	 * @param waitsAt whether an item waits at a priority now; asked only for items that
	 * may have been raised since they were placed
	 * @return the item, or {@code null} if none waits
	 */
	K poll(BiPredicate<K, Integer> waitsAt) {
		while (this.size > 0) {
			for (Level<K> level : this.levels) {
				if (level.isEmpty()) {
					continue;
				}
				K item = level.poll();
				this.places--;
				if (this.places + 1 == this.size || waitsAt.test(item, level.priority)) {
					this.size--;
					return item;
				}
				// a place left behind by a raise
				break;
			}
		}
		return null;
	}

	/**
	 * Returns how many items wait.
	 * @return the number of items
	 */
	int size() {
		return this.size;
	}

	private Level<K> level(int priority) {
		if (priority == Priority.NORMAL && this.normal != null) {
			return this.normal;
		}
		for (Level<K> level : this.levels) {
			if (level.priority == priority) {
				return level;
			}
		}
		Level<K> level = new Level<>(priority, this.fair);
		Level<K>[] levels = Arrays.copyOf(this.levels, this.levels.length + 1);
		levels[levels.length - 1] = level;
		Arrays.sort(levels, (a, b) -> Integer.compare(b.priority, a.priority));
		this.levels = levels;
		if (priority == Priority.NORMAL) {
			this.normal = level;
		}
		return level;
	}

	/**
	 * The items of one priority: one FIFO, or one FIFO per lane taking turns.
	 */
	private static final class Level<K> {

		private final int priority;

		/**
		 * The items without lanes.
		 */
		private final ArrayDeque<K> items;

		/**
		 * The items by lane, with lanes; only lanes that have items.
		 */
		private final Map<String, ArrayDeque<K>> lanes;

		/**
		 * The lanes that have items, the next to take its turn first.
		 */
		private final ArrayDeque<String> turns;

		Level(int priority, boolean fair) {
			this.priority = priority;
			this.items = fair ? null : new ArrayDeque<>();
			this.lanes = fair ? new HashMap<>() : null;
			this.turns = fair ? new ArrayDeque<>() : null;
		}

		void push(K item, String lane) {
			if (this.items != null) {
				this.items.addLast(item);
				return;
			}
			ArrayDeque<K> items = this.lanes.get(lane);
			if (items == null) {
				items = new ArrayDeque<>();
				this.lanes.put(lane, items);
				this.turns.addLast(lane);
			}
			else if (items.isEmpty()) {
				this.turns.addLast(lane);
			}
			items.addLast(item);
		}

		K poll() {
			if (this.items != null) {
				return this.items.pollFirst();
			}
			String lane = this.turns.pollFirst();
			ArrayDeque<K> items = this.lanes.get(lane);
			K item = items.pollFirst();
			if (items.isEmpty()) {
				// an empty lane is forgotten once it grows many, so that lanes
				// (namespaces) that come and go hold no memory
				if (this.lanes.size() > 64) {
					this.lanes.remove(lane);
				}
			}
			else {
				this.turns.addLast(lane);
			}
			return item;
		}

		boolean isEmpty() {
			return (this.items != null) ? this.items.isEmpty() : this.turns.isEmpty();
		}

	}

}
