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
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.github.kubeop.handler.DeliveryLedger.FinalState;
import io.github.kubeop.informer.DeepCopier;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Decides which handler methods a key's turn calls: compares the object cached for the
 * key with the state last delivered (an add, an update, a delete, a cleanup of an object
 * being deleted), and answers a handler's request to be called again, an owned object's
 * change and a resync.
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
final class CallPlanner<T extends KubernetesObject> {

	private final HandlerEndpoint endpoint;

	private final Finalizers<T> finalizers;

	private final DeliveryLedger<T> ledger;

	CallPlanner(HandlerEndpoint endpoint, Finalizers<T> finalizers, DeliveryLedger<T> ledger) {
		this.endpoint = endpoint;
		this.finalizers = finalizers;
		this.ledger = ledger;
	}

	/**
	 * Decides the call for a key.
	 * @param key the key
	 * @param cached the object cached for the key, or {@code null}
	 * @param current the cached object if it passes the handler's filters, else
	 * {@code null}
	 * @param last the state last delivered, or {@code null}
	 * @param finalState the final state of a reported delete, or {@code null}
	 * @param triggers why the key was queued
	 * @param own which of the changes since the last call only the handler's own writes
	 * made: those call only the methods that ask for them
	 * @return the call, or {@code null} if nothing is to be called
	 */
	Call<T> decide(String key, T cached, T current, T last, FinalState<T> finalState, Set<Trigger> triggers,
			OwnWrites.Verdict own) {
		if (current == null) {
			return (last != null) ? deleteCall(last, finalState, cached) : null;
		}
		if (this.finalizers != null && Finalizers.isBeingDeleted(current)) {
			return cleanupCall(key, current);
		}
		if (last == null) {
			return new Call<>(HandlerMethod.Kind.ADD, Trigger.ADDED, null, current, false,
					this.endpoint.methods(HandlerMethod.Kind.ADD));
		}
		List<HandlerMethod> updates = this.endpoint.methods(HandlerMethod.Kind.UPDATE);
		boolean changed = !Objects.equals(resourceVersion(last), resourceVersion(current));
		if (changed) {
			boolean generationChanged = !Objects.equals(last.getMetadata().getGeneration(),
					current.getMetadata().getGeneration());
			List<HandlerMethod> selected = updates.stream()
				.filter((method) -> !method.generationChangedOnly() || generationChanged)
				.filter((method) -> !own.changeIsOwn() || method.callsOnOwnWrites())
				.toList();
			if (!selected.isEmpty()) {
				return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.CHANGED, last, current, false, selected);
			}
		}
		HandlerMethod.Kind requeued = this.ledger.requeued(key);
		if (requeued != null) {
			return new Call<>(requeued, Trigger.REQUEUE, (requeued == HandlerMethod.Kind.UPDATE) ? last : null, current,
					false, this.endpoint.methods(requeued));
		}
		if (triggers.contains(Trigger.OWNER)) {
			List<HandlerMethod> selected = updates.stream()
				.filter((method) -> !own.ownerIsOwn() || method.callsOnOwnWrites())
				.toList();
			if (!selected.isEmpty()) {
				return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.OWNER, last, current, false, selected);
			}
		}
		if (triggers.contains(Trigger.REFERENCE)) {
			return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.REFERENCE, last, current, false, updates);
		}
		if (triggers.contains(Trigger.RESYNC) && !changed) {
			return new Call<>(HandlerMethod.Kind.UPDATE, Trigger.RESYNC, current, current, false,
					updates.stream().filter(HandlerMethod::wantsResync).toList());
		}
		return null;
	}

	/**
	 * The delete of the object last delivered, for the handler: with the final state the
	 * informer reported for that object, else with the state last delivered. The final
	 * state is unknown when the informer says so (a delete inferred on a relist), or when
	 * the object is gone and no delete of it was reported (its delete and a re-create
	 * coalesced into one relisted update). An object that is still cached has left the
	 * handler's filters: what it was told last is then all there is to tell.
	 * @param last the state last delivered
	 * @param finalState the final state of a reported delete, or {@code null}
	 * @param cached the object cached for the key, or {@code null}
	 * @return the call
	 */
	Call<T> deleteCall(T last, FinalState<T> finalState, T cached) {
		boolean reported = finalState != null && Objects.equals(uid(finalState.object()), uid(last));
		T object = reported ? finalState.object() : last;
		boolean gone = cached == null || !Objects.equals(uid(cached), uid(last));
		boolean finalStateUnknown = reported ? finalState.unknown() : gone;
		return new Call<>(HandlerMethod.Kind.DELETE, Trigger.DELETED, null, object, finalStateUnknown,
				this.endpoint.methods(HandlerMethod.Kind.DELETE));
	}

	/**
	 * The call for an object being deleted, for a handler with a cleanup method: the
	 * cleanup while the object holds the finalizer, else none (neither a cleanup nor a
	 * reconcile: the object is on its way out). Once the cleanup has run, only the
	 * finalizer's removal is left: it is retried alone, so the cleanup runs once per
	 * deletion however the removal fails.
	 */
	private Call<T> cleanupCall(String key, T current) {
		if (!this.finalizers.isHeldBy(current) || this.ledger.isFinalizerRemoved(key, uid(current))) {
			return null;
		}
		if (this.ledger.isCleanedUp(key, uid(current))) {
			return new Call<>(HandlerMethod.Kind.CLEANUP, Trigger.DELETING, null, current, false, List.of());
		}
		return new Call<>(HandlerMethod.Kind.CLEANUP, Trigger.DELETING, null, current, false,
				this.endpoint.methods(HandlerMethod.Kind.CLEANUP));
	}

	private static String uid(KubernetesObject object) {
		return object.getMetadata().getUid();
	}

	private static String resourceVersion(KubernetesObject object) {
		return object.getMetadata().getResourceVersion();
	}

	/**
	 * One call of a handler's methods for a key.
	 *
	 * @param <T> the resource type
	 * @param kind the kind of method
	 * @param trigger why
	 * @param oldObject the state delivered before, for an update
	 * @param newObject the object handled
	 * @param finalStateUnknown whether a delete's final state is unknown
	 * @param methods the methods to call
	 */
	record Call<T>(HandlerMethod.Kind kind, Trigger trigger, T oldObject, T newObject, boolean finalStateUnknown,
			List<HandlerMethod> methods) {

		/**
		 * Returns whether the call only removes the finalizer: the object's cleanup ran,
		 * and the removal after it failed. (A handler with a finalizer has a cleanup
		 * method, so a cleanup call without methods is never anything else.)
		 * @return whether nothing is called but the finalizer's removal
		 */
		boolean removalOnly() {
			return this.kind == HandlerMethod.Kind.CLEANUP && this.methods.isEmpty();
		}

		/**
		 * Returns the call with the handler's own copies of its objects: whatever the
		 * methods change in them reaches neither the cache nor the state remembered as
		 * delivered, which is the old object of a later update and what a retry starts
		 * from. The methods of one call share the copies, as steps of one reconcile.
		 */
		Call<T> withCopies() {
			return new Call<>(this.kind, this.trigger, DeepCopier.isolate(this.oldObject),
					DeepCopier.isolate(this.newObject), this.finalStateUnknown, this.methods);
		}

		/**
		 * Returns the call with another object, copied: the object as a finalizer write
		 * returned it is the state remembered as delivered.
		 */
		Call<T> withObject(T object) {
			return new Call<>(this.kind, this.trigger, this.oldObject, DeepCopier.isolate(object),
					this.finalStateUnknown, this.methods);
		}

		/**
		 * Calls the methods in turn.
		 * @param context the context
		 * @return the soonest time any method asked to be called again after, or
		 * {@code null}
		 * @throws Exception what a method threw
		 */
		Duration invoke(HandlerContext context) throws Exception {
			Duration requeueAfter = null;
			for (HandlerMethod method : this.methods) {
				Duration asked = method.invoke(this.oldObject, this.newObject, context);
				if (asked != null && (requeueAfter == null || asked.compareTo(requeueAfter) < 0)) {
					requeueAfter = asked;
				}
			}
			return requeueAfter;
		}

	}

}
