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

import io.kubernetes.client.openapi.models.V1OwnerReference;

/**
 * Thrown by {@link KubernetesTemplate#apply} inside a handler call when the object to
 * apply exists and another object is its controller, as controller-runtime's
 * {@code AlreadyOwnedError}: the template never takes an object from its controller,
 * since the garbage collector deletes an object with its controller, whoever else still
 * uses it. Nothing is written.
 * <p>
 * Thrown from a handler it is a failure like any other: logged, counted as an error and
 * retried with back-off, not terminal, because it can end without the handled object
 * changing: once the other controller is deleted the garbage collector deletes the
 * object, and the next attempt applies it afresh. Two primaries that apply an object of
 * one fixed name are the usual cause: derive the name from the primary's.
 *
 * @author Kubeop authors
 */
public class AlreadyOwnedException extends RuntimeException {

	private final String kind;

	private final String name;

	private final V1OwnerReference owner;

	/**
	 * Creates a new instance.
	 * @param kind the kind of the object to apply
	 * @param name the {@code namespace/name} of the object to apply
	 * @param owner the controller reference the object has
	 * @param wouldBeOwner the {@code Kind namespace/name} of the handled object that
	 * would have owned it
	 */
	public AlreadyOwnedException(String kind, String name, V1OwnerReference owner, String wouldBeOwner) {
		super(kind + " '" + name + "' is already controlled by " + owner.getKind() + " '" + owner.getName() + "' (uid "
				+ owner.getUid() + "), so " + wouldBeOwner
				+ " cannot own it: give each owner an object of its own (a name derived from the owner's)");
		this.kind = kind;
		this.name = name;
		this.owner = owner;
	}

	/**
	 * Returns the kind of the object that could not be applied.
	 * @return the kind
	 */
	public String getKind() {
		return this.kind;
	}

	/**
	 * Returns the {@code namespace/name} (or name, if cluster-scoped) of the object that
	 * could not be applied.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns the controller reference the live object has.
	 * @return the controller that owns the object
	 */
	public V1OwnerReference getOwner() {
		return this.owner;
	}

}
