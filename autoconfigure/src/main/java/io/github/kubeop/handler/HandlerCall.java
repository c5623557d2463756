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
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The handler call running on the current thread, for code that acts on its behalf, such
 * as {@code KubernetesTemplate}: which object is handled, and which writes the call made.
 * <p>
 * Writes are remembered as the resourceVersions the API server answered with. Before the
 * next call for the same key the handler waits until every informer that caches a written
 * object has caught up with that write, so that a handler never reads an older state of
 * what it wrote from a cache (the stale-cache conflicts of controller-runtime #1464).
 * <p>
 * Only add, update and reconcile calls have an {@link #owner()}: a delete is called for
 * an object that is gone and a cleanup for one on its way out, and an object that either
 * owned would be deleted by the garbage collector with it.
 *
 * @author Kubeop authors
 */
public final class HandlerCall {

	private static final ThreadLocal<HandlerCall> current = new ThreadLocal<>();

	private final String handler;

	private final String key;

	private final KubernetesObject object;

	private final ResourceKind resource;

	private final HandlerMethod.Kind kind;

	private final Map<String, Write> writes = new LinkedHashMap<>();

	/**
	 * The queue priority a method asked to be called again at, or {@code null}.
	 */
	private Integer requeuePriority;

	/**
	 * Every write of the call, in order, several of one object included: a change showing
	 * one of them is the handler's own.
	 */
	private final List<OwnWrites.Write> ownWrites = new ArrayList<>();

	/**
	 * What the call applied, as {@code group/kind|key}: what a pruning handler keeps.
	 */
	private final Set<String> applied = new HashSet<>();

	private HandlerCall(String handler, String key, KubernetesObject object, ResourceKind resource,
			HandlerMethod.Kind kind) {
		this.handler = handler;
		this.key = key;
		this.object = object;
		this.resource = resource;
		this.kind = kind;
	}

	/**
	 * Returns the call running on this thread.
	 * @return the call, or {@code null} outside handler calls
	 */
	public static HandlerCall current() {
		return current.get();
	}

	static HandlerCall begin(String handler, String key, KubernetesObject object, ResourceKind resource,
			HandlerMethod.Kind kind) {
		HandlerCall call = new HandlerCall(handler, key, object, resource, kind);
		current.set(call);
		return call;
	}

	void end() {
		current.remove();
	}

	/**
	 * Records the priority a method's {@link Result} asks to be called again at; of
	 * several methods in one call, the highest wins.
	 * @param priority the priority
	 */
	void requeuePriority(int priority) {
		this.requeuePriority = (this.requeuePriority == null) ? priority : Math.max(this.requeuePriority, priority);
	}

	/**
	 * Returns the priority a method asked to be called again at.
	 * @return the priority, or {@code null} if none asked
	 */
	Integer requeuePriority() {
		return this.requeuePriority;
	}

	/**
	 * Returns the name of the handler.
	 * @return the handler name
	 */
	public String handler() {
		return this.handler;
	}

	/**
	 * Returns the key of the handled object.
	 * @return the key
	 */
	public String key() {
		return this.key;
	}

	/**
	 * Returns the object handled, as the handler method received it: for a delete its
	 * final state, for a cleanup the object being deleted.
	 * @return the object
	 */
	public KubernetesObject object() {
		return this.object;
	}

	/**
	 * Returns the object that owns what this call applies: the handled object in an add,
	 * update or reconcile call; none in a delete call (the object is gone, and the
	 * garbage collector would delete whatever named it as owner) nor in a cleanup call
	 * (the object is going, and would take what it owned with it). An object the handled
	 * object controls already keeps that reference in any call.
	 * @return the owner, or {@code null} if what this call applies is not owned
	 */
	public KubernetesObject owner() {
		return (this.kind == HandlerMethod.Kind.DELETE || this.kind == HandlerMethod.Kind.CLEANUP) ? null : this.object;
	}

	/**
	 * Returns the resource of the handled object.
	 * @return the resource
	 */
	public ResourceKind resource() {
		return this.resource;
	}

	/**
	 * Records that this call wrote an object, so that the next call for this key waits
	 * until every informer whose view holds the object has seen the write. Informers with
	 * a field selector are not waited for: whether the object is in their view cannot be
	 * told here.
	 * @param informers the informers
	 * @param resource the written object's resource
	 * @param written the object as the API server answered the write
	 */
	public void wrote(InformerRegistry informers, ResourceKind resource, KubernetesObject written) {
		wrote(informers, resource, written, true);
	}

	/**
	 * Records that this call wrote an object, or found it already as it would have
	 * written it: the next call for this key waits for that state either way, but only a
	 * state a request made is the call's own write (see {@link OwnWrites}).
	 * @param informers the informers
	 * @param resource the written object's resource
	 * @param written the object as the API server answered the write, or the live object
	 * that made the write unnecessary
	 * @param sent whether a request made that state
	 */
	public void wrote(InformerRegistry informers, ResourceKind resource, KubernetesObject written, boolean sent) {
		V1ObjectMeta metadata = written.getMetadata();
		if (metadata == null || metadata.getResourceVersion() == null) {
			return;
		}
		for (ResourceInformer<?> informer : informers.informers()) {
			if (InformerView.of(informer, resource, metadata.getNamespace(),
					metadata.getLabels()) == InformerView.CACHED) {
				wrote(informer, written, sent);
			}
		}
	}

	/**
	 * Records a write of an object that the given informer caches.
	 * @param informer the informer
	 * @param written the object as the API server answered the write
	 */
	void wrote(ResourceInformer<?> informer, KubernetesObject written) {
		wrote(informer, written, true);
	}

	private void wrote(ResourceInformer<?> informer, KubernetesObject written, boolean sent) {
		V1ObjectMeta metadata = written.getMetadata();
		if (metadata != null && metadata.getResourceVersion() != null) {
			Write write = new Write(informer, ResourceInformer.key(written), metadata.getNamespace(),
					metadata.getResourceVersion());
			this.writes.put(write.id(), write);
			if (sent) {
				this.ownWrites.add(OwnWrites.Write.of(informer, write.objectKey(), write.resourceVersion()));
			}
		}
	}

	Collection<Write> writes() {
		return this.writes.values();
	}

	List<OwnWrites.Write> ownWrites() {
		return this.ownWrites;
	}

	/**
	 * Records that this call applied an object, whether or not a request had to be sent
	 * for it: a handler that prunes keeps what its call applied, and deletes the other
	 * objects it owns.
	 * @param resource the object's resource
	 * @param namespace its namespace, {@code null} if cluster-scoped
	 * @param name its name
	 */
	public void applied(ResourceKind resource, String namespace, String name) {
		this.applied.add(appliedId(resource, (namespace != null) ? namespace + "/" + name : name));
	}

	boolean hasApplied(ResourceKind resource, String key) {
		return this.applied.contains(appliedId(resource, key));
	}

	private static String appliedId(ResourceKind resource, String key) {
		return resource.group() + "/" + resource.kind() + "|" + key;
	}

	/**
	 * A write the next call for the key waits for.
	 *
	 * @param informer the informer that caches the object
	 * @param objectKey the object's key in that informer
	 * @param namespace the object's namespace, {@code null} if cluster-scoped
	 * @param resourceVersion the resourceVersion the server answered the write with
	 */
	record Write(ResourceInformer<?> informer, String objectKey, String namespace, String resourceVersion) {

		/**
		 * Whether the informer has caught up with the write: it caches that state of the
		 * object or a newer one, or it has seen a later change of the resource, so the
		 * write (or the delete of the object that followed it) is behind it.
		 */
		boolean seen() {
			KubernetesObject cached = this.informer.indexer().getByKey(this.objectKey);
			if (cached != null && ResourceInformer.compareResourceVersions(cached.getMetadata().getResourceVersion(),
					this.resourceVersion) >= 0) {
				return true;
			}
			return this.informer.hasSeenAfter(this.namespace, this.resourceVersion);
		}

		/**
		 * The informer and key: a later write of the same object replaces an earlier one.
		 */
		String id() {
			return this.informer.spec().name() + "|" + this.objectKey;
		}

		static List<Write> merge(List<Write> earlier, Collection<Write> later) {
			Map<String, Write> merged = new LinkedHashMap<>();
			earlier.forEach((write) -> merged.put(write.id(), write));
			later.forEach((write) -> merged.put(write.id(), write));
			return List.copyOf(merged.values());
		}

	}

}
