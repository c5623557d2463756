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

import java.util.HashMap;
import java.util.Map;

import io.github.kubeop.queue.WaitingItems.Node;

/**
 * The nodes of the items a {@link DefaultWorkQueue} knows (waiting, being processed, or
 * both), found by item: a hash table whose chains run through the nodes themselves. A
 * {@code HashMap} from item to node would read an entry of its own on every lookup before
 * the node (a work queue looks an item up on every add, and that entry was a fifth of the
 * queue's CPU profile with priorities and fairness on), and allocate one for every item
 * the queue starts to know; here a lookup reads the table and the node, and knowing an
 * item allocates nothing but its node. Items are told apart by {@code equals}, as a map
 * would. Not thread-safe: the queue calls it under its lock.
 * <p>
 * Unlike a {@code HashMap}, the chains never turn into trees, so items whose hash codes
 * collide (valid object names collide easily: {@code "an"} and {@code "c0"} hash alike)
 * would make every lookup walk a long chain under the queue's lock. Once a chain grows
 * past {@value #MAX_CHAIN_LENGTH} nodes, the nodes therefore move for good to a
 * {@code HashMap}, whose tree bins keep lookups of colliding {@code Comparable} items
 * (names are strings) logarithmic; items that do not collide never pay for it.
 *
 * @param <K> the item type
 * @author Kubeop authors
 */
final class KnownItems<K> {

	private static final int INITIAL_CAPACITY = 64;

	/**
	 * Far beyond what chance gives at the table's load (a chain of 16 is about as likely
	 * as winning a lottery twice), so only colliding hash codes reach it.
	 */
	static final int MAX_CHAIN_LENGTH = 16;

	private Node<K>[] table = newTable(INITIAL_CAPACITY);

	private int size;

	/**
	 * Where all nodes are once a chain grew too long, {@code null} until then.
	 */
	private Map<K, Node<K>> fallback;

	/**
	 * Returns the node of an item.
	 * @param item the item
	 * @return its node, or {@code null} if the queue does not know the item
	 */
	Node<K> get(K item) {
		if (this.fallback != null) {
			return this.fallback.get(item);
		}
		int hash = hash(item);
		Node<K>[] table = this.table;
		for (Node<K> node = table[hash & (table.length - 1)]; node != null; node = node.nextKnown) {
			if (node.hash == hash && (node.item == item || node.item.equals(item))) {
				return node;
			}
		}
		return null;
	}

	/**
	 * Adds the node of an item the queue does not know.
	 * @param node the node
	 */
	void add(Node<K> node) {
		if (this.fallback != null) {
			node.hash = hash(node.item);
			this.fallback.put(node.item, node);
			this.size++;
			return;
		}
		if (this.size >= this.table.length - (this.table.length >>> 2)) {
			grow();
		}
		int hash = hash(node.item);
		node.hash = hash;
		int index = hash & (this.table.length - 1);
		int length = 0;
		for (Node<K> known = this.table[index]; known != null; known = known.nextKnown) {
			length++;
		}
		node.nextKnown = this.table[index];
		this.table[index] = node;
		this.size++;
		if (length >= MAX_CHAIN_LENGTH) {
			switchToFallback();
		}
	}

	/**
	 * Removes a known node.
	 * @param node the node
	 */
	void remove(Node<K> node) {
		if (this.fallback != null) {
			if (!this.fallback.remove(node.item, node)) {
				throw new IllegalStateException("node of " + node.item + " not known");
			}
			this.size--;
			return;
		}
		int index = node.hash & (this.table.length - 1);
		Node<K> previous = null;
		for (Node<K> known = this.table[index]; known != null; known = known.nextKnown) {
			if (known == node) {
				if (previous == null) {
					this.table[index] = node.nextKnown;
				}
				else {
					previous.nextKnown = node.nextKnown;
				}
				node.nextKnown = null;
				this.size--;
				return;
			}
			previous = known;
		}
		throw new IllegalStateException("node of " + node.item + " not known");
	}

	/**
	 * Returns how many items are known.
	 * @return the number of items
	 */
	int size() {
		return this.size;
	}

	/**
	 * Returns whether the nodes moved to the fallback map because hash codes collided.
	 * @return whether the fallback map is used
	 */
	boolean usesFallback() {
		return this.fallback != null;
	}

	private void switchToFallback() {
		Map<K, Node<K>> fallback = new HashMap<>(this.table.length);
		for (Node<K> first : this.table) {
			Node<K> node = first;
			while (node != null) {
				Node<K> next = node.nextKnown;
				node.nextKnown = null;
				fallback.put(node.item, node);
				node = next;
			}
		}
		this.fallback = fallback;
		this.table = null;
	}

	private void grow() {
		Node<K>[] old = this.table;
		Node<K>[] table = newTable(old.length * 2);
		for (Node<K> first : old) {
			Node<K> node = first;
			while (node != null) {
				Node<K> next = node.nextKnown;
				int index = node.hash & (table.length - 1);
				node.nextKnown = table[index];
				table[index] = node;
				node = next;
			}
		}
		this.table = table;
	}

	/**
	 * The item's hash code with its high bits spread to the low ones, as {@code HashMap}
	 * does, since the table is indexed by the low bits.
	 */
	private static int hash(Object item) {
		int hash = item.hashCode();
		return hash ^ (hash >>> 16);
	}

	@SuppressWarnings("unchecked")
	private static <K> Node<K>[] newTable(int capacity) {
		return (Node<K>[]) new Node<?>[capacity];
	}

}
