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

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HashRing}.
 *
 * @author Kubeop authors
 */
class HashRingTests {

	private static final int KEYS = 30_000;

	@Test
	void spreadsKeysEvenlyOverTheMembers() {
		HashRing ring = HashRing.of(List.of("a", "b", "c"), 128);
		Map<String, Integer> counts = count(ring);
		assertThat(counts).containsOnlyKeys("a", "b", "c");
		counts.values().forEach((count) -> assertThat(count).isBetween(KEYS * 27 / 100, KEYS * 40 / 100));
	}

	@Test
	void aJoiningMemberTakesAboutItsShareAndOnlyFromOthers() {
		HashRing before = HashRing.of(List.of("a", "b", "c"), 128);
		HashRing after = HashRing.of(List.of("a", "b", "c", "d"), 128);
		int moved = 0;
		for (int i = 0; i < KEYS; i++) {
			String key = key(i);
			if (!before.owner(key).equals(after.owner(key))) {
				assertThat(after.owner(key)).as("new owner of a moved key").isEqualTo("d");
				moved++;
			}
		}
		assertThat(moved).isBetween(KEYS * 20 / 100, KEYS * 30 / 100);
	}

	@Test
	void aLeavingMemberGivesAwayOnlyItsOwnKeys() {
		HashRing before = HashRing.of(List.of("a", "b", "c"), 128);
		HashRing after = HashRing.of(List.of("a", "c"), 128);
		for (int i = 0; i < KEYS; i++) {
			String key = key(i);
			if (!before.owner(key).equals("b")) {
				assertThat(after.owner(key)).as("owner of %s", key).isEqualTo(before.owner(key));
			}
		}
	}

	@Test
	void everyReplicaComputesTheSameOwnersWhateverTheOrderOfMembers() {
		HashRing one = HashRing.of(List.of("c", "a", "b"), 64);
		HashRing other = HashRing.of(List.of("b", "c", "a", "a"), 64);
		for (int i = 0; i < 1000; i++) {
			assertThat(one.owner(key(i))).isEqualTo(other.owner(key(i)));
		}
		assertThat(one.members()).containsExactly("a", "b", "c");
	}

	@Test
	void aRingWithoutMembersOwnsNothing() {
		assertThat(HashRing.of(List.of(), 8).owner("ns/name")).isNull();
	}

	private static Map<String, Integer> count(HashRing ring) {
		Map<String, Integer> counts = new HashMap<>();
		for (int i = 0; i < KEYS; i++) {
			counts.merge(ring.owner(key(i)), 1, Integer::sum);
		}
		return counts;
	}

	private static String key(int i) {
		return "namespace-" + (i % 7) + "/object-" + i;
	}

}
