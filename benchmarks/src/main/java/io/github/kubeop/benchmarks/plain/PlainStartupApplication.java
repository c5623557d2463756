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

package io.github.kubeop.benchmarks.plain;

import java.util.ArrayList;
import java.util.List;

import io.github.kubeop.benchmarks.StartupApplication;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;

/**
 * The start-up benchmark's application without the starter: the same Spring MVC, Tomcat,
 * actuator and Prometheus registry, with Kubeop's auto-configurations left out and no
 * informers, measured the same way (the baseline the 1.2x target compares to).
 * Kubeop's jar stays on the class path (the benchmark runs from one shaded jar): its
 * auto-configurations are excluded, so none of its beans exist.
 *
 * @author Kubeop authors
 */
@EnableAutoConfiguration
public class PlainStartupApplication {

	public static void main(String[] args) {
		List<String> arguments = new ArrayList<>(List.of(args));
		List<String> kubeop = new ArrayList<>();
		ImportCandidates.load(AutoConfiguration.class, PlainStartupApplication.class.getClassLoader())
			.forEach((candidate) -> {
				if (candidate.startsWith("io.github.kubeop.")) {
					kubeop.add(candidate);
				}
			});
		arguments.add("--spring.autoconfigure.exclude=" + String.join(",", kubeop));
		// Kubeop's environment post-processor, still on the class path, names its
		// informers contributor in the readiness group
		arguments.add("--management.endpoint.health.validate-group-membership=false");
		StartupApplication.runPlain(PlainStartupApplication.class, arguments.toArray(String[]::new));
	}

}
