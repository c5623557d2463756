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

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LiveComparison}: the values the API server normalises match, every
 * real difference does not.
 *
 * @author Kubeop authors
 */
class LiveComparisonTests {

	@Test
	void quantitiesMatchByValue() {
		assertThat(same("{\"cpu\": \"1\"}", "{\"cpu\": \"1000m\"}")).isTrue();
		assertThat(same("{\"memory\": \"1Gi\"}", "{\"memory\": \"1024Mi\"}")).isTrue();
		assertThat(same("{\"cpu\": \"1\"}", "{\"cpu\": \"1500m\"}")).isFalse();
	}

	@Test
	void intOrStringMatchesByItsText() {
		assertThat(same("{\"port\": 8080}", "{\"port\": \"8080\"}")).isTrue();
		assertThat(same("{\"port\": \"http\"}", "{\"port\": 8080}")).isFalse();
		assertThat(same("{\"min\": \"50%\"}", "{\"min\": \"50%\"}")).isTrue();
		assertThat(same("{\"min\": 1}", "{\"min\": \"50%\"}")).isFalse();
	}

	@Test
	void defaultsAndOtherFieldsOfTheLiveObjectAreNotCompared() {
		assertThat(same("{\"spec\": {\"replicas\": 1, \"strategy\": {\"type\": \"RollingUpdate\"}}}",
				"{\"spec\": {\"replicas\": 1}}"))
			.isTrue();
		assertThat(same("{\"containers\": [{\"name\": \"web\", \"terminationMessagePath\": \"/dev/termination-log\"}]}",
				"{\"containers\": [{\"name\": \"web\"}]}"))
			.isTrue();
	}

	@Test
	void emptyMatchesAbsent() {
		assertThat(same("{}", "{\"data\": {}, \"paused\": false, \"list\": []}")).isTrue();
		assertThat(same("{\"replicas\": 3}", "{\"replicas\": 0}")).isFalse();
	}

	@Test
	void everyRealDifferenceIsOne() {
		assertThat(same("{\"labels\": {\"tier\": \"gold\"}}", "{\"labels\": {\"tier\": \"silver\"}}")).isFalse();
		assertThat(same("{}", "{\"labels\": {\"tier\": \"gold\"}}")).isFalse();
		assertThat(same("{\"list\": [\"a\", \"b\"]}", "{\"list\": [\"b\", \"a\"]}")).isFalse();
		assertThat(same("{\"list\": [\"a\", \"b\", \"c\"]}", "{\"list\": [\"a\", \"b\"]}")).isFalse();
		assertThat(same("{\"enabled\": true}", "{\"enabled\": \"true\"}")).isFalse();
		assertThat(same("{\"name\": \"web\"}", "{\"name\": \"web2\"}")).isFalse();
		assertThat(same("{\"n\": 1.5}", "{\"n\": 1}")).isFalse();
	}

	private static boolean same(String live, String desired) {
		JsonElement liveJson = JsonParser.parseString(live);
		return LiveComparison.hasDesiredState(liveJson, JsonParser.parseString(desired));
	}

}
