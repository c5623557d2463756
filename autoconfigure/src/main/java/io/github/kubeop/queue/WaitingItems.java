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

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The items of a {@link DefaultWorkQueue} that wait for a worker, by priority and, with
 * fairness on, by lane. The highest priority that has items is served first; within one
 * priority, the lanes that have items take turns, one item each, and each lane is FIFO.
 * So priorities hold across lanes, and a lane with 10,000 waiting items delays another
 * lane's one item by at most one item per worker.
 * <p>
 * Every item the queue knows (waiting, or being processed) has one {@link Node}, which
 * remembers its priority and its lane, and links it into the list of its lane at its
 * priority while it waits: placing, raising (unlink, link at the end of the higher
 * priority's list) and taking are constant time, with no lookup by item and no allocation
 * once an item's node and its lane's list exist. Without fairness there is one lane. Not
 * thread-safe: the queue calls it under its lock.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
final class WaitingItems<K> {

	private static final Level[] NO_LEVELS = {};

	/**
	 * The lane of an item, or {@code null} for one lane.
	 */
	private final Function<? super K, String> laneOf;

	/**
	 * The one lane without fairness.
	 */
	private final Lane onlyLane;

	/**
	 * The lanes by name, with fairness.
	 */
	private final Map<String, Lane> lanes;

	/**
	 * The levels, highest priority first; a level stays once created (there are as many
	 * as priorities used, a handful).
	 */
	private Level[] levels = NO_LEVELS;

	/**
	 * The level of {@link Priority#NORMAL}, kept at hand: most items go there.
	 */
	private Level normal;

	/**
	 * The level found last other than {@link #normal}, kept at hand: with priorities
	 * mixed, most other items go to one other level.
	 */
	private Level recent;

	/**
	 * Items waiting.
	 */
	private int size;

	WaitingItems(Function<? super K, String> laneOf) {
		this.laneOf = laneOf;
		this.onlyLane = (laneOf != null) ? null : new Lane("");
		this.lanes = (laneOf != null) ? new HashMap<>() : null;
	}

	/**
	 * Creates the node of an item the queue does not know yet, finding its lane: an
	 * item's lane is found once, when the queue starts to know it, and kept until it is
	 * done with nothing more to do.
	 * @param item the item
	 * @param priority its priority
	 * @return the node, not placed yet
	 */
	Node<K> node(K item, int priority) {
		Lane lane = this.onlyLane;
		if (lane == null) {
			String name = this.laneOf.apply(item);
			if (name == null) {
				name = "";
			}
			lane = this.lanes.get(name);
			if (lane == null) {
				lane = new Lane(name);
				this.lanes.put(name, lane);
			}
		}
		lane.nodes++;
		return new Node<>(item, priority, lane);
	}

	/**
	 * Forgets a node the queue no longer knows (done with nothing more to do). An empty
	 * lane is forgotten once lanes grow many, so that lanes (namespaces) that come and go
	 * hold no memory; a lane is never forgotten while a node refers to it, so two lanes
	 * never have one name.
	 * @param node the node, not waiting
	 */
	void release(Node<K> node) {
		Lane lane = node.lane;
		if (--lane.nodes == 0 && this.lanes != null && this.lanes.size() > 64) {
			this.lanes.remove(lane.name);
		}
	}

	/**
	 * Places a node that does not wait, at the end of its lane at its priority.
	 * @param node the node
	 */
	void push(Node<K> node) {
		Level level = level(node.priority);
		Places<K> places = node.lane.places(level, this.levels.length);
		if (places.last == null) {
			places.first = node;
			level.join(places);
		}
		else {
			places.last.next = node;
			node.previous = places.last;
		}
		places.last = node;
		node.places = places;
		level.size++;
		this.size++;
	}

	/**
	 * Places a waiting node again, at the end of its lane at a higher priority.
	 * @param node the waiting node
	 * @param to the higher priority
	 */
	void raise(Node<K> node, int to) {
		unlink(node);
		node.priority = to;
		push(node);
	}

	/**
	 * Takes the next node: the highest priority's, the next lane's turn.
	 * @return the node, or {@code null} if none waits
	 */
	Node<K> poll() {
		if (this.size == 0) {
			return null;
		}
		for (Level level : this.levels) {
			if (level.size > 0) {
				@SuppressWarnings("unchecked")
				Places<K> places = level.turn;
				Node<K> node = places.first;
				// the lane's turn passes to the next lane whether or not it has more
				level.turn = places.nextTurn;
				unlink(node);
				return node;
			}
		}
		throw new IllegalStateException("waiting items counted but not found");
	}

	/**
	 * Returns how many items wait.
	 * @return the number of items
	 */
	int size() {
		return this.size;
	}

	private void unlink(Node<K> node) {
		Places<K> places = node.places;
		Node<K> previous = node.previous;
		Node<K> next = node.next;
		if (previous == null) {
			places.first = next;
		}
		else {
			previous.next = next;
		}
		if (next == null) {
			places.last = previous;
		}
		else {
			next.previous = previous;
		}
		node.previous = null;
		node.next = null;
		node.places = null;
		Level level = places.level;
		if (places.first == null) {
			level.leave(places);
		}
		level.size--;
		this.size--;
	}

	private Level level(int priority) {
		if (priority == Priority.NORMAL && this.normal != null) {
			return this.normal;
		}
		Level recent = this.recent;
		if (recent != null && recent.priority == priority) {
			return recent;
		}
		for (Level level : this.levels) {
			if (level.priority == priority) {
				this.recent = level;
				return level;
			}
		}
		// ids stay as levels are added, so that a lane's places can be indexed by them
		Level level = new Level(priority, this.levels.length);
		Level[] levels = Arrays.copyOf(this.levels, this.levels.length + 1);
		levels[levels.length - 1] = level;
		Arrays.sort(levels, (a, b) -> Integer.compare(b.priority, a.priority));
		this.levels = levels;
		if (priority == Priority.NORMAL) {
			this.normal = level;
		}
		return level;
	}

	/**
	 * An item the queue knows: waiting, being processed, or both (added again while
	 * processed). The queue keeps its state; the links belong to {@link WaitingItems}.
	 *
	 * @param <K> the item type
	 */
	static final class Node<K> {

		final K item;

		final Lane lane;

		/**
		 * The priority it waits at, or will wait at when it is done if it was added again
		 * while processed.
		 */
		int priority;

		/**
		 * Whether it needs processing (waiting, or added again while processed).
		 */
		boolean dirty;

		/**
		 * Whether a worker processes it.
		 */
		boolean processing;

		/**
		 * The priority it was taken at, while processed.
		 */
		int takenPriority;

		/**
		 * When it was added (with metrics only).
		 */
		long addedAt;

		/**
		 * When a worker took it (with metrics only).
		 */
		long started;

		/**
		 * The list it waits in, {@code null} while it does not wait.
		 */
		Places<K> places;

		/**
		 * Its neighbours in the list it waits in, or in the queue's list of items being
		 * processed.
		 */
		Node<K> previous;

		Node<K> next;

		/**
		 * The item's spread hash code, and the next node in its chain of the queue's
		 * {@link KnownItems}.
		 */
		int hash;

		Node<K> nextKnown;

		Node(K item, int priority, Lane lane) {
			this.item = item;
			this.priority = priority;
			this.lane = lane;
		}

	}

	/**
	 * A lane: its lists of waiting items, one per level, indexed by the level's id.
	 */
	static final class Lane {

		@SuppressWarnings("rawtypes")
		private static final Places[] NO_PLACES = {};

		final String name;

		/**
		 * The nodes that refer to this lane.
		 */
		int nodes;

		@SuppressWarnings("rawtypes")
		private Places[] byLevel = NO_PLACES;

		Lane(String name) {
			this.name = name;
		}

		@SuppressWarnings("unchecked")
		<K> Places<K> places(Level level, int levels) {
			Places<K>[] byLevel = this.byLevel;
			if (level.id >= byLevel.length) {
				byLevel = Arrays.copyOf(byLevel, levels);
				this.byLevel = byLevel;
			}
			Places<K> places = byLevel[level.id];
			if (places == null) {
				places = new Places<>(level);
				byLevel[level.id] = places;
			}
			return places;
		}

	}

	/**
	 * The waiting items of one lane at one level, first in first out; while it has items,
	 * it is in its level's ring of turns.
	 *
	 * @param <K> the item type
	 */
	static final class Places<K> {

		final Level level;

		Node<K> first;

		Node<K> last;

		@SuppressWarnings("rawtypes")
		Places previousTurn;

		@SuppressWarnings("rawtypes")
		Places nextTurn;

		Places(Level level) {
			this.level = level;
		}

	}

	/**
	 * The items of one priority: the lanes that have items, in a ring of turns.
	 */
	static final class Level {

		final int priority;

		/**
		 * The level's index into a lane's lists, fixed when the level is created.
		 */
		final int id;

		/**
		 * The items waiting at this level.
		 */
		int size;

		/**
		 * The lane whose turn is next, {@code null} if none has items.
		 */
		@SuppressWarnings("rawtypes")
		Places turn;

		Level(int priority, int id) {
			this.priority = priority;
			this.id = id;
		}

		/**
		 * A lane that had no items here has one: it takes its turn after every lane that
		 * has items already.
		 */
		@SuppressWarnings({ "rawtypes", "unchecked" })
		void join(Places places) {
			Places turn = this.turn;
			if (turn == null) {
				places.previousTurn = places;
				places.nextTurn = places;
				this.turn = places;
			}
			else {
				Places last = turn.previousTurn;
				last.nextTurn = places;
				places.previousTurn = last;
				places.nextTurn = turn;
				turn.previousTurn = places;
			}
		}

		/**
		 * A lane has no items here any more.
		 */
		@SuppressWarnings("rawtypes")
		void leave(Places places) {
			if (places.nextTurn == places) {
				this.turn = null;
			}
			else {
				places.previousTurn.nextTurn = places.nextTurn;
				places.nextTurn.previousTurn = places.previousTurn;
				if (this.turn == places) {
					this.turn = places.nextTurn;
				}
			}
			places.previousTurn = null;
			places.nextTurn = null;
		}

	}

}
