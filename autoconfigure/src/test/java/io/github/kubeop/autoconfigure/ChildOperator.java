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

package io.github.kubeop.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.informer.InformerRegistry;
import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * An operator started as a separate JVM on the test classpath, for what only a process
 * shows: the environment it inherits ({@code HOME}) and when it exits.
 *
 * @author Kubeop authors
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class ChildOperator {

	static final String STARTED = "kubeop-child-operator: started, server ";

	/**
	 * Starts the operator with the given arguments, reports the server it talks to and
	 * the objects its informers hold, then stops.
	 * @param args Spring Boot arguments
	 */
	public static void main(String[] args) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ChildOperator.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.run(args);
		int objects = context.getBean(InformerRegistry.class)
			.informers()
			.stream()
			.mapToInt((informer) -> informer.indexer().listKeys().size())
			.sum();
		System.out.println(STARTED + context.getBean(ApiClient.class).getBasePath() + ", objects " + objects);
		context.close();
	}

	/**
	 * Starts {@link #main(String[])} in a new JVM with this JVM's test classpath.
	 * @param environment variables to set, a {@code null} value removes the variable
	 * @param systemProperties system properties of the new JVM
	 * @param output the file that receives standard output and error
	 * @param args Spring Boot arguments
	 * @return the process
	 * @throws IOException if the process cannot start
	 */
	static Process start(Map<String, String> environment, Map<String, String> systemProperties, Path output,
			String... args) throws IOException {
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx256m");
		systemProperties.forEach((name, value) -> command.add("-D" + name + "=" + value));
		command.add("-cp");
		command.add(classpath);
		command.add(ChildOperator.class.getName());
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
		environment.forEach((name, value) -> {
			if (value != null) {
				builder.environment().put(name, value);
			}
			else {
				builder.environment().remove(name);
			}
		});
		return builder.start();
	}

	/**
	 * Waits for a process to exit, and destroys it if it does not in time.
	 * @param process the process
	 * @param timeout how long to wait
	 * @return whether it exited by itself in time
	 * @throws InterruptedException if interrupted
	 */
	static boolean exited(Process process, Duration timeout) throws InterruptedException {
		if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			return true;
		}
		process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		return false;
	}

	static String read(Path output) throws IOException {
		return Files.exists(output) ? Files.readString(output) : "";
	}

}
