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
 * What a handler method may want to know about the call besides the object: the key, why
 * it is called, and the how-manieth attempt this is. Declare a parameter of this type to
 * receive it.
 *
 * @param key the key, {@code namespace/name} or {@code name} for cluster-scoped objects
 * @param trigger why the method is called
 * @param attempt 1 for the first attempt, 2 for the first retry after a failure, and so
 * on
 * @param handler the name of the handler (its queue and workers)
 * @author Kubeop authors
 */
public record HandlerContext(String key, Trigger trigger, int attempt, String handler) {

	/**
	 * Returns the namespace part of the key.
	 * @return the namespace, or {@code null} for cluster-scoped objects
	 */
	public String namespace() {
		int slash = this.key.indexOf('/');
		return (slash < 0) ? null : this.key.substring(0, slash);
	}

	/**
	 * Returns the name part of the key.
	 * @return the name
	 */
	public String name() {
		return this.key.substring(this.key.indexOf('/') + 1);
	}

}
