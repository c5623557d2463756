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

package io.github.kubeop.reliability;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;

/**
 * What the heap retains, for the reliability tests that bound memory.
 *
 * @author Kubeop authors
 */
final class Heap {

	private Heap() {
	}

	/**
	 * Returns the heap in use after full collections, that is, what is retained: the
	 * least of three readings. Each reading is the heap the collection itself left, as
	 * the collector reports it, not the heap in use some time after it returned: threads
	 * that allocate meanwhile (a relist reading its pages on a loaded machine allocates
	 * tens of megabytes a second) would count their garbage as retained.
	 * @return retained bytes
	 * @throws InterruptedException if interrupted between collections
	 */
	static long retained() throws InterruptedException {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			Map<GarbageCollectorMXBean, Long> counts = new HashMap<>();
			collectors().forEach((collector) -> counts.put(collector, collector.getCollectionCount()));
			memory.gc();
			least = Math.min(least,
					leftByFullCollection(counts).orElseGet(() -> memory.getHeapMemoryUsage().getUsed()));
			Thread.sleep(20);
		}
		return least;
	}

	/**
	 * Returns the heap that the full collection {@code System.gc()} just ran left, from
	 * the collector that collects the old generation (G1's "G1 Old Generation", Serial's
	 * "MarkSweepCompact", Parallel's "PS MarkSweep"), if it ran.
	 */
	private static Optional<Long> leftByFullCollection(Map<GarbageCollectorMXBean, Long> countsBefore) {
		for (GarbageCollectorMXBean collector : collectors()) {
			boolean full = collector.getName().contains("Old") || collector.getName().contains("MarkSweep");
			if (full && collector.getCollectionCount() > countsBefore.getOrDefault(collector, 0L)) {
				GcInfo info = collector.getLastGcInfo();
				if (info != null) {
					long used = 0;
					for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
						MemoryUsage after = (pool.getType() == MemoryType.HEAP)
								? info.getMemoryUsageAfterGc().get(pool.getName()) : null;
						used += (after != null) ? after.getUsed() : 0;
					}
					return Optional.of(used);
				}
			}
		}
		return Optional.empty();
	}

	private static List<GarbageCollectorMXBean> collectors() {
		return ManagementFactory.getPlatformMXBeans(GarbageCollectorMXBean.class);
	}

	/**
	 * Formats a byte count as signed megabytes.
	 * @param bytes the byte count
	 * @return for example {@code +1.5 MB}
	 */
	static String signedMegabytes(long bytes) {
		return String.format("%+.1f MB", bytes / (1024.0 * 1024.0));
	}

}
