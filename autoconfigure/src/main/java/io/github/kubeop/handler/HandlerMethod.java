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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.ReflectionUtils;

/**
 * One annotated method, checked once at startup and called for events: which parameter
 * gets the object, the old object and the context, and what the return value means.
 *
 * @author Kubeop authors
 */
public final class HandlerMethod {

	/**
	 * The kind of event a method handles.
	 */
	public enum Kind {

		/**
		 * {@code @OnAdd}.
		 */
		ADD,

		/**
		 * {@code @OnUpdate}.
		 */
		UPDATE,

		/**
		 * {@code @OnDelete}.
		 */
		DELETE,

		/**
		 * {@code @Reconcile}: level-based, called for adds and updates with the current
		 * object only.
		 */
		RECONCILE,

		/**
		 * {@code @Cleanup}: called for an object being deleted that holds the method's
		 * {@link HandlerMethod#finalizer() finalizer}.
		 */
		CLEANUP

	}

	private static final Set<Class<?>> RETURN_TYPES = Set.of(void.class, Void.class, Duration.class, Result.class);

	private final Kind kind;

	private final Class<? extends KubernetesObject> resourceType;

	private final Invoker<Object> invoker;

	private final String description;

	private final boolean resync;

	private final boolean generationChanged;

	private final String finalizer;

	private final boolean ownWrites;

	private final boolean prune;

	private HandlerMethod(Kind kind, Class<? extends KubernetesObject> resourceType, Invoker<?> invoker,
			String description, boolean resync, boolean generationChanged) {
		this(kind, resourceType, invoker, description, resync, generationChanged, null, false, false);
	}

	@SuppressWarnings("unchecked")
	private HandlerMethod(Kind kind, Class<? extends KubernetesObject> resourceType, Invoker<?> invoker,
			String description, boolean resync, boolean generationChanged, String finalizer, boolean ownWrites,
			boolean prune) {
		this.kind = kind;
		this.resourceType = resourceType;
		this.invoker = (Invoker<Object>) invoker;
		this.description = description;
		this.resync = resync;
		this.generationChanged = generationChanged;
		this.finalizer = finalizer;
		this.ownWrites = ownWrites;
		this.prune = prune;
	}

	/**
	 * Returns a handler method backed by code rather than an annotated method, for the
	 * programmatic {@link HandlerRegistrar}.
	 * @param <T> the resource type
	 * @param kind what it handles
	 * @param resourceType the resource type
	 * @param description a name for logs
	 * @param resync whether it wants resync calls (updates only)
	 * @param generationChanged whether it wants generation changes only (updates only)
	 * @param invoker the code to call
	 * @return the handler method
	 */
	public static <T extends KubernetesObject> HandlerMethod of(Kind kind, Class<T> resourceType, String description,
			boolean resync, boolean generationChanged, Invoker<T> invoker) {
		return new HandlerMethod(kind, resourceType, invoker, description, resync, generationChanged);
	}

