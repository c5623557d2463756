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
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.kubeop.informer.InitialListAwareEventHandler;
import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Maps changes of referenced objects to the primaries that reference them, for one
 * {@link Reference} of one handler, as controller-runtime's
 * {@code EnqueueRequestsFromMapFunc} over a field index does: a path reference is an
 * index on the primary's informer (primary to referenced keys), so a change of a
 * referenced object finds its primaries by one index lookup, never a scan; a mapper is
 * called with the old and the new state. An object that appears is mapped as any change,
 * so primaries that referenced it before it existed are called.
 * <p>
 * For an informer that keeps only referenced objects, this also keeps the primaries'
 * references in step with it: a reference that appears loads its object (which the cache
 * dropped while nobody referenced it), a reference that goes evicts it once no primary
 * references it any more.
 *
 * @param <S> the referenced type
 * @author Kubeop authors
 */
final class ReferenceWatcher<S extends KubernetesObject> {

	private static final Log logger = LogFactory.getLog(ReferenceWatcher.class);

	/** Retries failed loads; shared, as loads are rare and quick. */
	private static final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "kubeop-reference-loads");
		thread.setDaemon(true);
		return thread;
	});

	private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

	private final Controller<?> primary;

	private final Reference reference;

	private final ResourceInformer<S> referenced;

	private final ReferencePath path;

	private final ReferencePath namespacePath;

	private final String indexName;

	private final AtomicLong mappingFailures = new AtomicLong();

	/** Keys of objects whose mapping failed last time, logged once until it succeeds. */
	private final Set<String> failing = ConcurrentHashMap.newKeySet();

	/**
	 * Checks a reference against the primary's class and prepares its index.
	 * @param primary the handler of the primaries
	 * @param reference the reference
	 * @param referenced the informer of referenced objects
	 * @throws IllegalStateException if a path does not fit the primary's class, naming
	 * the class, the path and the handler
	 */
	ReferenceWatcher(Controller<?> primary, Reference reference, ResourceInformer<S> referenced) {
		this.primary = primary;
		this.reference = reference;
		this.referenced = referenced;
		Class<?> primaryType = primary.informer().spec().type();
		this.path = (reference.path() != null) ? path(reference.path(), primaryType, "path") : null;
		this.namespacePath = (reference.namespacePath() != null)
				? path(reference.namespacePath(), primaryType, "namespacePath") : null;
		if (this.namespacePath != null) {
			try {
				this.path.checkBeside(this.namespacePath);
			}
			catch (IllegalArgumentException ex) {
				throw invalid("namespacePath", reference.namespacePath(), primaryType, ex);
			}
		}
		this.indexName = "kubeop.references/" + primary.name() + "/" + referenced.spec().name() + "/"
				+ reference.path();
	}

	private ReferencePath path(String text, Class<?> primaryType, String attribute) {
		try {
			return ReferencePath.of(text, primaryType);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(attribute, text, primaryType, ex);
		}
	}

	private IllegalStateException invalid(String attribute, String text, Class<?> primaryType,
			IllegalArgumentException ex) {
		return new IllegalStateException("Handler '" + this.primary.name() + "' references "
				+ this.reference.type().getSimpleName() + " by " + attribute + " '" + text + "', which does not fit "
				+ primaryType.getName() + ": " + ex.getMessage() + "; name a field of " + primaryType.getSimpleName()
				+ " that holds a string or a list of strings, such as 'spec.configRef.name' or "
				+ "'spec.consumers[].secretRef.name'", ex);
	}

	/**
	 * Starts mapping: adds the index to the primary's informer and listens to the
	 * referenced informer; for a cache of referenced objects only, also listens to the
	 * primaries to load and evict.
	 * @param referencedKeys the keys the referenced-only cache keeps, or {@code null} if
	 * it keeps everything
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	void start(ReferencedKeys referencedKeys) {
		ResourceInformer<KubernetesObject> primaries = (ResourceInformer) this.primary.informer();
		if (this.path != null) {
			primaries.addIndexer(this.indexName, this::referencedKeys);
		}
		if (referencedKeys != null) {
			referencedKeys.add((key) -> !primaries.indexer().indexKeys(this.indexName, key).isEmpty());
			primaries.addEventHandler(new ReferenceKeeper());
		}
		this.referenced.addEventHandler(new ReferencedChanges());
	}

	/**
	 * Returns the name of the handler of the primaries.
	 * @return the handler name
	 */
	String handler() {
		return this.primary.name();
	}

	/**
	 * Returns whether this reference maps by a function rather than by a path.
	 * @return whether the reference has a mapper
	 */
	boolean mapsByFunction() {
		return this.path == null;
	}

	/**
	 * Returns how often the mapper threw.
	 * @return the number of failed mappings
	 */
	long mappingFailures() {
		return this.mappingFailures.get();
	}

	/**
	 * Returns the keys of the objects a primary references by the path: each name with
	 * the namespace beside it, else the primary's own; only names for a cluster-scoped
	 * type.
	 */
	List<String> referencedKeys(KubernetesObject primaryObject) {
		boolean namespaced = this.referenced.resource().namespaced();
		String ownNamespace = primaryObject.getMetadata().getNamespace();
		int prefix = this.path.listPrefix();
		Set<String> keys = new LinkedHashSet<>();
		for (Object node : this.path.nodes(primaryObject, prefix)) {
			String namespace = ownNamespace;
			if (this.namespacePath != null) {
				List<String> namespaces = this.namespacePath.strings(node, prefix);
				if (!namespaces.isEmpty() && !namespaces.get(0).isEmpty()) {
					namespace = namespaces.get(0);
				}
			}
			for (String name : this.path.strings(node, prefix)) {
				if (name.isEmpty()) {
					continue;
				}
				if (!namespaced) {
					keys.add(name);
				}
				else if (namespace != null && !namespace.isEmpty()) {
					keys.add(namespace + "/" + name);
				}
			}
		}
		return new ArrayList<>(keys);
	}

	/**
	 * Returns the keys of the primaries one state of a referenced object concerns.
	 */
	@SuppressWarnings("unchecked")
	private Collection<String> primariesOf(S object) {
		String key = ResourceInformer.key(object);
		if (this.path != null) {
			return this.primary.informer().indexer().indexKeys(this.indexName, key);
		}
		try {
			Collection<String> keys = ((ReferenceMapper<S>) this.reference.mapper()).primaries(object);
			this.failing.remove(key);
			return (keys != null) ? keys : List.of();
		}
		catch (RuntimeException ex) {
			this.mappingFailures.incrementAndGet();
			if (this.failing.add(key)) {
				logger.warn(
						"Handler '" + this.primary.name() + "': the mapper of " + this.reference.type().getSimpleName()
								+ " failed for " + key + " (logged once until it maps again); its other mappings go on",
						ex);
			}
			return List.of();
		}
	}

	/**
	 * Queues the primaries of a referenced object's states; those of an object in its
	 * informer's initial list at low priority, as work no change asked for.
	 */
	private void enqueuePrimaries(S oldObject, S newObject, boolean listed) {
		Set<String> keys = new LinkedHashSet<>(primariesOf(oldObject));
		if (newObject != null) {
			keys.addAll(primariesOf(newObject));
		}
		for (String key : keys) {
			if (listed) {
				this.primary.enqueueListed(key, Trigger.REFERENCE);
			}
			else {
				this.primary.enqueue(key, Trigger.REFERENCE);
			}
		}
	}

	/**
	 * Loads a newly referenced object, retrying with back-off while it is still
	 * referenced and not cached.
	 */
	private void load(String key, Duration delay) {
		if (this.referenced.indexer().getByKey(key) != null) {
			return;
		}
		try {
			this.referenced.load(key);
		}
		catch (Exception ex) {
			Duration next = delay.multipliedBy(2).compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY
					: delay.multipliedBy(2);
			logger.warn("Handler '" + this.primary.name() + "': loading referenced " + key + " into " + this.referenced
					+ " failed, retrying in " + delay.toMillis() + " ms: " + ex.getMessage());
			retries.schedule(() -> load(key, next), delay.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	/**
	 * Maps every change of a referenced object to its primaries.
	 */
	private final class ReferencedChanges implements InitialListAwareEventHandler<S> {

		@Override
		public void onAdd(S object, boolean inInitialList) {
			enqueuePrimaries(object, null, inInitialList);
		}

		@Override
		public void onUpdate(S oldObject, S newObject) {
			if (!Objects.equals(oldObject.getMetadata().getResourceVersion(),
					newObject.getMetadata().getResourceVersion())
					&& !TraceContextAnnotation.isOnlyChange(oldObject, newObject)) {
				enqueuePrimaries(oldObject, newObject, false);
			}
		}

		@Override
		public void onDelete(S object, boolean deletedFinalStateUnknown) {
			enqueuePrimaries(object, null, false);
		}

	}

	/**
	 * Keeps a referenced-only cache in step with the primaries' references.
	 */
	private final class ReferenceKeeper implements ResourceEventHandler<KubernetesObject> {

		@Override
		public void onAdd(KubernetesObject object) {
			referencedKeys(object).forEach((key) -> load(key, Duration.ofSeconds(1)));
		}

		@Override
		public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
			List<String> before = referencedKeys(oldObject);
			List<String> after = referencedKeys(newObject);
			after.stream().filter((key) -> !before.contains(key)).forEach((key) -> load(key, Duration.ofSeconds(1)));
			before.stream().filter((key) -> !after.contains(key)).forEach(ReferenceWatcher.this.referenced::evict);
		}

		@Override
		public void onDelete(KubernetesObject object, boolean deletedFinalStateUnknown) {
			referencedKeys(object).forEach(ReferenceWatcher.this.referenced::evict);
		}

	}

}
