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
 * How {@link KubernetesTemplate#apply(Object, ApplyOptions)} applies an object. The
 * default, {@link #owned()}, is what {@link KubernetesTemplate#apply(Object)} does:
 * inside a handler call the handled object becomes the controller owner of the applied
 * one. {@link #notOwned()} is for objects the handled object must not own: a shared
 * object in another namespace, a cluster-scoped object for a namespaced owner, an object
 * that must outlive it.
 *
 * <pre class="code">
 * template.apply(registryEntry, ApplyOptions.notOwned());
 * template.apply(desired, ApplyOptions.owned().forceConflicts(false));
 * </pre>
 *
 * @author Kubeop authors
 */
public final class ApplyOptions {

	private static final ApplyOptions OWNED = new ApplyOptions(true, null);

	private static final ApplyOptions NOT_OWNED = new ApplyOptions(false, null);

	private final boolean owned;

	private final Boolean forceConflicts;

	private ApplyOptions(boolean owned, Boolean forceConflicts) {
		this.owned = owned;
		this.forceConflicts = forceConflicts;
	}

	/**
	 * Applies as {@link KubernetesTemplate#apply(Object)} does: owned by the handled
	 * object inside an add, update or reconcile call.
	 * @return the options
	 */
	public static ApplyOptions owned() {
		return OWNED;
	}

	/**
	 * Applies without an owner reference, inside a handler call or not. An object this
	 * field manager applied before with the handled object as owner loses that reference
	 * (this manager no longer states it), and with it the garbage collection that came
	 * with it.
	 * @return the options
	 */
	public static ApplyOptions notOwned() {
		return NOT_OWNED;
	}

	/**
	 * Returns these options with another choice of taking over fields that other field
	 * managers own; by default the template's ({@code kubeop.write.force-conflicts}).
	 * @param force whether to take them over
	 * @return new options
	 */
	public ApplyOptions forceConflicts(boolean force) {
		return new ApplyOptions(this.owned, force);
	}

	/**
	 * Returns whether the handled object owns what is applied.
	 * @return whether owned
	 */
	public boolean isOwned() {
		return this.owned;
	}

	/**
	 * Returns whether fields of other managers are taken over.
	 * @return the choice, or {@code null} for the template's
	 */
	public Boolean getForceConflicts() {
		return this.forceConflicts;
	}

	@Override
	public String toString() {
		return "ApplyOptions[owned=" + this.owned + ", forceConflicts="
				+ ((this.forceConflicts != null) ? this.forceConflicts : "template's") + "]";
	}

}
