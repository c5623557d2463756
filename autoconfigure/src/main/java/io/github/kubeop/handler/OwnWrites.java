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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import io.github.kubeop.informer.InformerStatus;
import io.github.kubeop.informer.InitialListAwareEventHandler;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;

/**
 * Own writes for one handler: tells a key's change that only the handler's own writes
 * made from one that someone else made, so that a handler's own write does not call it
 * again (JOSDK 5.3's own-event filtering).
 * <p>
 * A write is told by the resourceVersion the API server answered it with, which
 * read-after-write records already ({@link HandlerCall}). Every change the informers show
 * for the key is observed, in order: the handled object's new resourceVersions, and the
 * owned objects' changes that queue it. The change since the last call is the handler's
 * own when every one of those resourceVersions is one that the last call's writes
 * returned, so a change of someone else's that lands between two own writes is delivered.
 * <p>
 * A list replaces the informer's view of an object with its latest state and can fold
 * someone else's change into an own write's state: while an informer lists, or when it
 * listed again since a write, no change is taken for own.
 *
 * @author Kubeop authors
 * @see HandlerMethod#callsOnOwnWrites()
 */
final class OwnWrites {

	/**
	 * How many changes of one key are kept between two calls; a key that changes more
	 * often is called as before.
	 */
	private static final int MAX_OBSERVATIONS = 256;

	private final String informerName;

	private final AtomicLong sequence = new AtomicLong();

	/**
	 * The changes observed per key since the last call consumed them, in order.
	 */
	private final Map<String, List<Observation>> observed = new ConcurrentHashMap<>();

	/**
	 * The writes of each key's last completed call.
	 */
	private final Map<String, Written> written = new ConcurrentHashMap<>();

	/**
	 * The last observation made before each key's turn read the cache: consumed once that
	 * turn's call (or its decision not to call) is settled.
	 */
	private final Map<String, Long> classifiedUpTo = new ConcurrentHashMap<>();

	/**
	 * Creates the own writes of a handler.
	 * @param informer the informer of the handled objects
	 */
	OwnWrites(ResourceInformer<?> informer) {
		this.informerName = informer.spec().name();
	}

	/**
	 * Returns an event handler that observes every change of the handled objects before
	 * passing it on.
	 * @param <T> the resource type
	 * @param delegate the handler that queues keys
	 * @param handled whether an object is one the handler handles, or handled before: the
	 * changes of other objects are not kept
	 * @return the observing handler
	 */
	<T extends KubernetesObject> InitialListAwareEventHandler<T> observing(ResourceEventHandler<T> delegate,
			Predicate<T> handled) {
		return new InitialListAwareEventHandler<>() {

			@Override
			public void onAdd(T object, boolean inInitialList) {
				if (handled.test(object)) {
					observe(ResourceInformer.key(object), OwnWrites.this.informerName, object);
				}
				InitialListAwareEventHandler.onAdd(delegate, object, inInitialList);
			}

			@Override
			public void onUpdate(T oldObject, T newObject) {
				if (handled.test(newObject)) {
					observe(ResourceInformer.key(newObject), OwnWrites.this.informerName, newObject);
				}
				delegate.onUpdate(oldObject, newObject);
			}

			@Override
			public void onRelistAdd(T object) {
				if (handled.test(object)) {
					observe(ResourceInformer.key(object), OwnWrites.this.informerName, object);
				}
				InitialListAwareEventHandler.onRelistAdd(delegate, object);
			}

			@Override
			public void onRelistUpdate(T oldObject, T newObject) {
				if (handled.test(newObject)) {
					observe(ResourceInformer.key(newObject), OwnWrites.this.informerName, newObject);
				}
				InitialListAwareEventHandler.onRelistUpdate(delegate, oldObject, newObject);
			}

			@Override
			public void onDelete(T object, boolean deletedFinalStateUnknown) {
				delegate.onDelete(object, deletedFinalStateUnknown);
			}

		};
	}

	/**
	 * Observes a change of an owned object that queues its owner's key.
	 * @param key the owner's key
	 * @param informer the owned object's informer, or {@code null} for a change that
	 * cannot be told: never taken for own
	 * @param owned the owned object's new state, or {@code null}
	 */
	void observeOwned(String key, ResourceInformer<?> informer, KubernetesObject owned) {
		observe(key, (informer != null) ? informer.spec().name() : null, owned);
	}

	private void observe(String key, String informer, KubernetesObject object) {
		String objectKey = (object != null) ? ResourceInformer.key(object) : null;
		String resourceVersion = (object != null) ? object.getMetadata().getResourceVersion() : null;
		long sequence = this.sequence.incrementAndGet();
		this.observed.compute(key, (k, list) -> {
			List<Observation> changes = (list != null) ? list : new ArrayList<>();
			if (changes.size() < MAX_OBSERVATIONS) {
				changes.add(new Observation(sequence, informer, objectKey, resourceVersion, false));
			}
			else {
				// too many to keep: one that stands for all of them, never own
				changes.clear();
				changes.add(new Observation(sequence, null, null, null, true));
			}
			return changes;
		});
	}