	/**
	 * Checks a method and prepares it for calls.
	 * @param bean the bean to call it on (a proxy is fine)
	 * @param method the method, as declared on the bean's class
	 * @param kind what it handles
	 * @param declaredType the resource type an annotation names through its informer, or
	 * {@code null} to take it from the parameters
	 * @param resync whether it wants resync calls (updates only)
	 * @param generationChanged whether it wants generation changes only (updates only)
	 * @return the handler method
	 * @throws InvalidHandlerMethodException naming the method and the fix
	 */
	public static HandlerMethod of(Object bean, Method method, Kind kind,
			Class<? extends KubernetesObject> declaredType, boolean resync, boolean generationChanged) {
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		if (!RETURN_TYPES.contains(method.getReturnType())) {
			throw new InvalidHandlerMethodException(method,
					"returns " + method.getReturnType().getSimpleName() + ", which Kubeop cannot use",
					"Return void, a java.time.Duration or an io.github.kubeop.handler.Result (to be called again "
							+ "after a delay).");
		}
		Class<?>[] types = method.getParameterTypes();
		Argument[] arguments = new Argument[types.length];
		List<Integer> objectPositions = new ArrayList<>();
		Class<? extends KubernetesObject> resourceType = declaredType;
		for (int i = 0; i < types.length; i++) {
			if (types[i] == HandlerContext.class) {
				arguments[i] = Argument.CONTEXT;
			}
			else if (KubernetesObject.class.isAssignableFrom(types[i])) {
				@SuppressWarnings("unchecked")
				Class<? extends KubernetesObject> type = (Class<? extends KubernetesObject>) types[i];
				if (resourceType != null && !type.isAssignableFrom(resourceType)
						&& !resourceType.isAssignableFrom(type)) {
					throw new InvalidHandlerMethodException(method,
							"takes both " + resourceType.getSimpleName() + " and " + type.getSimpleName(),
							"Declare every object parameter with the same resource type.");
				}
				resourceType = (resourceType == null || resourceType.isAssignableFrom(type)) ? type : resourceType;
				objectPositions.add(i);
			}
			else {
				throw new InvalidHandlerMethodException(method,
						"has parameter " + (i + 1) + " of type " + types[i].getName() + ", which Kubeop cannot supply",
						"Handler methods take the Kubernetes object (such as V1Pod), for @OnUpdate optionally "
								+ "the old and the new object, and optionally an io.github.kubeop.handler.HandlerContext.");
			}
		}
		int maxObjects = (kind == Kind.UPDATE) ? 2 : 1;
		if (objectPositions.size() > maxObjects) {
			throw new InvalidHandlerMethodException(method, "takes " + objectPositions.size() + " objects",
					(kind == Kind.UPDATE) ? "An @OnUpdate method takes the old and the new object, or the new one."
							: "An @" + switch (kind) {
								case ADD -> "OnAdd";
								case DELETE -> "OnDelete";
								case CLEANUP -> "Cleanup";
								default -> "Reconcile";
							} + " method takes one object.");
		}
		if (resourceType == null) {
			throw new InvalidHandlerMethodException(method, "does not say which resource it handles",
					"Add a parameter of the resource's type (such as V1Pod), or name the informer in the "
							+ "annotation's 'informer' attribute.");
		}
		if (objectPositions.size() == 2) {
			arguments[objectPositions.get(0)] = Argument.OLD;
			arguments[objectPositions.get(1)] = Argument.NEW;
		}
		else if (objectPositions.size() == 1) {
			arguments[objectPositions.get(0)] = Argument.NEW;
		}
		return new HandlerMethod(kind, resourceType, reflective(bean, invocable, arguments),
				InvalidHandlerMethodException.describe(method), resync, generationChanged);
	}

	/**
	 * Returns this {@link Kind#CLEANUP cleanup} method guarded by a finalizer: Kubeop
	 * adds the finalizer before the handler's other methods are called, and removes it
	 * once this method has returned for an object being deleted.
	 * @param finalizer the finalizer, a qualified name such as
	 * {@code sample.kubeop.io/cleanup}
	 * @return the cleanup method
	 * @throws IllegalStateException if this is not a cleanup method
	 * @throws IllegalArgumentException if the finalizer is not a qualified name
	 */
	public HandlerMethod withFinalizer(String finalizer) {
		if (this.kind != Kind.CLEANUP) {
			throw new IllegalStateException(this.description + " is not a cleanup method");
		}
		if (finalizer == null || finalizer.indexOf('/') <= 0 || finalizer.endsWith("/")) {
			throw new IllegalArgumentException("finalizer '" + finalizer
					+ "' is not a qualified name: Kubernetes asks finalizers other than its own to be "
					+ "'<domain>/<name>', such as 'sample.kubeop.io/cleanup'");
		}
		return new HandlerMethod(this.kind, this.resourceType, this.invoker, this.description, this.resync,
				this.generationChanged, finalizer, this.ownWrites, this.prune);
	}

	/**
	 * Returns this {@link Kind#UPDATE update} or {@link Kind#RECONCILE reconcile} method
	 * called also for changes that only the handler's own writes made (off by default:
	 * such a change does not call the method again).
	 * @param ownWrites whether changes made only by the handler's own writes call it
	 * @return the method
	 * @see io.github.kubeop.annotation.Reconcile#ownWrites()
	 */
	public HandlerMethod withOwnWrites(boolean ownWrites) {
		return new HandlerMethod(this.kind, this.resourceType, this.invoker, this.description, this.resync,
				this.generationChanged, this.finalizer, ownWrites, this.prune);
	}

