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

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential back-off with jitter for reconnecting to the API server, as client-go's
 * reflector does: 800 ms doubling to 30 s, each delay stretched by up to 100% at random
 * so that many informers do not reconnect in lockstep.
 *
 * @author Kubeop authors
 */
final class Backoff {

	private final Duration initial;

	private final Duration max;

	private Duration current;

	Backoff(Duration initial, Duration max) {
		this.initial = initial;
		this.max = max;
		this.current = initial;
	}

	Duration next() {
		Duration base = this.current;
		Duration doubled = this.current.multipliedBy(2);
		this.current = (doubled.compareTo(this.max) > 0) ? this.max : doubled;
		long jitter = (long) (base.toMillis() * ThreadLocalRandom.current().nextDouble());
		return base.plusMillis(jitter);
	}

	void reset() {
		this.current = this.initial;
	}

}
