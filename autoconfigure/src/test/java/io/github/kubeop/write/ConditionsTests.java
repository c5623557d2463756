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
import java.time.ZoneOffset;
import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Conditions}, with the cases of apimachinery's
 * {@code meta.SetStatusCondition}.
 *
 * @author Kubeop authors
 */
class ConditionsTests {

	private static final OffsetDateTime EARLIER = OffsetDateTime.of(2020, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

	@Test
	void newConditionIsAppendedWithATransitionTime() {
		List<V1Condition> conditions = Conditions.set(null, condition("Ready", "True", "Up"));
		assertThat(conditions).singleElement().satisfies((condition) -> {
			assertThat(condition.getStatus()).isEqualTo("True");
			assertThat(condition.getLastTransitionTime()).isNotNull();
		});
	}

	@Test
	void reasonChangeAloneKeepsTheTransitionTime() {
		List<V1Condition> before = List.of(condition("Ready", "True", "Up").lastTransitionTime(EARLIER));
		List<V1Condition> after = Conditions.set(before,
				condition("Ready", "True", "StillUp").message("fine").observedGeneration(3L));
		assertThat(after).singleElement().satisfies((condition) -> {
			assertThat(condition.getReason()).isEqualTo("StillUp");
			assertThat(condition.getMessage()).isEqualTo("fine");
			assertThat(condition.getObservedGeneration()).isEqualTo(3L);
			assertThat(condition.getLastTransitionTime()).isEqualTo(EARLIER);
		});
		assertThat(before.get(0).getReason()).as("argument untouched").isEqualTo("Up");
	}

	@Test
	void statusChangeMovesTheTransitionTime() {
		List<V1Condition> before = List.of(condition("Ready", "True", "Up").lastTransitionTime(EARLIER));
		List<V1Condition> after = Conditions.set(before, condition("Ready", "False", "Down"));
		assertThat(after.get(0).getStatus()).isEqualTo("False");
		assertThat(after.get(0).getLastTransitionTime()).isAfter(EARLIER);
	}

	@Test
	void otherTypesAreKeptAndRemoveDropsOnlyTheGivenType() {
		List<V1Condition> conditions = Conditions.set(List.of(condition("Ready", "True", "Up")),
				condition("Degraded", "False", "Fine"));
		assertThat(conditions).extracting(V1Condition::getType).containsExactly("Ready", "Degraded");
		assertThat(Conditions.isTrue(conditions, "Ready")).isTrue();
		assertThat(Conditions.isTrue(conditions, "Degraded")).isFalse();
		assertThat(Conditions.isTrue(conditions, "Missing")).isFalse();
		assertThat(Conditions.find(conditions, "Degraded")).get().extracting(V1Condition::getReason).isEqualTo("Fine");
		assertThat(Conditions.remove(conditions, "Ready")).extracting(V1Condition::getType).containsExactly("Degraded");
	}

	private static V1Condition condition(String type, String status, String reason) {
		return new V1Condition().type(type).status(status).reason(reason).message("");
	}

}
