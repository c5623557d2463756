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

import java.time.Duration;

/**
 * What a handler method may return to be called again later for the same key, as
 * controller-runtime's {@code reconcile.Result}. Returning a {@link Duration} does the
 * same.
 *
 * @param requeueAfter when to call again, or {@code null} not to
 * @author Kubeop authors
 */
public record Result(Duration requeueAfter) {

	private static final Result DONE = new Result(null);

	/**
	 * Returns a result that asks for nothing more.
	 * @return the result
	 */
	public static Result done() {
		return DONE;
	}

	/**
	 * Returns a result asking to be called again after a delay.
	 * @param delay the delay
	 * @return the result
	 */
	public static Result requeueAfter(Duration delay) {
		return new Result(delay);
	}

}
