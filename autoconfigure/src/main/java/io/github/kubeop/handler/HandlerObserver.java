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

package io.github.kubeop.handler;

/**
 * Told of every handler call, for metrics. A call is a call of the handler's methods: a
 * key handled without one (a change the handler has no method for, a delete only
 * forgotten) is no call. Implementations must be fast and thread-safe.
 *
 * @author Kubeop authors
 */
public interface HandlerObserver {

	/**
	 * An observer that does nothing.
	 */
	HandlerObserver NONE = new HandlerObserver() {
	};

	/**
	 * How a call ended, as controller-runtime's {@code result} label says.
	 */
	enum Outcome {

		/**
		 * The call succeeded.
		 */
		SUCCESS,

		/**
		 * The call failed and will be retried.
		 */
		ERROR,

		/**
		 * The call failed for good.
		 */
		TERMINAL_ERROR,

		/**
		 * The call succeeded and asked to be called again without a delay, which is
		 * rate-limited as a retry is.
		 */
		REQUEUE,

		/**
		 * The call succeeded and asked to be called again later.
		 */
		REQUEUE_AFTER

	}

	/**
	 * A call ended.
	 * @param handler the handler name
	 * @param outcome how it ended
	 * @param nanos how long it took
	 */
	default void handled(String handler, Outcome outcome, long nanos) {
	}

	/**
	 * A worker took a key.
	 * @param handler the handler name
	 */
	default void workerStarted(String handler) {
	}

	/**
	 * A worker finished a key.
	 * @param handler the handler name
	 */
	default void workerFinished(String handler) {
	}

}
