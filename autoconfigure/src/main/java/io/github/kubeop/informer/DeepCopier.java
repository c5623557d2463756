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

package io.github.kubeop.informer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Deep copies of cached objects, for code that may change what it is handed: handler
 * methods and the {@code Lister}/{@code Indexer} beans. A copy equals its original and
 * shares no mutable object with it; what cannot change is shared, not copied: strings (so
 * that strings the lean cache pooled stay pooled), boxed primitives, enums,
 * {@code java.time} values, {@link Quantity} and {@link IntOrString} (neither has a
 * mutator), Gson's {@link JsonPrimitive}. Byte arrays, lists, sets, maps, Gson trees
 * ({@link JsonElement#deepCopy()}, so a {@code DynamicKubernetesObject} copies its raw
 * JSON) and objects of any other class are copied.
 * <p>
 * Objects of the client's generated models, typed custom resources and any other class
 * are copied field by field, by a plan built once per class by reflection: the new
 * instance is allocated without running a constructor (as Gson does for classes without a
 * no-argument constructor), so that field initializers do not allocate what the copy
 * overwrites at once, and every instance field, final ones included, is set from the
 * original. Records are rebuilt through their canonical constructor. A copy of a
 * realistic Pod with its status allocates 8.8 KB, where a JSON round trip through the
 * client's Gson allocates 720 KB ({@code DeepCopyBenchmark}).
 * <p>
 * Objects are copied as trees, as they are decoded from JSON: an object reachable twice
 * is copied twice, and a graph with a cycle cannot be copied. A class of the JDK that is
 * neither known to be immutable nor a collection is shared as it is, with a warning
 * logged once per class.
 * <p>
 * The JVM system property {@value #DISABLE_PROPERTY} set to {@code true} turns copying
 * off for the whole JVM: handlers and the {@code Lister}/{@code Indexer} beans are then
 * handed the cache's own instances, which nothing may change. It exists for operators
 * that measured the copies to matter and promise never to mutate what they receive.
 *
 * @author Kubeop authors
 */
public final class DeepCopier {

	/**
	 * The JVM system property that, set to {@code true}, turns copying off: handlers and
	 * the {@code Lister}/{@code Indexer} beans get the cache's own instances.
	 */
	public static final String DISABLE_PROPERTY = "kubeop.unsafe-disable-deep-copy";

	private static final Log logger = LogFactory.getLog(DeepCopier.class);

	private static final boolean disabled = Boolean.getBoolean(DISABLE_PROPERTY);

	private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Character.class, Byte.class,
			Short.class, Integer.class, Long.class, Float.class, Double.class, BigDecimal.class, BigInteger.class,
			UUID.class, URI.class, Pattern.class, Class.class, Quantity.class, IntOrString.class, JsonPrimitive.class,
			JsonNull.class);

	private static final Copy SHARE = (source) -> source;

	private static final MethodHandle allocateInstance = allocateInstance();

	private static final ClassValue<Copy> plans = new ClassValue<>() {

		@Override
		protected Copy computeValue(Class<?> type) {
			return plan(type);
		}

	};

	private DeepCopier() {
	}

	/**
	 * Returns whether copying is turned off for this JVM by {@value #DISABLE_PROPERTY}.
	 * @return whether objects are handed out without copies
	 */
	public static boolean disabled() {
		return disabled;
	}

	/**
	 * Returns a deep copy of an object.
	 * @param <T> the object's type
	 * @param object the object, or {@code null}
	 * @return the copy, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	public static <T> T copy(T object) {
		return (object != null) ? (T) plans.get(object.getClass()).copy(object) : null;
	}

	/**
	 * Returns a deep copy of an object, or the object itself when copying is turned off
	 * by {@value #DISABLE_PROPERTY}: what Kubeop hands to code that may change it.
	 * @param <T> the object's type
	 * @param object the object, or {@code null}
	 * @return the copy, or the object itself
	 */
	public static <T> T isolate(T object) {
		return disabled ? object : copy(object);
	}

	private static Copy plan(Class<?> type) {
		if (isImmutable(type)) {
			return SHARE;
		}
		if (type.isArray()) {
			return arrayPlan(type);
		}
		if (JsonElement.class.isAssignableFrom(type)) {
			return (source) -> ((JsonElement) source).deepCopy();
		}
		if (Map.class.isAssignableFrom(type)) {
			return mapPlan(type);
		}
		if (Collection.class.isAssignableFrom(type)) {
			return collectionPlan(type);
		}
		if (type == Date.class) {
			return (source) -> ((Date) source).clone();
		}
		if (type.isRecord()) {
			return recordPlan(type);
		}
		String packageName = type.getPackageName();
		if (packageName.startsWith("java.") || packageName.startsWith("javax.") || packageName.startsWith("jdk.")
				|| packageName.startsWith("sun.") || type.isHidden() || type.isSynthetic()) {
			// its fields are not open to reflection, and it was not decoded from JSON
			logger.warn("Objects of " + type.getName() + " cannot be copied and are shared with the informer cache; "
					+ "do not change them");
			return SHARE;
		}
		return objectPlan(type);
	}

	private static boolean isImmutable(Class<?> type) {
		return type.isPrimitive() || IMMUTABLE.contains(type) || Enum.class.isAssignableFrom(type)
				|| (type.getPackageName().equals("java.time") && !type.isInterface());
	}

	private static Copy arrayPlan(Class<?> type) {
		Class<?> component = type.getComponentType();
		if (component == byte.class) {
			return (source) -> ((byte[]) source).clone();
		}
		if (component.isPrimitive()) {
			return (source) -> {
				int length = java.lang.reflect.Array.getLength(source);
				Object copy = java.lang.reflect.Array.newInstance(component, length);
				System.arraycopy(source, 0, copy, 0, length);
				return copy;
			};
		}
		return (source) -> {
			Object[] copy = ((Object[]) source).clone();
			for (int i = 0; i < copy.length; i++) {
				copy[i] = copy(copy[i]);
			}
			return copy;
		};
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static Copy mapPlan(Class<?> type) {
		if (SortedMap.class.isAssignableFrom(type)) {
			return (source) -> fill(new TreeMap(((SortedMap) source).comparator()), (Map<?, ?>) source);
		}
		if (type == ConcurrentHashMap.class) {
			return (source) -> fill(new ConcurrentHashMap(), (Map<?, ?>) source);
		}
		if (type == HashMap.class) {
			return (source) -> fill(new HashMap(capacity(((Map<?, ?>) source).size())), (Map<?, ?>) source);
		}
		// Gson's LinkedTreeMap, immutable maps and any other map: the same entries in the
		// same order
		return (source) -> fill(new LinkedHashMap(capacity(((Map<?, ?>) source).size())), (Map<?, ?>) source);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static Copy collectionPlan(Class<?> type) {
		if (type == LinkedList.class) {
			return (source) -> fill(new LinkedList(), (Collection<?>) source);
		}
		if (type == ArrayDeque.class) {
			return (source) -> fill(new ArrayDeque(((Collection<?>) source).size()), (Collection<?>) source);
		}
		if (SortedSet.class.isAssignableFrom(type)) {
			return (source) -> fill(new TreeSet(((SortedSet) source).comparator()), (Collection<?>) source);
		}
		if (type == HashSet.class) {
			return (source) -> fill(new HashSet(capacity(((Collection<?>) source).size())), (Collection<?>) source);
		}
		if (Set.class.isAssignableFrom(type)) {
			return (source) -> fill(new LinkedHashSet(capacity(((Collection<?>) source).size())),
					(Collection<?>) source);
		}
		// ArrayList, immutable lists and any other collection: the same elements in the
		// same order
		return (source) -> fill(new ArrayList(((Collection<?>) source).size()), (Collection<?>) source);
	}

	private static Map<Object, Object> fill(Map<Object, Object> copy, Map<?, ?> source) {
		for (Map.Entry<?, ?> entry : source.entrySet()) {
			copy.put(copy(entry.getKey()), copy(entry.getValue()));
		}
		return copy;
	}

	private static Collection<Object> fill(Collection<Object> copy, Collection<?> source) {
		for (Object element : source) {
			copy.add(copy(element));
		}
		return copy;
	}

	private static int capacity(int size) {
		return (int) (size / 0.75f) + 1;
	}

	private static Copy recordPlan(Class<?> type) {
		RecordComponent[] components = type.getRecordComponents();
		Method[] accessors = new Method[components.length];
		Class<?>[] types = new Class<?>[components.length];
		for (int i = 0; i < components.length; i++) {
			accessors[i] = components[i].getAccessor();
			accessors[i].setAccessible(true);
			types[i] = components[i].getType();
		}
		Constructor<?> canonical;
		try {
			canonical = type.getDeclaredConstructor(types);
			canonical.setAccessible(true);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException("Record " + type.getName() + " has no canonical constructor", ex);
		}
		return (source) -> {
			Object[] values = new Object[accessors.length];
			try {
				for (int i = 0; i < accessors.length; i++) {
					values[i] = copy(accessors[i].invoke(source));
				}
				return canonical.newInstance(values);
			}
			catch (InvocationTargetException ex) {
				throw new IllegalStateException("Cannot copy " + type.getName() + ": " + ex.getCause(), ex.getCause());
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot copy " + type.getName(), ex);
			}
		};
	}

	private static Copy objectPlan(Class<?> type) {
		List<Field> shared = new ArrayList<>();
		List<Field> copied = new ArrayList<>();
		for (Class<?> declaring = type; declaring != null
				&& declaring != Object.class; declaring = declaring.getSuperclass()) {
			for (Field field : declaring.getDeclaredFields()) {
				if (Modifier.isStatic(field.getModifiers())) {
					continue;
				}
				field.setAccessible(true);
				Class<?> declared = field.getType();
				// a final class known to be immutable needs no look at the value's class
				boolean immutable = Modifier.isFinal(declared.getModifiers()) && isImmutable(declared);
				(immutable ? shared : copied).add(field);
			}
		}
		Field[] sharedFields = shared.toArray(new Field[0]);
		Field[] copiedFields = copied.toArray(new Field[0]);
		Instantiator instantiator = instantiator(type);
		// an instance allocated without a constructor holds nulls and zeros already: most
		// fields of a model are unset, and are skipped
		boolean zeroed = instantiator.zeroed();
		return (source) -> {
			try {
				Object copy = instantiator.newInstance();
				for (Field field : sharedFields) {
					Object value = field.get(source);
					if (value != null || !zeroed) {
						field.set(copy, value);
					}
				}
				for (Field field : copiedFields) {
					Object value = field.get(source);
					if (value != null || !zeroed) {
						field.set(copy, copy(value));
					}
				}
				return copy;
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot copy " + type.getName(), ex);
			}
		};
	}

	/**
	 * Allocates instances without running a constructor: every field is set from the
	 * original right after. Falls back to the no-argument constructor where allocation is
	 * not available.
	 */
	private static Instantiator instantiator(Class<?> type) {
		if (allocateInstance != null && !Modifier.isAbstract(type.getModifiers())) {
			MethodHandle allocate = MethodHandles.insertArguments(allocateInstance, 0, type);
			return new Instantiator() {

				@Override
				public Object newInstance() throws ReflectiveOperationException {
					try {
						return (Object) allocate.invokeExact();
					}
					catch (ReflectiveOperationException | RuntimeException | Error ex) {
						throw ex;
					}
					catch (Throwable ex) {
						throw new InstantiationException(type.getName() + ": " + ex);
					}
				}

				@Override
				public boolean zeroed() {
					return true;
				}

			};
		}
		try {
			Constructor<?> constructor = type.getDeclaredConstructor();
			constructor.setAccessible(true);
			return constructor::newInstance;
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(
					"Cannot copy objects of " + type.getName() + ": it has no constructor without arguments ("
							+ Arrays.toString(type.getDeclaredConstructors()) + ")",
					ex);
		}
	}

	/**
	 * Returns {@code sun.misc.Unsafe.allocateInstance(Class)} bound to the instance, as
	 * Gson uses it for classes without a no-argument constructor, or {@code null} where
	 * it is not available.
	 */
	private static MethodHandle allocateInstance() {
		try {
			Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
			Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
			theUnsafe.setAccessible(true);
			return MethodHandles.lookup()
				.findVirtual(unsafeClass, "allocateInstance", MethodType.methodType(Object.class, Class.class))
				.bindTo(theUnsafe.get(null));
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	@FunctionalInterface
	private interface Copy {

		Object copy(Object source);

	}

	@FunctionalInterface
	private interface Instantiator {

		Object newInstance() throws ReflectiveOperationException;

		/**
		 * Whether new instances hold only nulls and zeros, no constructor having run.
		 */
		default boolean zeroed() {
			return false;
		}

	}

}
