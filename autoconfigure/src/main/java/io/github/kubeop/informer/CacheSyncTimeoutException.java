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
import java.util.List;

/**
 * Thrown when informers have not synced within the configured time.
 *
 * @author Kubeop authors
 */
public class CacheSyncTimeoutException extends InformerException {

	private final Duration timeout;

	private final List<String> pending;

	/**
	 * Creates a new instance.
	 * @param timeout how long was waited
	 * @param pending the informers that did not sync, each with why
	 */
	public CacheSyncTimeoutException(Duration timeout, List<String> pending) {
		super("Informers did not sync within " + timeout.toSeconds() + " s: " + String.join("; ", pending), null);
		this.timeout = timeout;
		this.pending = List.copyOf(pending);
	}

	/**
	 * Returns how long was waited.
	 * @return the timeout
	 */
	public Duration getTimeout() {
		return this.timeout;
	}

	/**
	 * Returns the informers that did not sync, each with why.
	 * @return the pending informers
	 */
	public List<String> getPending() {
		return this.pending;
	}

}
