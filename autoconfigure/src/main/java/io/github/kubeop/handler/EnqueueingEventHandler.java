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

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.github.kubeop.informer.InitialListAwareEventHandler;
import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Feeds a handler's work queue from its informer, as controller-runtime's
 * {@code EnqueueRequestForObject} does: runs on informer threads, so it only filters,
 * records the final state of a delete and why the key was queued, and enqueues the key.
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
final class EnqueueingEventHandler<T extends KubernetesObject> implements InitialListAwareEventHandler<T> {

	private final HandlerEndpoint endpoint;

	private final Predicate<T> filter;

	private final DeliveryLedger<T> ledger;

	private final BiConsumer<String, Trigger> enqueue;

	private final Consumer<String> listed;

	private final BiConsumer<String, Trigger> relisted;

	private final boolean handlesDeletes;

	private final boolean handlesUpdates;

	/**
	 * Creates a handler of informer events.
	 * @param endpoint the handler endpoint
	 * @param filter the handler's filters
	 * @param handlesCleanup whether the handler has a cleanup method
	 * @param ledger what was delivered per key
	 * @param enqueue queues a key, with why
	 * @param listed queues the key of an object of the initial list, as work no change
	 * asked for
	 * @param relisted queues a key, with why, for an add or change a relist found: a
	 * change no watch told of, whose writer is unknown
	 */
	EnqueueingEventHandler(HandlerEndpoint endpoint, Predicate<T> filter, boolean handlesCleanup,
			DeliveryLedger<T> ledger, BiConsumer<String, Trigger> enqueue, Consumer<String> listed,
			BiConsumer<String, Trigger> relisted) {
		this.endpoint = endpoint;
		this.filter = filter;
		this.ledger = ledger;
		this.enqueue = enqueue;
		this.listed = listed;
		this.relisted = relisted;
		this.handlesDeletes = !endpoint.methods(HandlerMethod.Kind.DELETE).isEmpty();
		// a cleanup method needs the change that starts a delete, whatever else it has
		this.handlesUpdates = !endpoint.methods(HandlerMethod.Kind.UPDATE).isEmpty() || handlesCleanup;
	}

	@Override
	public void onAdd(T object, boolean inInitialList) {
		if (this.filter.test(object)) {
			if (inInitialList) {
				this.listed.accept(ResourceInformer.key(object));
			}
			else {
				this.enqueue.accept(ResourceInformer.key(object), Trigger.ADDED);
			}
		}
	}

	@Override
	public void onRelistAdd(T object) {
		if (this.filter.test(object)) {
			this.relisted.accept(ResourceInformer.key(object), Trigger.ADDED);
		}
	}

	@Override
	public void onUpdate(T oldObject, T newObject) {
		updated(oldObject, newObject, this.enqueue);
	}

	@Override
	public void onRelistUpdate(T oldObject, T newObject) {
		updated(oldObject, newObject, this.relisted);
	}

	private void updated(T oldObject, T newObject, BiConsumer<String, Trigger> enqueue) {
		String key = ResourceInformer.key(newObject);
		// the old state matching counts too: an add still running has not reached
		// delivered yet, and its object leaving must still be handled as a delete
		boolean relevant = this.filter.test(newObject) || this.filter.test(oldObject) || this.ledger.isDelivered(key);
		if (!relevant) {
			return;
		}
		if (Objects.equals(resourceVersion(oldObject), resourceVersion(newObject))) {
			if (this.endpoint.wantsResync()) {
				enqueue.accept(key, Trigger.RESYNC);
			}
			return;
		}
		if (TraceContextAnnotation.isOnlyChange(oldObject, newObject)) {
			// a traced write that changed nothing else: handled, it could call again
			// and again
			return;
		}
		if (callableFor(key, oldObject, newObject)) {
			enqueue.accept(key, Trigger.CHANGED);
		}
	}

	/**
	 * Whether a change can lead to a call: a handler without {@code @OnUpdate} is called
	 * for a change only when it is an add or a delete for the handler (the object entered
	 * or left its filters, or was replaced by another object of the same name), so that
	 * its queue, and the reconciles counted, hold no change it has no method for.
	 */
	private boolean callableFor(String key, T oldObject, T newObject) {
		boolean matches = this.filter.test(newObject);
		return this.handlesUpdates || matches != this.filter.test(oldObject) || matches != this.ledger.isDelivered(key)
				|| !Objects.equals(uid(oldObject), uid(newObject));
	}

	@Override
	public void onDelete(T object, boolean deletedFinalStateUnknown) {
		String key = ResourceInformer.key(object);
		// a handler with @OnDelete is told of every delete, whatever its filters say of
		// the final state: an add still running for the key is delivered only after
		// this, and a worker that finds the object gone waits for its final state
		if (this.handlesDeletes) {
			this.ledger.deleted(object, deletedFinalStateUnknown);
			this.enqueue.accept(key, Trigger.DELETED);
		}
		else if (this.ledger.isDelivered(key) || this.filter.test(object)) {
			// queued only to forget what was delivered
			this.enqueue.accept(key, Trigger.DELETED);
		}
	}

	private static String uid(KubernetesObject object) {
		return object.getMetadata().getUid();
	}

	private static String resourceVersion(KubernetesObject object) {
		return object.getMetadata().getResourceVersion();
	}

}
