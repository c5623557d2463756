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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * A consistent-hash ring over the members of a shard group: every member stands on the
 * ring at many points (virtual nodes), and a key belongs to the member at the first point
 * at or after the key's hash. When a member joins or leaves, only the keys between its
 * points and their predecessors move, about one in N.
 *
 * @author Kubeop authors
 */
public final class HashRing {

	private final List<String> members;

	private final long[] points;

	private final String[] owners;

	private HashRing(List<String> members, int virtualNodes) {
		this.members = members;
		int size = members.size() * virtualNodes;
		long[] points = new long[size];
		String[] owners = new String[size];
		Integer[] order = new Integer[size];
		for (int m = 0; m < members.size(); m++) {
			for (int v = 0; v < virtualNodes; v++) {
				int i = m * virtualNodes + v;
				points[i] = hash(members.get(m) + "#" + v);
				owners[i] = members.get(m);
				order[i] = i;
			}
		}
		// ties (never seen in practice) go to the member that sorts first, on every
		// replica
		Arrays.sort(order, (a, b) -> (points[a] != points[b]) ? Long.compare(points[a], points[b])
				: owners[a].compareTo(owners[b]));
		this.points = new long[size];
		this.owners = new String[size];
		for (int i = 0; i < size; i++) {
			this.points[i] = points[order[i]];
			this.owners[i] = owners[order[i]];
		}
	}

	/**
	 * Builds the ring of the given members.
	 * @param members the member identities; order and duplicates do not matter
	 * @param virtualNodes how many points each member stands on
	 * @return the ring
	 */
	public static HashRing of(Collection<String> members, int virtualNodes) {
		if (virtualNodes < 1) {
			throw new IllegalArgumentException("virtualNodes must be at least 1");
		}
		return new HashRing(List.copyOf(new TreeSet<>(members)), virtualNodes);
	}

	/**
	 * Returns the members, sorted.
	 * @return the members
	 */
	public List<String> members() {
		return this.members;
	}

	/**
	 * Returns the member a key belongs to.
	 * @param key the key, such as {@code namespace/name}
	 * @return the member, or {@code null} for a ring without members
	 */
	public String owner(String key) {
		if (this.points.length == 0) {
			return null;
		}
		long hash = hash(key);
		int low = 0;
		int high = this.points.length;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (this.points[mid] < hash) {
				low = mid + 1;
			}
			else {
				high = mid;
			}
		}
		return this.owners[(low == this.points.length) ? 0 : low];
	}

	/**
	 * Returns whether a key belongs to a member.
	 * @param key the key
	 * @param member the member
	 * @return whether the member owns the key
	 */
	public boolean owns(String member, String key) {
		return member.equals(owner(key));
	}

	@Override
	public String toString() {
		return "HashRing" + this.members;
	}

	/**
	 * 64-bit FNV-1a with a final avalanche (murmur3's fmix64): stable across JVMs and
	 * releases, which String.hashCode is not promised to be, and spread evenly.
	 */
	static long hash(String value) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
			hash ^= (b & 0xff);
			hash *= 0x100000001b3L;
		}
		hash ^= hash >>> 33;
		hash *= 0xff51afd7ed558ccdL;
		hash ^= hash >>> 33;
		hash *= 0xc4ceb9fe1a85ec53L;
		hash ^= hash >>> 33;
		return hash;
	}

}
