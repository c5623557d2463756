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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The items of a {@link DefaultWorkQueue} that wait for a worker, by priority and, with
 * fairness on, by lane. The highest priority that has items is served first; within one
 * priority, the lanes that have items take turns, one item each, and each lane is FIFO.
 * So priorities hold across lanes, and a lane with 10,000 waiting items delays another
 * lane's one item by at most one item per worker.
 * <p>
 * An item whose priority is raised is placed again at the higher priority; its earlier
 * place is left where it is and skipped when reached (a place is cheap, a search through
 * a long lane is not). Not thread-safe: the queue calls it under its lock.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
final class WaitingItems<K> {

	/**
	 * Whether items take turns by lane.
	 */
	private final boolean fair;

	private final TreeMap<Integer, Level<K>> levels = new TreeMap<>();

	/**
	 * The places left behind by raised items, by item: the priorities they were at. Empty
	 * unless priorities were raised, so the common path pays one {@code isEmpty()}.
	 */
	private final Map<K, List<Integer>> leftBehind = new HashMap<>();

	/**
	 * The level of {@link Priority#NORMAL}, kept at hand: most items go there.
	 */
	private Level<K> normal;

	private int size;

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
	}

	/**
	 * Places a waiting item again at a higher priority.
	 * @param item the item
	 * @param from the priority it waits at
	 * @param to the higher priority
	 * @param lane its lane, ignored without fairness
	 */
	void raise(K item, int from, int to, String lane) {
		this.leftBehind.computeIfAbsent(item, (k) -> new ArrayList<>(1)).add(from);
		level(to).push(item, lane);
	}

	/**
	 * Takes the next item: the highest priority's, the next lane's turn.
	 * @return the item, or {@code null} if none waits
	 */
	K poll() {
		while (this.size > 0) {
			Map.Entry<Integer, Level<K>> highest = this.levels.lastEntry();
			Level<K> level = highest.getValue();
			K item = level.poll();
			if (level.isEmpty()) {
				this.levels.remove(highest.getKey());
				if (level == this.normal) {
					this.normal = null;
				}
			}
			if (!wasLeftBehind(item, level.priority)) {
				this.size--;
				return item;
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

	/**
	 * Drops every waiting item.
	 */
	void clear() {
		this.levels.clear();
		this.leftBehind.clear();
		this.normal = null;
		this.size = 0;
	}

	private boolean wasLeftBehind(K item, int priority) {
		if (this.leftBehind.isEmpty()) {
			return false;
		}
		List<Integer> places = this.leftBehind.get(item);
		if (places == null || !places.remove((Integer) priority)) {
			return false;
		}
		if (places.isEmpty()) {
			this.leftBehind.remove(item);
		}
		return true;
	}

	private Level<K> level(int priority) {
		if (priority == Priority.NORMAL && this.normal != null) {
			return this.normal;
		}
		Level<K> level = this.levels.computeIfAbsent(priority, (p) -> new Level<>(p, this.fair));
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
				// a lane without items is forgotten, so that lanes (namespaces) that come
				// and go hold no memory
				this.lanes.remove(lane);
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
