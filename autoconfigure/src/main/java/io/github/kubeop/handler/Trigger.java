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
 * Why a handler method is called.
 *
 * @author Kubeop authors
 */
public enum Trigger {

	/**
	 * The object appeared.
	 */
	ADDED,

	/**
	 * The object changed since the state last delivered.
	 */
	CHANGED,

	/**
	 * The object is gone.
	 */
	DELETED,

	/**
	 * A periodic resync, the object unchanged.
	 */
	RESYNC,

	/**
	 * An object the handler owns changed.
	 */
	OWNER,

	/**
	 * An object the handled object references changed, appeared or went; see
	 * {@link io.github.kubeop.annotation.References}.
	 */
	REFERENCE,

	/**
	 * The handler asked to be called again.
	 */
	REQUEUE,

	/**
	 * The object is being deleted ({@code deletionTimestamp} set) and still holds the
	 * handler's finalizer: its cleanup method is called.
	 */
	DELETING

}