	/**
	 * Decides whether the changes since a key's last call are only the handler's own
	 * writes.
	 * @param key the key
	 * @param last the state last delivered
	 * @param current the cached state, of the same object
	 * @param ownerTriggered whether an owned object's change queued the key
	 * @return the verdict
	 */
	Verdict classify(String key, KubernetesObject last, KubernetesObject current, boolean ownerTriggered) {
		List<Observation> changes = snapshot(key);
		Written writes = this.written.get(key);
		if (writes == null || !writes.stillTrue() || changes.stream().anyMatch(Observation::overflow)) {
			return Verdict.NONE;
		}
		String lastVersion = last.getMetadata().getResourceVersion();
		String currentVersion = current.getMetadata().getResourceVersion();
		boolean changeIsOwn = false;
		if (!currentVersion.equals(lastVersion) && writes.wrote(this.informerName, key, currentVersion)) {
			boolean currentObserved = false;
			changeIsOwn = true;
			for (Observation change : changes) {
				if (!this.informerName.equals(change.informer()) || !key.equals(change.objectKey())) {
					continue;
				}
				String version = change.resourceVersion();
				if (ResourceInformer.compareResourceVersions(version, lastVersion) <= 0
						|| ResourceInformer.compareResourceVersions(version, currentVersion) > 0) {
					// delivered already, or newer than the state about to be handled
					continue;
				}
				currentObserved |= version.equals(currentVersion);
				changeIsOwn &= writes.wrote(this.informerName, key, version);
			}
			if (!currentObserved && changeIsOwn) {
				// the cache shows the write, and its change is still on its way to this
				// handler's events, with whatever came before it
				return Verdict.WAIT;
			}
		}
		boolean ownerIsOwn = ownerTriggered;
		boolean anyOwned = false;
		for (Observation change : changes) {
			if (this.informerName.equals(change.informer()) && key.equals(change.objectKey())) {
				continue;
			}
			anyOwned = true;
			ownerIsOwn &= change.informer() != null
					&& writes.wrote(change.informer(), change.objectKey(), change.resourceVersion());
		}
		return new Verdict(changeIsOwn, ownerIsOwn && anyOwned, false);
	}

	/**
	 * Marks the changes observed so far for a key as those its turn, about to read the
	 * cache, settles.
	 * @param key the key
	 */
	void turnStarting(String key) {
		this.classifiedUpTo.put(key, this.sequence.get());
	}

	private List<Observation> snapshot(String key) {
		List<Observation> copy = new ArrayList<>();
		this.observed.computeIfPresent(key, (k, changes) -> {
			copy.addAll(changes);
			return changes;
		});
		return copy;
	}

	/**
	 * Records the writes of a key's call that completed, as the own writes of the changes
	 * to come; {@code null} for a call that failed, whose writes are changes to be
	 * handled on its retry.
	 * @param key the key
	 * @param call the call, or {@code null}
	 */
	void completed(String key, HandlerCall call) {
		if (call == null || call.ownWrites().isEmpty()) {
			this.written.remove(key);
			return;
		}
		// the writes of the call before stay own: an owned object's event may reach this
		// handler only after the next call
		this.written.compute(key, (k, before) -> Written.of(call.ownWrites(), before));
	}

	/**
	 * Drops the changes observed before the key's turn read the cache: its call was made,
	 * or nothing was to be called.
	 * @param key the key
	 */
	void consumed(String key) {
		Long upTo = this.classifiedUpTo.remove(key);
		long covered = (upTo != null) ? upTo : 0L;
		this.observed.computeIfPresent(key, (k, changes) -> {
			changes.removeIf((change) -> change.sequence() <= covered);
			return changes.isEmpty() ? null : changes;
		});
	}

	/**
	 * Drops what is known of a key.
	 * @param key the key
	 */
	void forget(String key) {
		this.observed.remove(key);
		this.written.remove(key);
		this.classifiedUpTo.remove(key);
	}

	/**
	 * Drops what is known of every key the predicate rejects.
	 * @param keys the keys to keep
	 */
	void retainOnly(Predicate<String> keys) {
		for (Map<String, ?> state : List.of(this.observed, this.written, this.classifiedUpTo)) {
			state.keySet().removeIf((key) -> !keys.test(key));
		}
	}

	/**
	 * Drops what is known of every key.
	 */
	void clear() {
		this.observed.clear();
		this.written.clear();
		this.classifiedUpTo.clear();
	}

