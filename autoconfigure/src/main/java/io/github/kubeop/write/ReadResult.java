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

package io.github.kubeop.write;

/**
 * An object read by {@link KubernetesTemplate#read}, with where it was read from.
 *
 * @param <T> the object type
 * @param object the object, or {@code null} if it does not exist
 * @param source where it was read
 * @author Kubeop authors
 */
public record ReadResult<T>(T object, Source source) {

	/**
	 * Returns whether the object exists.
	 * @return whether it was found
	 */
	public boolean exists() {
		return this.object != null;
	}

	/**
	 * Where a read was answered from.
	 */
	public enum Source {

		/**
		 * An informer's cache, which holds the object (or, for an object that does not
		 * exist, holds every object of its resource and namespace) and has caught up with
		 * this process's writes of it.
		 */
		CACHE,

		/**
		 * A request to the API server: no informer caches the object, or the one that
		 * does has not caught up with a write of it yet, or selects by labels and does
		 * not hold it.
		 */
		API_SERVER

	}

}
