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

import io.kubernetes.client.common.KubernetesObject;

/**
 * How {@link KubernetesTemplate#delete} deletes: preconditions on the object's
 * {@code uid} (delete this object, not one created since under the same name) and
 * {@code resourceVersion} (delete it only as it was read), and the propagation policy
 * that decides what happens to the objects it owns.
 *
 * <pre class="code">
 * template.delete(secret, DeleteOptions.ifUnchanged(secret));
 * template.delete(job, DeleteOptions.defaults().propagation(DeleteOptions.Propagation.FOREGROUND));
 * </pre>
 *
 * @author Kubeop authors
 */
public final class DeleteOptions {

	private static final DeleteOptions DEFAULTS = new DeleteOptions(null, null, null);

	private final String uid;

	private final String resourceVersion;

	private final Propagation propagation;

	private DeleteOptions(String uid, String resourceVersion, Propagation propagation) {
		this.uid = uid;
		this.resourceVersion = resourceVersion;
		this.propagation = propagation;
	}

	/**
	 * No precondition, and the resource's default propagation (background for most).
	 * @return the options
	 */
	public static DeleteOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * Deletes the object only if it is still the one read, unchanged: preconditions on
	 * both its {@code uid} and its {@code resourceVersion}.
	 * @param object the object as read
	 * @return the options
	 */
	public static DeleteOptions ifUnchanged(KubernetesObject object) {
		return new DeleteOptions(object.getMetadata().getUid(), object.getMetadata().getResourceVersion(), null);
	}

	/**
	 * Deletes the object only if it is still the one read, changed or not: a precondition
	 * on its {@code uid}.
	 * @param object the object as read
	 * @return the options
	 */
	public static DeleteOptions ifSameObject(KubernetesObject object) {
		return new DeleteOptions(object.getMetadata().getUid(), null, null);
	}

	/**
	 * Returns these options with a precondition on the {@code uid}.
	 * @param uid the uid the object must have
	 * @return new options
	 */
	public DeleteOptions uid(String uid) {
		return new DeleteOptions(uid, this.resourceVersion, this.propagation);
	}

	/**
	 * Returns these options with a precondition on the {@code resourceVersion}.
	 * @param resourceVersion the resourceVersion the object must have
	 * @return new options
	 */
	public DeleteOptions resourceVersion(String resourceVersion) {
		return new DeleteOptions(this.uid, resourceVersion, this.propagation);
	}

	/**
	 * Returns these options with a propagation policy.
	 * @param propagation what happens to the objects the deleted one owns
	 * @return new options
	 */
	public DeleteOptions propagation(Propagation propagation) {
		return new DeleteOptions(this.uid, this.resourceVersion, propagation);
	}

	/**
	 * Returns the uid precondition.
	 * @return the uid, or {@code null} for none
	 */
	public String getUid() {
		return this.uid;
	}

	/**
	 * Returns the resourceVersion precondition.
	 * @return the resourceVersion, or {@code null} for none
	 */
	public String getResourceVersion() {
		return this.resourceVersion;
	}

	/**
	 * Returns the propagation policy.
	 * @return the policy, or {@code null} for the resource's default
	 */
	public Propagation getPropagation() {
		return this.propagation;
	}

	/**
	 * What happens to the objects that the deleted object owns, as Kubernetes'
	 * {@code propagationPolicy}.
	 */
	public enum Propagation {

		/**
		 * The object goes at once, the garbage collector deletes what it owned after.
		 */
		BACKGROUND("Background"),

		/**
		 * The object stays, with a {@code foregroundDeletion} finalizer, until the
		 * garbage collector has deleted what it owned with {@code blockOwnerDeletion}.
		 */
		FOREGROUND("Foreground"),

		/**
		 * The object goes, what it owned stays and loses the owner reference.
		 */
		ORPHAN("Orphan");

		private final String value;

		Propagation(String value) {
			this.value = value;
		}

		/**
		 * Returns the value the API server takes.
		 * @return the value
		 */
		public String value() {
			return this.value;
		}

	}

}