	/**
	 * Returns this {@link Kind#RECONCILE reconcile} method with pruning: after a call
	 * that returned normally, the owned objects it did not apply are deleted (see the
	 * Reconcile annotation's prune attribute for the rule).
	 * @param prune whether the method prunes
	 * @return the method
	 * @throws IllegalStateException if this is not a reconcile method
	 */
	public HandlerMethod withPruning(boolean prune) {
		if (prune && this.kind != Kind.RECONCILE) {
			throw new IllegalStateException(
					this.description + " is not a reconcile method: only a reconcile applies the whole desired state, "
							+ "so only after one can what it no longer applies be deleted");
		}
		return new HandlerMethod(this.kind, this.resourceType, this.invoker, this.description, this.resync,
				this.generationChanged, this.finalizer, this.ownWrites, prune);
	}

	/**
	 * Returns whether the method is called for changes that only the handler's own writes
	 * made.
	 * @return whether own writes call it again
	 */
	public boolean callsOnOwnWrites() {
		return this.ownWrites;
	}

	/**
	 * Returns whether the handler deletes, after this reconcile method returned, the
	 * owned objects the call did not apply.
	 * @return whether it prunes
	 */
	public boolean prunes() {
		return this.prune;
	}

	/**
	 * Returns the finalizer of a cleanup method.
	 * @return the finalizer, or {@code null} for other methods
	 */
	public String finalizer() {
		return this.finalizer;
	}

	/**
	 * Returns the resource type the method handles.
	 * @return the resource type
	 */
	public Class<? extends KubernetesObject> resourceType() {
		return this.resourceType;
	}

	/**
	 * Returns what the method handles.
	 * @return the kind
	 */
	public Kind kind() {
		return this.kind;
	}

	/**
	 * Returns whether the method wants resync calls.
	 * @return whether resyncs are delivered
	 */
	public boolean wantsResync() {
		return this.resync;
	}

	/**
	 * Returns whether the method wants generation changes only.
	 * @return whether only generation changes are delivered
	 */
	public boolean generationChangedOnly() {
		return this.generationChanged;
	}

	/**
	 * Calls the method.
	 * @param oldObject the old object (updates), or {@code null}
	 * @param newObject the object
	 * @param context the call context
	 * @return the delay after which to call again, or {@code null}
	 * @throws Exception what the method threw
	 */
	Duration invoke(Object oldObject, Object newObject, HandlerContext context) throws Exception {
		return this.invoker.invoke(oldObject, newObject, context);
	}

	private static Invoker<Object> reflective(Object bean, Method method, Argument[] arguments) {
		return (oldObject, newObject, context) -> {
			Object[] values = new Object[arguments.length];
			for (int i = 0; i < values.length; i++) {
				values[i] = switch (arguments[i]) {
					case OLD -> oldObject;
					case NEW -> newObject;
					case CONTEXT -> context;
				};
			}
			Object returned;
			try {
				returned = method.invoke(bean, values);
			}
			catch (InvocationTargetException ex) {
				if (ex.getCause() instanceof Exception exception) {
					throw exception;
				}
				throw ex;
			}
			catch (IllegalArgumentException | IllegalAccessException ex) {
				throw new ProgrammingError("Kubeop could not call " + InvalidHandlerMethodException.describe(method)
						+ ": " + ex.getMessage(), ex);
			}
			if (returned instanceof Duration duration) {
				return duration;
			}
			if (returned instanceof Result result) {
				HandlerCall call = HandlerCall.current();
				if (result.priority() != null && call != null) {
					call.requeuePriority(result.priority());
				}
				return result.requeueAfter();
			}
			return null;
		};
	}

	@Override
	public String toString() {
		return this.description;
	}

	/**
	 * The code behind a handler method.
	 *
	 * @param <T> the resource type
	 */
	@FunctionalInterface
	public interface Invoker<T> {

		/**
		 * Handles an event.
		 * @param oldObject the state delivered before (updates), or {@code null}
		 * @param object the object
		 * @param context the call context
		 * @return when to call again, or {@code null}
		 * @throws Exception to be retried with back-off
		 */
		Duration invoke(T oldObject, T object, HandlerContext context) throws Exception;

	}

	/**
	 * A failure retrying cannot fix because the code is wrong: the method could not be
	 * called with the arguments Kubeop resolved.
	 */
	static final class ProgrammingError extends RuntimeException {

		ProgrammingError(String message, Throwable cause) {
			super(message, cause);
		}

	}

	private enum Argument {

		OLD, NEW, CONTEXT

	}

}
