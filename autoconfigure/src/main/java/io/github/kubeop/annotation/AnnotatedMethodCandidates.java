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

package io.github.kubeop.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ConcurrentReferenceHashMap;
import org.springframework.util.ReflectionUtils;

/**
 * A quick first test of whether a class may have methods annotated with one of a set of
 * annotations, directly or through a composed annotation, on the class's own methods or
 * on those of any superclass or interface. A bean post-processor that looks for annotated
 * methods asks it first for every bean, and searches a method's hierarchy (which Spring's
 * merged annotations do method by method, the costly part) only for the few classes it
 * accepts: at start-up, every method of every bean of the application came through that
 * search, about a tenth of Kubeop's share of the main thread.
 * <p>
 * It may accept a class that has no such method after all (an annotated method of an
 * interface the class does not implement the method of); it never rejects one that has.
 * Answers are cached per class.
 *
 * @author Kubeop authors
 */
public final class AnnotatedMethodCandidates {

	private final Set<Class<? extends Annotation>> annotations;

	private final Map<Class<?>, Boolean> classes = new ConcurrentReferenceHashMap<>();

	private final Map<Class<? extends Annotation>, Boolean> annotationTypes = new ConcurrentReferenceHashMap<>();

	/**
	 * Creates a filter for methods carrying one of the annotations.
	 * @param annotations the annotation types
	 */
	public AnnotatedMethodCandidates(Set<Class<? extends Annotation>> annotations) {
		this.annotations = Set.copyOf(annotations);
	}

	/**
	 * Returns whether the class, or one of its superclasses or interfaces, declares a
	 * method carrying one of the annotations.
	 * @param type the class, or {@code null}
	 * @return {@code false} if no method of the class can carry one
	 */
	public boolean mayDeclare(Class<?> type) {
		if (type == null || type.isPrimitive() || type.isArray() || type.getName().startsWith("java.")) {
			return false;
		}
		return this.classes.computeIfAbsent(type, this::search);
	}

	private boolean search(Class<?> type) {
		Set<Class<?>> seen = new HashSet<>();
		Deque<Class<?>> pending = new ArrayDeque<>();
		pending.add(type);
		while (!pending.isEmpty()) {
			Class<?> current = pending.poll();
			if (current == Object.class || current.getName().startsWith("java.") || !seen.add(current)) {
				continue;
			}
			for (Method method : ReflectionUtils.getDeclaredMethods(current)) {
				for (Annotation annotation : method.getDeclaredAnnotations()) {
					if (isOrComposes(annotation.annotationType())) {
						return true;
					}
				}
			}
			if (current.getSuperclass() != null) {
				pending.add(current.getSuperclass());
			}
			for (Class<?> implemented : current.getInterfaces()) {
				pending.add(implemented);
			}
		}
		return false;
	}

	private boolean isOrComposes(Class<? extends Annotation> annotationType) {
		if (this.annotations.contains(annotationType)) {
			return true;
		}
		if (annotationType.getName().startsWith("java.")) {
			return false;
		}
		return this.annotationTypes.computeIfAbsent(annotationType, (type) -> {
			MergedAnnotations meta = MergedAnnotations.from(type);
			return this.annotations.stream().anyMatch(meta::isPresent);
		});
	}

}
