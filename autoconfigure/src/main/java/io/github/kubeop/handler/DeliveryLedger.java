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

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.common.KubernetesObject;

/**
 * What a {@link Controller} delivered per key, and what is still to deliver: the state
 * last delivered, the final state of a delete reported by the informer, the triggers that
 * queued the key, a handler's request to be called again, and the object whose finalizer
 * was removed. The worker compares the cache with this ledger to decide which handler
 * method a key's change calls.
 * <p>
 * Every entry belongs to one key and leaves with it: when its delete has been delivered,
 * when the key moves to another replica, or when the workers stop.
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
final class DeliveryLedger<T extends KubernetesObject> {

	private final Map<String, T> delivered = new ConcurrentHashMap<>();

	private final Map<String, FinalState<T>> finalStates = new ConcurrentHashMap<>();

	private final Map<String, Set<Trigger>> triggers = new ConcurrentHashMap<>();

	private final Map<String, HandlerMethod.Kind> requeues = new ConcurrentHashMap<>();

	/**
	 * The object whose cleanup ran to its end, by key, and whether its finalizer is
	 * removed: the API server adds no finalizer to an object being deleted, so a cached
	 * state of that object that still shows it is older than the removal, not a reason to
	 * clean up again; while the removal is pending, only the removal is retried.
	 */
	private final Map<String, CleanedUp> cleanedUp = new ConcurrentHashMap<>();

	/**
	 * Returns the state last delivered for a key.
	 * @param key the key
	 * @return the state, or {@code null} if none was delivered or its delete was
	 */
	T delivered(String key) {
		return this.delivered.get(key);
	}

	/**
	 * Returns whether a state was delivered for a key and not deleted since.
	 * @param key the key
	 * @return whether the key has a delivered state
	 */
	boolean isDelivered(String key) {
		return this.delivered.containsKey(key);
	}

	/**
	 * Returns the final state of a delete reported for a key and not delivered yet.
	 * @param key the key
	 * @return the final state, or {@code null}
	 */
	FinalState<T> finalState(String key) {
		return this.finalStates.get(key);
	}

	/**
	 * Records the final state of a deleted object, to deliver with its delete. The final
	 * state of the object last delivered is kept when another object of the same name,
	 * never delivered, was created and deleted before a worker ran.
	 * @param object the final state
	 * @param unknown whether the delete was inferred on a relist rather than seen
	 */
	void deleted(T object, boolean unknown) {
		String key = ResourceInformer.key(object);
		this.finalStates.merge(key, new FinalState<>(object, unknown), (recorded, arriving) -> {
			T delivered = this.delivered.get(key);
			return (delivered != null && Objects.equals(uid(recorded.object()), uid(delivered))) ? recorded : arriving;
		});
	}

	/**
	 * Records why a key was queued.
	 * @param key the key
	 * @param trigger why
	 */
	void triggered(String key, Trigger trigger) {
		this.triggers.computeIfAbsent(key, (k) -> ConcurrentHashMap.newKeySet()).add(trigger);
	}

	/**
	 * Takes the triggers of a key, for the call about to be made.
	 * @param key the key
	 * @return the triggers, empty if none
	 */
	Set<Trigger> takeTriggers(String key) {
		Set<Trigger> taken = this.triggers.remove(key);
		return (taken != null) ? taken : EnumSet.noneOf(Trigger.class);
	}

	/**
	 * Gives back the triggers a call took, when the key is tried again later.
	 * @param key the key
	 * @param triggers the triggers taken
	 */
	void restoreTriggers(String key, Set<Trigger> triggers) {
		if (!triggers.isEmpty()) {
			this.triggers.computeIfAbsent(key, (k) -> ConcurrentHashMap.newKeySet()).addAll(triggers);
		}
	}

	/**
	 * Returns which method asked to be called again for a key.
	 * @param key the key
	 * @return the kind of the method, or {@code null}
	 */
	HandlerMethod.Kind requeued(String key) {
		return this.requeues.get(key);
	}

	/**
	 * Records that a method asked to be called again for a key.
	 * @param key the key
	 * @param kind the kind of the method
	 */
	void requeue(String key, HandlerMethod.Kind kind) {
		this.requeues.put(key, kind);
	}

	/**
	 * Records that a call answered any earlier request to be called again.
	 * @param key the key
	 */
	void requeueAnswered(String key) {
		this.requeues.remove(key);
	}

	/**
	 * Records that the cleanup of an object ran to its end: what is left is the removal
	 * of its finalizer, which, if it fails, is retried without the cleanup. Kept until
	 * the key goes.
	 * @param key the key
	 * @param uid the object's UID
	 */
	void cleanedUp(String key, String uid) {
		this.cleanedUp.put(key, new CleanedUp(uid, false));
	}

	/**
	 * Records that the finalizer of an object was removed after its cleanup.
	 * @param key the key
	 * @param uid the object's UID
	 */
	void finalizerRemoved(String key, String uid) {
		this.cleanedUp.put(key, new CleanedUp(uid, true));
	}

	/**
	 * Returns whether the cleanup of an object ran to its end (its finalizer removed, or
	 * the removal still pending).
	 * @param key the key
	 * @param uid the object's UID
	 * @return whether that object was cleaned up
	 */
	boolean isCleanedUp(String key, String uid) {
		CleanedUp cleanedUp = this.cleanedUp.get(key);
		return cleanedUp != null && cleanedUp.uid().equals(uid);
	}

	/**
	 * Returns whether the finalizer of an object was removed after its cleanup.
	 * @param key the key
	 * @param uid the object's UID
	 * @return whether that object's finalizer is removed
	 */
	boolean isFinalizerRemoved(String key, String uid) {
		CleanedUp cleanedUp = this.cleanedUp.get(key);
		return cleanedUp != null && cleanedUp.uid().equals(uid) && cleanedUp.finalizerRemoved();
	}

	/**
	 * Records what a call delivered.
	 * @param key the key
	 * @param current the state delivered, {@code null} for a delete: the key's entries go
	 * @param consumed the final state the call read, if any
	 */
	void remember(String key, T current, FinalState<T> consumed) {
		if (current != null) {
			this.delivered.put(key, current);
		}
		else {
			this.delivered.remove(key);
			this.requeues.remove(key);
			this.cleanedUp.remove(key);
		}
		if (consumed != null) {
			// only the final state this run read: one that arrived during the call is
			// newer, still to be delivered
			this.finalStates.computeIfPresent(key, (k, stored) -> (stored == consumed) ? null : stored);
		}
	}

	/**
	 * Drops every entry of a key.
	 * @param key the key
	 */
	void forget(String key) {
		this.delivered.remove(key);
		this.finalStates.remove(key);
		this.triggers.remove(key);
		this.requeues.remove(key);
		this.cleanedUp.remove(key);
	}

	/**
	 * Drops the entries of every key the predicate rejects.
	 * @param keys the keys to keep
	 */
	void retainOnly(Predicate<String> keys) {
		for (Map<String, ?> state : List.of(this.delivered, this.finalStates, this.triggers, this.requeues,
				this.cleanedUp)) {
			state.keySet().removeIf((key) -> !keys.test(key));
		}
	}

	/**
	 * Drops every entry.
	 */
	void clear() {
		this.delivered.clear();
		this.finalStates.clear();
		this.triggers.clear();
		this.requeues.clear();
		this.cleanedUp.clear();
	}

	/**
	 * Returns how many entries the ledger holds, over all keys.
	 * @return the number of entries
	 */
	int size() {
		return this.delivered.size() + this.finalStates.size() + this.triggers.size() + this.requeues.size()
				+ this.cleanedUp.size();
	}

	private static String uid(KubernetesObject object) {
		return object.getMetadata().getUid();
	}

	/**
	 * An object whose cleanup ran to its end.
	 *
	 * @param uid the object's UID
	 * @param finalizerRemoved whether its finalizer is removed, or the removal still
	 * pending
	 */
	private record CleanedUp(String uid, boolean finalizerRemoved) {

	}

	/**
	 * The state in which the informer last saw a deleted object.
	 *
	 * @param <T> the resource type
	 * @param object the final state, or the last state cached if the delete was inferred
	 * @param unknown whether the delete was inferred on a relist rather than seen
	 */
	record FinalState<T>(T object, boolean unknown) {

	}

}
