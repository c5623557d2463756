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

/**
 * What an informer's connection to the API server is doing.
 *
 * @author Kubeop authors
 */
public enum WatchState {

	/**
	 * Not started, or stopped.
	 */
	STOPPED,

	/**
	 * Listing: the initial list, or a relist after a watch could not resume.
	 */
	LISTING,

	/**
	 * Watching: events arrive as they happen.
	 */
	WATCHING,

	/**
	 * The last list or watch failed; the informer retries with back-off.
	 */
	RECONNECTING

}