	/**
	 * Returns how many per-key entries are kept.
	 * @return the number of entries
	 */
	int size() {
		return this.observed.size() + this.written.size() + this.classifiedUpTo.size();
	}

	/**
	 * Whether the changes since a key's last call are only the handler's own writes.
	 *
	 * @param changeIsOwn whether the handled object changed only by the handler's own
	 * writes
	 * @param ownerIsOwn whether every owned object's change that queued the key is an own
	 * write
	 * @param waitForEvent whether the cache shows an own write whose event has not
	 * reached this handler yet: its event queues the key again
	 */
	record Verdict(boolean changeIsOwn, boolean ownerIsOwn, boolean waitForEvent) {

		static final Verdict NONE = new Verdict(false, false, false);

		static final Verdict WAIT = new Verdict(false, false, true);

	}

	/**
	 * A change observed for a key.
	 *
	 * @param sequence the order of observation
	 * @param informer the informer that showed it, {@code null} if it cannot be told
	 * @param objectKey the changed object's key
	 * @param resourceVersion its new resourceVersion
	 * @param overflow whether it stands for more changes than are kept
	 */
	private record Observation(long sequence, String informer, String objectKey, String resourceVersion,
			boolean overflow) {

	}

	/**
	 * One write of a call, as an informer will show it.
	 *
	 * @param informer the informer that caches the written object
	 * @param objectKey the object's key in it
	 * @param resourceVersion the resourceVersion the server answered the write with
	 * @param listsBefore how many lists the informer had completed when the write
	 * returned, or {@code -1} if it was listing then
	 */
	record Write(ResourceInformer<?> informer, String objectKey, String resourceVersion, long listsBefore) {

		/**
		 * Records a write as the informer stands when it returned.
		 * @param informer the informer
		 * @param objectKey the object's key
		 * @param resourceVersion the answered resourceVersion
		 * @return the write
		 */
		static Write of(ResourceInformer<?> informer, String objectKey, String resourceVersion) {
			return new Write(informer, objectKey, resourceVersion, listsCompleted(informer));
		}

		/**
		 * How many lists the informer has completed, or {@code -1} while it lists or
		 * reconnects: only a watch shows every change of an object, one by one.
		 */
		private static long listsCompleted(ResourceInformer<?> informer) {
			InformerStatus status = informer.status();
			return (status.state() == WatchState.WATCHING) ? status.relists() : -1;
		}

	}

	/**
	 * The writes of a key's last completed call, and of the one before, by informer and
	 * key.
	 */
	private static final class Written {

		private final Map<String, Set<String>> versions;

		private final Map<ResourceInformer<?>, Long> listsBefore;

		private final Map<String, Set<String>> earlierVersions;

		private final Map<ResourceInformer<?>, Long> earlierListsBefore;

		private Written(Map<String, Set<String>> versions, Map<ResourceInformer<?>, Long> listsBefore,
				Written earlier) {
			this.versions = versions;
			this.listsBefore = listsBefore;
			this.earlierVersions = (earlier != null) ? earlier.versions : Map.of();
			this.earlierListsBefore = (earlier != null) ? earlier.listsBefore : Map.of();
		}

		static Written of(List<Write> writes, Written before) {
			Map<String, Set<String>> versions = new HashMap<>();
			Map<ResourceInformer<?>, Long> listsBefore = new HashMap<>();
			for (Write write : writes) {
				versions
					.computeIfAbsent(write.informer().spec().name() + "|" + write.objectKey(), (k) -> new HashSet<>())
					.add(write.resourceVersion());
				listsBefore.merge(write.informer(), write.listsBefore(),
						(a, b) -> (a.equals(b)) ? a : Long.valueOf(-1));
			}
			return new Written(versions, listsBefore, before);
		}

		boolean wrote(String informer, String objectKey, String resourceVersion) {
			if (resourceVersion == null) {
				return false;
			}
			String id = informer + "|" + objectKey;
			return this.versions.getOrDefault(id, Set.of()).contains(resourceVersion)
					|| this.earlierVersions.getOrDefault(id, Set.of()).contains(resourceVersion);
		}

		/**
		 * Whether every informer written to has watched without a list since the writes:
		 * it showed every change after them one by one.
		 */
		boolean stillTrue() {
			return unlisted(this.listsBefore) && unlisted(this.earlierListsBefore);
		}

		private static boolean unlisted(Map<ResourceInformer<?>, Long> listsBefore) {
			for (Map.Entry<ResourceInformer<?>, Long> entry : listsBefore.entrySet()) {
				if (entry.getValue() < 0 || Write.listsCompleted(entry.getKey()) != entry.getValue()) {
					return false;
				}
			}
			return true;
		}

	}

}
