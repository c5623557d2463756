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

package io.github.kubeop.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Records the figures a reliability test measured (detection times, rates, heap), in the
 * log and in {@code target/reliability-figures.txt}, for the reliability page.
 *
 * @author Kubeop authors
 */
final class Figures {

	private static final Log logger = LogFactory.getLog(Figures.class);

	private static final Path FILE = Path.of("target", "reliability-figures.txt");

	private Figures() {
	}

	static void record(String fault, String figure) {
		logger.info("Reliability figure: " + fault + ": " + figure);
		try {
			Files.createDirectories(FILE.getParent());
			Files.writeString(FILE, fault + ": " + figure + System.lineSeparator(), StandardCharsets.UTF_8,
					StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
