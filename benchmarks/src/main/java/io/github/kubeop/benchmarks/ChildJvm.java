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

package io.github.kubeop.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Runs one sample in a fresh JVM started with this JVM's flags and the benchmarks' class
 * path, and reads the JSON line it prints last.
 *
 * @author Kubeop authors
 */
final class ChildJvm {

	private ChildJvm() {
	}

	/**
	 * Runs a main class in a child JVM and returns the last line of its output that is a
	 * JSON object.
	 * @param main the class whose {@code main} runs
	 * @param arguments its arguments
	 * @return the JSON object it printed last
	 * @throws IOException if the JVM cannot be started
	 * @throws InterruptedException if interrupted while waiting for it
	 */
	static JsonObject run(Class<?> main, List<String> arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
		command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
		command.addAll(arguments);
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.waitFor() != 0) {
			throw new IllegalStateException(main.getSimpleName() + " " + arguments + " failed: " + output);
		}
		String result = output.lines()
			.filter((line) -> line.startsWith("{"))
			.reduce((first, second) -> second)
			.orElseThrow(() -> new IllegalStateException(main.getSimpleName() + " printed no result: " + output));
		return JsonParser.parseString(result).getAsJsonObject();
	}

}
