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

package io.github.kubeop.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample stays what the docs promise: an operator in at most 150 lines of Java,
 * counted as lines of code (not blank, not a comment, license header and Javadoc included
 * in comments).
 *
 * @author Kubeop authors
 */
class SampleSizeTests {

	@Test
	void sampleIsAtMost150LinesOfJava() throws IOException {
		long lines = 0;
		try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				lines += codeLines(Files.readAllLines(file));
			}
		}
		assertThat(lines).as("lines of Java in the sample").isPositive().isLessThanOrEqualTo(150);
	}

	static long codeLines(List<String> lines) {
		long code = 0;
		boolean inComment = false;
		for (String line : lines) {
			String trimmed = line.trim();
			if (inComment) {
				inComment = !trimmed.contains("*/");
				continue;
			}
			if (trimmed.startsWith("/*")) {
				inComment = !trimmed.contains("*/");
				continue;
			}
			if (!trimmed.isEmpty() && !trimmed.startsWith("//")) {
				code++;
			}
		}
		return code;
	}

}
