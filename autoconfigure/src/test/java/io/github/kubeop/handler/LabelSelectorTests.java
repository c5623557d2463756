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

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that {@link LabelSelector} parses and matches as apimachinery's
 * {@code labels.Parse} and {@code Requirement.Matches} do; cases follow
 * {@code k8s.io/apimachinery/pkg/labels/selector_test.go}.
 *
 * @author Kubeop authors
 */
class LabelSelectorTests {

	private static final Map<String, String> NO_TIER = Map.of("app", "web");

	@Test
	void inAndEqualityDoNotMatchAMissingKey() {
		assertThat(matches("tier in (web, cache)", NO_TIER)).isFalse();
		assertThat(matches("tier in (web)", NO_TIER)).isFalse();
		assertThat(matches("tier=web", NO_TIER)).isFalse();
		assertThat(matches("tier==web", NO_TIER)).isFalse();
		assertThat(matches("tier", NO_TIER)).isFalse();
		assertThat(matches("tier>1", NO_TIER)).isFalse();
		assertThat(matches("tier<1", NO_TIER)).isFalse();
	}

	@Test
	void notInAndNotEqualsMatchAMissingKey() {
		assertThat(matches("tier notin (db, cache)", NO_TIER)).isTrue();
		assertThat(matches("tier notin (db)", NO_TIER)).isTrue();
		assertThat(matches("tier!=db", NO_TIER)).isTrue();
		assertThat(matches("!tier", NO_TIER)).isTrue();
	}

	@Test
	void objectsWithoutLabelsAreMatchedAsHavingNone() {
		assertThat(matches("tier notin (db)", null)).isTrue();
		assertThat(matches("tier in (db)", null)).isFalse();
		assertThat(matches("", null)).isTrue();
	}

	@Test
	void setRequirementsMatchPresentKeys() {
		assertThat(matches("tier in (web, cache)", Map.of("tier", "cache"))).isTrue();
		assertThat(matches("tier in (web, cache)", Map.of("tier", "db"))).isFalse();
		assertThat(matches("tier notin (web, cache)", Map.of("tier", "web"))).isFalse();
		assertThat(matches("tier notin (web, cache)", Map.of("tier", "db"))).isTrue();
		assertThat(matches("tier!=web", Map.of("tier", "web"))).isFalse();
		assertThat(matches("tier", Map.of("tier", ""))).isTrue();
		assertThat(matches("!tier", Map.of("tier", ""))).isFalse();
	}

	@Test
	void everyRequirementMustMatch() {
		String selector = "app=web,tier notin (db),!legacy";
		assertThat(matches(selector, Map.of("app", "web"))).isTrue();
		assertThat(matches(selector, Map.of("app", "web", "legacy", "true"))).isFalse();
		assertThat(matches(selector, Map.of("app", "web", "tier", "db"))).isFalse();
		assertThat(matches(selector, Map.of("app", "api"))).isFalse();
	}

	@Test
	void emptyValuesAreValues() {
		assertThat(matches("x in (foo,,baz),y,z notin ()", Map.of("x", "", "y", "1"))).isTrue();
		assertThat(matches("x in (,a)", Map.of("x", ""))).isTrue();
		assertThat(matches("x in ()", Map.of("x", ""))).isTrue();
		assertThat(matches("x in ()", Map.of("x", "a"))).isFalse();
		assertThat(matches("x=", Map.of("x", ""))).isTrue();
		assertThat(matches("x=,y=a", Map.of("x", "", "y", "a"))).isTrue();
		assertThat(matches("z notin ()", Map.of("z", ""))).isFalse();
	}

	@Test
	void inAndNotinAreValuesInsideParentheses() {
		assertThat(matches("x in (in, notin)", Map.of("x", "notin"))).isTrue();
		assertThat(matches("in in (a)", Map.of("in", "a"))).isTrue();
	}

	@Test
	void greaterAndLessThanCompareIntegers() {
		assertThat(matches("replicas>1", Map.of("replicas", "2"))).isTrue();
		assertThat(matches("replicas>1", Map.of("replicas", "1"))).isFalse();
		assertThat(matches("replicas<10", Map.of("replicas", "9"))).isTrue();
		assertThat(matches("replicas<10", Map.of("replicas", "many"))).isFalse();
	}

	@Test
	void whitespaceIsOptionalAroundOperators() {
		assertThat(matches(" app = web , tier != db ", Map.of("app", "web"))).isTrue();
		assertThat(matches("app==web", Map.of("app", "web"))).isTrue();
		assertThat(matches("example.com/app in(web)", Map.of("example.com/app", "web"))).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "x=a||y=b", "x==a==b", "!x=a", "x in (a", "x in a", "x notin", "app web", "x>a", "x>1.5",
			"x>99999999999999999999", "x=a,", ",x=a", "-x=a", "x=-a", "Example.com/x=a", "/x=a",
			"x=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a/b/c=d", "x in (a b)", "x=(a)" })
	void rejectsWhatKubernetesRejects(String selector) {
		assertThatIllegalArgumentException().isThrownBy(() -> LabelSelector.parse(selector))
			.withMessageStartingWith("Label selector '" + selector + "' is invalid: ");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "x", "!x", "x=a", "x==a", "x!=a", "x in (a,b)", "x notin (a)", "x>1", "x<1",
			"x in (foo,,baz),y,z notin ()", "example.com/x-y_z.w=A-b_c.9", "x=a,x!=b" })
	void acceptsWhatKubernetesAccepts(String selector) {
		LabelSelector.parse(selector);
	}

	@Test
	void toStringIsKubernetesForm() {
		assertThat(LabelSelector.parse("a in (y,x), !b,c>1, d").toString()).isEqualTo("a in (x,y),!b,c>1,d");
	}

	private static boolean matches(String selector, Map<String, String> labels) {
		return LabelSelector.parse(selector).test(labels);
	}

}
