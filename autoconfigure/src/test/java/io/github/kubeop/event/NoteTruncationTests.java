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

package io.github.kubeop.event;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of how {@link DefaultEventRecorder} cuts notes to the API server's limit.
 *
 * @author Kubeop authors
 */
class NoteTruncationTests {

	@Test
	void shortNoteIsKept() {
		assertThat(DefaultEventRecorder.truncate("Rolled out")).isEqualTo("Rolled out");
		assertThat(DefaultEventRecorder.truncate(null)).isNull();
	}

	@Test
	void longNoteIsCutTo1024Bytes() {
		String note = "x".repeat(5000);
		assertThat(DefaultEventRecorder.truncate(note)).isEqualTo("x".repeat(1024));
		assertThat(DefaultEventRecorder.truncate("x".repeat(1024))).hasSize(1024);
	}

	@Test
	void noteIsNeverCutInsideACharacter() {
		// 3 bytes each: 341 fit (1023 bytes), the 342nd would not
		String note = "€".repeat(400);
		assertThat(DefaultEventRecorder.truncate(note)).isEqualTo("€".repeat(341));
		// 4 bytes each (a surrogate pair in Java): 256 fit exactly
		String emoji = "😀".repeat(300);
		String cut = DefaultEventRecorder.truncate("a" + emoji);
		assertThat(cut.getBytes(StandardCharsets.UTF_8).length).isEqualTo(1021);
		assertThat(cut).isEqualTo("a" + "😀".repeat(255));
	}

}
