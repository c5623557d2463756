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

import java.util.ArrayList;
import java.util.List;

import io.github.kubeop.queue.WaitingItems.Lane;
import io.github.kubeop.queue.WaitingItems.Node;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KnownItems}: the queue's table of known items, including items whose
 * hash codes collide.
 *
 * @author Kubeop authors
 */
class KnownItemsTests {

	private final KnownItems<String> items = new KnownItems<>();

	private final Lane lane = new Lane("");

	@Test
	void itemsWithCollidingHashCodesAreAllFoundAddedAndRemovedAcrossTheSwitchToTheFallback() {
		List<String> names = collidingNames(12);
		assertThat(names).hasSize(4096);
		assertThat(names).extracting(String::hashCode).containsOnly(names.get(0).hashCode());
		List<Node<String>> nodes = new ArrayList<>();
		for (String name : names) {
			assertThat(this.items.get(copy(name))).isNull();
			Node<String> node = new Node<>(name, 0, this.lane);
			this.items.add(node);
			nodes.add(node);
		}
		assertThat(this.items.size()).isEqualTo(names.size());
		for (Node<String> node : nodes) {
			assertThat(this.items.get(copy(node.item))).as(node.item).isSameAs(node);
		}
		for (int i = 0; i < nodes.size(); i += 2) {
			this.items.remove(nodes.get(i));
		}
		assertThat(this.items.size()).isEqualTo(names.size() / 2);
		for (int i = 0; i < nodes.size(); i++) {
			Node<String> node = nodes.get(i);
			assertThat(this.items.get(copy(node.item))).as(node.item).isSameAs((i % 2 == 0) ? null : node);
		}
		for (int i = 0; i < nodes.size(); i += 2) {
			Node<String> node = new Node<>(names.get(i), 0, this.lane);
			this.items.add(node);
			nodes.set(i, node);
		}
		assertThat(this.items.size()).isEqualTo(names.size());
		for (Node<String> node : nodes) {
			assertThat(this.items.get(copy(node.item))).as(node.item).isSameAs(node);
			this.items.remove(node);
		}
		assertThat(this.items.size()).isZero();
	}

	@Test
	void collidingHashCodesSwitchToTheFallbackButSpreadOnesDoNot() {
		for (int i = 0; i < 10_000; i++) {
			this.items.add(new Node<>("default/object-" + i, 0, this.lane));
		}
		assertThat(this.items.usesFallback()).isFalse();
		List<String> names = collidingNames(5);
		for (String name : names.subList(0, KnownItems.MAX_CHAIN_LENGTH)) {
			this.items.add(new Node<>(name, 0, this.lane));
		}
		assertThat(this.items.usesFallback()).isFalse();
		this.items.add(new Node<>(names.get(KnownItems.MAX_CHAIN_LENGTH), 0, this.lane));
		assertThat(this.items.usesFallback()).isTrue();
		assertThat(this.items.size()).isEqualTo(10_000 + KnownItems.MAX_CHAIN_LENGTH + 1);
		assertThat(this.items.get("default/object-9999")).isNotNull();
	}

	/**
	 * Valid object names whose {@code String} hash codes are all equal: "an" and "c0"
	 * contribute alike, so every sequence of them hashes the same.
	 */
	static List<String> collidingNames(int pairs) {
		List<String> names = new ArrayList<>();
		for (int bits = 0; bits < (1 << pairs); bits++) {
			StringBuilder name = new StringBuilder("ns/");
			for (int pair = 0; pair < pairs; pair++) {
				name.append(((bits & (1 << pair)) != 0) ? "an" : "c0");
			}
			names.add(name.append("-x").toString());
		}
		return names;
	}

	/**
	 * An equal item that is not the same instance, as keys from events are.
	 */
	private static String copy(String item) {
		return new String(item.toCharArray());
	}

}
