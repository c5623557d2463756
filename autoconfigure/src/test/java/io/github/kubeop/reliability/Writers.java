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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes to the API server from 8 threads, as fast as it takes them, for the load and
 * churn tests.
 *
 * @author Kubeop authors
 */
final class Writers {

	private Writers() {
	}

	/**
	 * Makes {@code count} writes, 8 at a time, and waits for all of them.
	 * @param count how many writes
	 * @param write the write of one index
	 * @return the number of writes made
	 * @throws Exception the first write's failure
	 */
	static int parallel(int count, Write write) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				int index = i;
				futures.add(executor.submit(() -> {
					write.apply(index);
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
			return count;
		}
		finally {
			executor.shutdown();
		}
	}

	/**
	 * One write.
	 */
	@FunctionalInterface
	interface Write {

		void apply(int index) throws Exception;

	}

}
