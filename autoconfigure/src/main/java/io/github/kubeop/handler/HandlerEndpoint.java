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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import io.kubernetes.client.common.KubernetesObject;

/**
 * The handler methods of one bean for one resource, with their filters: what a
 * {@link Controller} calls. Built by the annotation processor, or by hand for the
 * programmatic {@link HandlerRegistrar}.
 *
 * @param name the handler name, used for its queue, threads, metrics and properties
 * @param informerName the informer to listen to, or {@code null} to pick it by type
 * @param resourceType the resource type
 * @param methods the methods, in declaration order
 * @param namespaces namespaces to handle, empty for all
 * @param labelSelector label selector objects must match, in Kubernetes' string form, or
 * {@code null}; a selector the API server would reject is an
 * {@link IllegalArgumentException}
 * @param owned owned types whose changes re-trigger their owner, by informer name (empty
 * for by type)
 * @param references types whose objects the handled objects reference, and how
 * @param queue how the handler's queue orders keys, as declared with the handler (its
 * properties may override it)
 * @author Kubeop authors
 */
public record HandlerEndpoint(String name, String informerName, Class<? extends KubernetesObject> resourceType,
		List<HandlerMethod> methods, Set<String> namespaces, String labelSelector,
		Map<Class<? extends KubernetesObject>, String> owned, List<Reference> references, QueueSettings queue) {

	public HandlerEndpoint {
		queue = (queue != null) ? queue : QueueSettings.UNSET;
		methods = List.copyOf(methods);
		references = List.copyOf(references);
		namespaces = Set.copyOf(namespaces);
		owned = Map.copyOf(owned);
		labelSelector = (labelSelector == null || labelSelector.isBlank()) ? null : labelSelector;
		try {
			// a selector the API server would reject fails registration, not every event
			LabelSelector.parse(labelSelector);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Handler '" + name + "': " + ex.getMessage(), ex);
		}
		checkCleanup(name, methods);
	}

	/**
	 * Creates an endpoint without references, whose queue settings come from the
	 * properties alone.
	 * @param name the handler name
	 * @param informerName the informer, or {@code null} to pick it by type
	 * @param resourceType the resource type
	 * @param methods the methods
	 * @param namespaces namespaces to handle, empty for all
	 * @param labelSelector the label selector, or {@code null}
	 * @param owned owned types by informer name
	 */
	public HandlerEndpoint(String name, String informerName, Class<? extends KubernetesObject> resourceType,
			List<HandlerMethod> methods, Set<String> namespaces, String labelSelector,
			Map<Class<? extends KubernetesObject>, String> owned) {
		this(name, informerName, resourceType, methods, namespaces, labelSelector, owned, List.of(),
				QueueSettings.UNSET);
	}

	/**
	 * Fails for a handler with more than one cleanup method, a cleanup method without a
	 * finalizer, or one without a method that adds the finalizer (reconcile, add or
	 * update).
	 */
	private static void checkCleanup(String name, List<HandlerMethod> methods) {
		List<HandlerMethod> cleanups = methods.stream()
			.filter((method) -> method.kind() == HandlerMethod.Kind.CLEANUP)
			.toList();
		if (cleanups.isEmpty()) {
			return;
		}
		if (cleanups.size() > 1) {
			throw new IllegalArgumentException("Handler '" + name + "' has " + cleanups.size() + " cleanup methods ("
					+ cleanups + "); one finalizer guards an object, so keep one");
		}
		if (cleanups.get(0).finalizer() == null) {
			throw new IllegalArgumentException("Handler '" + name + "': cleanup method " + cleanups.get(0)
					+ " has no finalizer; declare it with HandlerMethod.withFinalizer");
		}
		boolean addsFinalizer = methods.stream().anyMatch((method) -> switch (method.kind()) {
			case ADD, UPDATE, RECONCILE -> true;
			default -> false;
		});
		if (!addsFinalizer) {
			throw new IllegalArgumentException("Handler '" + name + "': cleanup method " + cleanups.get(0)
					+ " needs a reconcile, add or update method for the same resource, before whose calls the "
					+ "finalizer is added");
		}
	}

	/**
	 * Returns the finalizer of this handler's cleanup method.
	 * @return the finalizer, or {@code null} if the handler has no cleanup method
	 */
	String finalizer() {
		return this.methods.stream()
			.filter((method) -> method.kind() == HandlerMethod.Kind.CLEANUP)
			.map(HandlerMethod::finalizer)
			.findFirst()
			.orElse(null);
	}

	/**
	 * Starts a handler built from code, for
	 * {@link HandlerRegistrar#register(HandlerEndpoint)}.
	 * @param <T> the resource type
	 * @param name the handler name
	 * @param resourceType the resource type
	 * @return the builder
	 */
	public static <T extends KubernetesObject> Builder<T> builder(String name, Class<T> resourceType) {
		return new Builder<>(name, resourceType);
	}

	List<HandlerMethod> methods(HandlerMethod.Kind kind) {
		List<HandlerMethod> selected = new ArrayList<>();
		for (HandlerMethod method : this.methods) {
			// a reconcile method is called for adds and updates alike, never for deletes
			boolean reconciles = method.kind() == HandlerMethod.Kind.RECONCILE
					&& (kind == HandlerMethod.Kind.ADD || kind == HandlerMethod.Kind.UPDATE);
			if (method.kind() == kind || reconciles) {
				selected.add(method);
			}
		}
		return selected;
	}

	boolean wantsResync() {
		return this.methods.stream().anyMatch(HandlerMethod::wantsResync);
	}

	/**
	 * Builds a {@link HandlerEndpoint} from code.
	 *
	 * @param <T> the resource type
	 */
	public static final class Builder<T extends KubernetesObject> {

		private final String name;

		private final Class<T> resourceType;

		private final List<HandlerMethod> methods = new ArrayList<>();

		private final Map<Class<? extends KubernetesObject>, String> owned = new LinkedHashMap<>();

		private final List<Reference> references = new ArrayList<>();

		private String informer;

		private Set<String> namespaces = Set.of();

		private String labelSelector;

		private QueueSettings queue = QueueSettings.UNSET;

		private Builder(String name, Class<T> resourceType) {
			this.name = name;
			this.resourceType = resourceType;
		}

		/**
		 * Listens to a named informer instead of the one picked by type.
		 * @param informer the informer name
		 * @return this builder
		 */
		public Builder<T> informer(String informer) {
			this.informer = informer;
			return this;
		}

		/**
		 * Handles objects in these namespaces only.
		 * @param namespaces the namespaces
		 * @return this builder
		 */
		public Builder<T> namespaces(String... namespaces) {
			this.namespaces = Set.of(namespaces);
			return this;
		}

		/**
		 * Handles objects matching a label selector only.
		 * @param labelSelector the selector
		 * @return this builder
		 */
		public Builder<T> labelSelector(String labelSelector) {
			this.labelSelector = labelSelector;
			return this;
		}

		/**
		 * Re-triggers the owner's update handling when an owned object of this type
		 * changes.
		 * @param type the owned type
		 * @return this builder
		 */
		public Builder<T> owns(Class<? extends KubernetesObject> type) {
			this.owned.put(type, "");
			return this;
		}

		/**
		 * Calls the handler's update handling when an object the handled object
		 * references changes; see {@link io.github.kubeop.annotation.References}.
		 * @param reference the reference
		 * @return this builder
		 */
		public Builder<T> references(Reference reference) {
			this.references.add(reference);
			return this;
		}

		/**
		 * Calls an action for added objects.
		 * @param action the action
		 * @return this builder
		 */
		public Builder<T> onAdd(Consumer<T> action) {
			return on(HandlerMethod.Kind.ADD, false, (oldObject, object, context) -> {
				action.accept(object);
				return null;
			});
		}

		/**
		 * Calls an action for changed objects, with the old and the new state.
		 * @param action the action
		 * @return this builder
		 */
		public Builder<T> onUpdate(BiConsumer<T, T> action) {
			return on(HandlerMethod.Kind.UPDATE, false, (oldObject, object, context) -> {
				action.accept(oldObject, object);
				return null;
			});
		}

		/**
		 * Calls an action for deleted objects, with their final state.
		 * @param action the action
		 * @return this builder
		 */
		public Builder<T> onDelete(Consumer<T> action) {
			return on(HandlerMethod.Kind.DELETE, false, (oldObject, object, context) -> {
				action.accept(object);
				return null;
			});
		}

		/**
		 * Calls an action for objects being deleted that hold a finalizer, which Kubeop
		 * adds before the handler's other calls and removes once the action returned; see
		 * {@link io.github.kubeop.annotation.Cleanup}.
		 * @param finalizer the finalizer, a qualified name such as
		 * {@code sample.kubeop.io/cleanup}
		 * @param action the cleanup
		 * @return this builder
		 */
		public Builder<T> onCleanup(String finalizer, Consumer<T> action) {
			this.methods.add(HandlerMethod.of(HandlerMethod.Kind.CLEANUP, this.resourceType, this.name + " onCleanup",
					false, false, (oldObject, object, context) -> {
						action.accept(object);
						return null;
					})
				.withFinalizer(finalizer));
			return this;
		}

		/**
		 * Adds code for one kind of event, with full control over the context and the
		 * requeue delay.
		 * @param kind the kind of event
		 * @param resync whether resyncs are delivered (updates only)
		 * @param invoker the code
		 * @return this builder
		 */
		public Builder<T> on(HandlerMethod.Kind kind, boolean resync, HandlerMethod.Invoker<T> invoker) {
			this.methods.add(HandlerMethod.of(kind, this.resourceType,
					this.name + " on" + kind.name().charAt(0) + kind.name().substring(1).toLowerCase(), resync, false,
					invoker));
			return this;
		}

		/**
		 * Orders the handler's queue so: priorities, fairness.
		 * @param queue the settings; unset values come from the properties
		 * @return this builder
		 */
		public Builder<T> queue(QueueSettings queue) {
			this.queue = queue;
			return this;
		}

		/**
		 * Builds the endpoint.
		 * @return the endpoint
		 */
		public HandlerEndpoint build() {
			return new HandlerEndpoint(this.name, this.informer, this.resourceType, this.methods, this.namespaces,
					this.labelSelector, this.owned, this.references, this.queue);
		}

	}

}
