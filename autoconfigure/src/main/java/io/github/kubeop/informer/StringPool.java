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

package io.github.kubeop.informer;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The pool that {@link StringDeduplication} keeps one instance of each repeated string
 * in: shared by every informer, safe for concurrent use, and holding its strings weakly,
 * so that a string no cached object uses any more is collected and churn does not grow
 * it.
 * <p>
 * It takes the place of the JVM's string table ({@link String#intern()}), which promises
 * the same but costs several times more per string: a call into the VM and a lookup in a
 * table made for the JVM's own strings. This pool is a hash table split into segments: a
 * lookup reads the segment's table without a lock (its chains are never changed in place:
 * an entry is added at the head of a chain, a chain without its collected strings is
 * built anew), and only a string that is not in the pool takes the segment's lock, looks
 * again and adds it. A pooled string costs an entry (a weak reference with its hash and
 * the next entry, about 40 bytes) and a slot of the table; entries whose strings were
 * collected are dropped when their segment's table fills up, before it grows.
 *
 * @author Kubeop authors
 */
final class StringPool {

	private static final int SEGMENT_BITS = 6;

	private static final int INITIAL_CAPACITY = 64;

	private static final Segment[] segments = new Segment[1 << SEGMENT_BITS];

	static {
		for (int i = 0; i < segments.length; i++) {
			segments[i] = new Segment();
		}
	}

	private StringPool() {
	}

	/**
	 * Returns the pooled instance of a string: the one added first among those equal to
	 * it that are still in use, or the string itself, then pooled.
	 * @param value the string
	 * @return the pooled instance, equal to the string
	 */
	static String pooled(String value) {
		int hash = spread(value.hashCode());
		Segment segment = segments[hash >>> (Integer.SIZE - SEGMENT_BITS)];
		Entry[] table = segment.table;
		for (Entry entry = table[hash & (table.length - 1)]; entry != null; entry = entry.next) {
			if (entry.hash == hash) {
				String pooled = entry.get();
				if (pooled != null && pooled.equals(value)) {
					return pooled;
				}
			}
		}
		// not found, or an entry that another thread is adding was not seen yet
		return segment.add(value, hash);
	}

	/**
	 * Returns the pooled instance of the string that UTF-8 bytes hold, as
	 * {@link #pooled(String)} does, without making a string of them when it is pooled
	 * already (ASCII text: others are made a string and pooled as such).
	 * @param bytes the bytes
	 * @param offset where the string starts
	 * @param length how many bytes it has
	 * @return the pooled instance
	 */
	static String pooled(byte[] bytes, int offset, int length) {
		// The hash, the comparison and spread are written out here on purpose: with them
		// this method is larger than the JIT inlines into a hot caller (C2 inlines up to
		// 325 bytes of bytecode there; StringPoolTests checks it has more), so it is
		// compiled on its own.
		// Its one speculation that fails in every long run (a pooled string collected,
		// so an entry's referent is null, which no profile saw before the first GC) then
		// recompiles this method alone rather than the decoder's largest method, which
		// took a fresh JVM's C2 about 0.25 s each time.
		Objects.checkFromIndexSize(offset, length, bytes.length);
		if (length == 0) {
			// protobuf writes the empty strings of value fields
			return "";
		}
		// String.hashCode() of ASCII text, four bytes a step: h * 31^4 + b0 * 31^3 + b1 *
		// 31^2 + b2 * 31 + b3 is the same sum as four steps of h * 31 + b, with one
		// multiplication on the chain that each step waits for rather than four
		int end = offset + length;
		int stringHash = 0;
		int bits = 0;
		int i = offset;
		for (; i + 3 < end; i += 4) {
			int b0 = bytes[i];
			int b1 = bytes[i + 1];
			int b2 = bytes[i + 2];
			int b3 = bytes[i + 3];
			bits |= b0 | b1 | b2 | b3;
			stringHash = 923521 * stringHash + 29791 * b0 + 961 * b1 + 31 * b2 + b3;
		}
		for (; i < end; i++) {
			int b = bytes[i];
			bits |= b;
			stringHash = 31 * stringHash + b;
		}
		if (bits < 0) {
			// a byte that is not ASCII is negative, and so is the or of all of them
			return pooled(new String(bytes, offset, length, StandardCharsets.UTF_8));
		}
		// spread, written out too
		int mixed = stringHash * 0x9E3779B9;
		int hash = mixed ^ (mixed >>> 16);
		Segment segment = segments[hash >>> (Integer.SIZE - SEGMENT_BITS)];
		Entry[] table = segment.table;
		for (Entry entry = table[hash & (table.length - 1)]; entry != null; entry = entry.next) {
			if (entry.hash == hash) {
				String pooled = entry.get();
				if (pooled != null && pooled.length() == length) {
					int at = 0;
					while (at < length && pooled.charAt(at) == bytes[offset + at]) {
						at++;
					}
					if (at == length) {
						return pooled;
					}
				}
			}
		}
		return segment.add(new String(bytes, offset, length, StandardCharsets.ISO_8859_1), hash);
	}

