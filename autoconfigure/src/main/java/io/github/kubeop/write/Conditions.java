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
 * status records: {@code new Status(Conditions.set(status.conditions(), ready))}.
 *
 * @author Kubeop authors
 */
public final class Conditions {

	private Conditions() {
	}

	/**
	 * Returns a copy of the conditions in which the condition of the given type is set. A
	 * new type is appended, with its {@code lastTransitionTime} set to now when it has
	 * none. For an existing type, {@code reason}, {@code message} and
	 * {@code observedGeneration} are taken from the given condition, while
	 * {@code lastTransitionTime} is kept unless the {@code status} changes.
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
