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
	 * least of three readings, each after a collection.
	 * @return retained bytes
	 * @throws InterruptedException if interrupted between collections
	 */
	static long retained() throws InterruptedException {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			memory.gc();
			Thread.sleep(100);
			least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
		}
		return least;
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
