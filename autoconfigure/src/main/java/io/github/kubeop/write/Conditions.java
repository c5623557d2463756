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

package io.github.kubeop.write;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.kubernetes.client.openapi.models.V1Condition;

/**
 * Helpers for {@code status.conditions} lists with the semantics of apimachinery's
 * {@code meta.SetStatusCondition}: a condition's {@code lastTransitionTime} changes only
 * when its {@code status} changes, so that readers can tell how long a state has held.
 * <p>
 * The helpers never mutate their arguments and return new lists, so they suit immutable
 * status records.
 * <p>
 * Which one to use depends on the write. A server-side apply
 * ({@link KubernetesTemplate#applyStatus}) claims every condition it carries, so it must
 * carry only the operator's own: {@link #toApply} returns exactly those, with their
 * transition times kept from the current list
 * ({@code new Status(Conditions.toApply(status.conditions(), ready))}). A write that
 * replaces the whole status ({@link KubernetesTemplate#update}) must carry every
 * condition: {@link #set} returns the current list with one condition set.
 *
 * @author Kubeop authors
 */
public final class Conditions {

	private Conditions() {
	}

	/**
	 * Returns the conditions an operator applies: exactly the given ones, each with the
	 * {@code lastTransitionTime} of the current condition of its type while its
	 * {@code status} stays the same, else now (or the time it carries). Conditions of
	 * other types are left out, since an apply that carried another manager's condition
	 * would co-own it (and, with {@code force}, overwrite its next change with the value
	 * read); a condition the operator stops applying is removed by the API server.
	 * @param current the current conditions, may be {@code null}
	 * @param conditions the conditions the operator sets, each with at least a type and a
	 * status
	 * @return the new list
	 */
	public static List<V1Condition> toApply(List<V1Condition> current, V1Condition... conditions) {
		List<V1Condition> result = new ArrayList<>();
		for (V1Condition condition : conditions) {
			Objects.requireNonNull(condition.getType(), "condition type must not be null");
			V1Condition applied = copy(condition);
			Optional<V1Condition> existing = find(current, condition.getType());
			if (existing.isPresent() && Objects.equals(existing.get().getStatus(), condition.getStatus())
					&& existing.get().getLastTransitionTime() != null) {
				applied.lastTransitionTime(existing.get().getLastTransitionTime());
			}
			else {
				applied.lastTransitionTime(transitionTime(condition));
			}
			result.add(applied);
		}
		return result;
	}

	/**
	 * Returns a copy of the conditions in which the condition of the given type is set,
	 * for writes that replace the whole status; a server-side apply takes
	 * {@link #toApply} instead. A new type is appended, with its
	 * {@code lastTransitionTime} set to now when it has none. For an existing type,
	 * {@code reason}, {@code message} and {@code observedGeneration} are taken from the
	 * given condition, while {@code lastTransitionTime} is kept unless the {@code status}
	 * changes.
	 * @param conditions the current conditions, may be {@code null}
	 * @param condition the condition to set, with at least a type and a status
	 * @return the new list
	 */
	public static List<V1Condition> set(List<V1Condition> conditions, V1Condition condition) {
		Objects.requireNonNull(condition.getType(), "condition type must not be null");
		List<V1Condition> result = new ArrayList<>();
		boolean found = false;
		for (V1Condition existing : (conditions != null) ? conditions : List.<V1Condition>of()) {
			if (!existing.getType().equals(condition.getType())) {
				result.add(copy(existing));
				continue;
			}
			found = true;
			V1Condition updated = copy(existing);
			if (!Objects.equals(existing.getStatus(), condition.getStatus())) {
				updated.status(condition.getStatus()).lastTransitionTime(transitionTime(condition));
			}
			updated.reason(condition.getReason())
				.message(condition.getMessage())
				.observedGeneration(condition.getObservedGeneration());
			result.add(updated);
		}
		if (!found) {
			result.add(copy(condition).lastTransitionTime(transitionTime(condition)));
		}
		return result;
	}

	/**
	 * Finds the condition of a type.
	 * @param conditions the conditions, may be {@code null}
	 * @param type the condition type
	 * @return the condition, if present
	 */
	public static Optional<V1Condition> find(List<V1Condition> conditions, String type) {
		if (conditions == null) {
			return Optional.empty();
		}
		return conditions.stream().filter((condition) -> type.equals(condition.getType())).findFirst();
	}

	/**
	 * Returns whether the condition of a type is present with status {@code True}.
	 * @param conditions the conditions, may be {@code null}
	 * @param type the condition type
	 * @return whether it is true
	 */
	public static boolean isTrue(List<V1Condition> conditions, String type) {
		return find(conditions, type).map((condition) -> "True".equals(condition.getStatus())).orElse(false);
	}

	/**
	 * Returns a copy of the conditions without the condition of a type.
	 * @param conditions the conditions, may be {@code null}
	 * @param type the condition type
	 * @return the new list
	 */
	public static List<V1Condition> remove(List<V1Condition> conditions, String type) {
		List<V1Condition> result = new ArrayList<>();
		if (conditions != null) {
			conditions.stream()
				.filter((condition) -> !type.equals(condition.getType()))
				.forEach((condition) -> result.add(copy(condition)));
		}
		return result;
	}

	private static OffsetDateTime transitionTime(V1Condition condition) {
		// Whole seconds: the API server stores RFC 3339 seconds, so a finer time would
		// read
		// back as a different value and look like a change on the next comparison.
		return (condition.getLastTransitionTime() != null) ? condition.getLastTransitionTime()
				: OffsetDateTime.now().withNano(0);
	}

	private static V1Condition copy(V1Condition condition) {
		return new V1Condition().type(condition.getType())
			.status(condition.getStatus())
			.reason(condition.getReason())
			.message(condition.getMessage())
			.observedGeneration(condition.getObservedGeneration())
			.lastTransitionTime(condition.getLastTransitionTime());
	}

}
