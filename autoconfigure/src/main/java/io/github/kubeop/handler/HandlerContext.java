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
 * it is called, the how-manieth attempt this is, and for a delete whether the object is
 * its final state. Declare a parameter of this type to receive it.
 *
 * @param key the key, {@code namespace/name} or {@code name} for cluster-scoped objects
 * @param trigger why the method is called
 * @param attempt 1 for the first attempt, 2 for the first retry after a failure or after
 * asking to be called again without delay, and so on
 * @param handler the name of the handler (its queue and workers)
 * @param finalStateUnknown for a delete, whether the object given is the last state known
 * rather than the state in which it was deleted: the delete was not seen on the watch but
 * inferred when a relist no longer listed the object (client-go's
 * {@code DeletedFinalStateUnknown}), so changes made just before the delete may be
 * missing; always {@code false} for other calls
 * @author Kubeop authors
 */
public record HandlerContext(String key, Trigger trigger, int attempt, String handler, boolean finalStateUnknown) {

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