	/**
	 * Returns how many strings the pool holds entries for, some of which may have been
	 * collected.
	 * @return the number of entries
	 */
	static int size() {
		int size = 0;
		for (Segment segment : segments) {
			synchronized (segment) {
				size += segment.count;
			}
		}
		return size;
	}

	/**
	 * Mixes the hash's bits, as the segment is chosen by its highest bits and the slot by
	 * its lowest, and {@link String#hashCode()} of short strings leaves the highest ones
	 * alike.
	 */
	private static int spread(int hash) {
		int mixed = hash * 0x9E3779B9;
		return mixed ^ (mixed >>> 16);
	}

	/**
	 * One segment of the pool: a hash table whose chains are immutable, changed under the
	 * segment's lock.
	 */
	private static final class Segment {

		private volatile Entry[] table = new Entry[INITIAL_CAPACITY];

		private int count;

		synchronized String add(String value, int hash) {
			Entry[] table = this.table;
			int slot = hash & (table.length - 1);
			Entry head = table[slot];
			for (Entry entry = head; entry != null; entry = entry.next) {
				if (entry.hash == hash) {
					String pooled = entry.get();
					if (pooled != null && pooled.equals(value)) {
						return pooled;
					}
				}
			}
			if (this.count >= table.length - (table.length >>> 2)) {
				table = rebuild(table);
				slot = hash & (table.length - 1);
				head = table[slot];
			}
			table[slot] = new Entry(value, hash, head);
			this.count++;
			return value;
		}

		/**
		 * Builds the table anew without the entries whose strings were collected, twice
		 * as large if more than half of it is still in use.
		 */
		private Entry[] rebuild(Entry[] table) {
			int live = 0;
			for (Entry head : table) {
				for (Entry entry = head; entry != null; entry = entry.next) {
					if (!entry.refersTo(null)) {
						live++;
					}
				}
			}
			int capacity = (live >= table.length >>> 1) ? table.length << 1 : table.length;
			Entry[] rebuilt = new Entry[capacity];
			int count = 0;
			for (Entry head : table) {
				for (Entry entry = head; entry != null; entry = entry.next) {
					String value = entry.get();
					if (value != null) {
						int slot = entry.hash & (capacity - 1);
						rebuilt[slot] = new Entry(value, entry.hash, rebuilt[slot]);
						count++;
					}
				}
			}
			this.count = count;
			this.table = rebuilt;
			return rebuilt;
		}

	}

	/**
	 * A pooled string, held weakly, with its hash and the next entry of its chain.
	 */
	private static final class Entry extends WeakReference<String> {

		private final int hash;

		private final Entry next;

		Entry(String value, int hash, Entry next) {
			super(value);
			this.hash = hash;
			this.next = next;
		}

	}

}
