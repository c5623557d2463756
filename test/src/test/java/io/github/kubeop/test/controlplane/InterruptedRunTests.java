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

package io.github.kubeop.test.controlplane;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a test JVM killed with {@code SIGKILL}, which runs no shutdown hook, leaves
 * no process of its control plane behind (etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler, kwok): they exit by themselves, and the next control plane to start
 * removes what they left on disk.
 *
 * @author Kubeop authors
 */
class InterruptedRunTests {

	@Test
	void processesOfAKilledTestJvmDoNotSurviveIt() throws Exception {
		ControlPlaneAssets assets = ControlPlaneAssets.fromEnvironment();
		ControlPlaneBinaries binaries = assets.resolve();
		List<Optional<String>> expected = new ArrayList<>(
				List.of(Optional.of(binaries.etcd().toString()), Optional.of(binaries.kubeApiServer().toString())));
		Component.all().forEach((component) -> expected.add(Optional.of(assets.resolve(component).toString())));
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Process jvm = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
				ControlPlaneLauncher.class.getName(), "all")
			.redirectErrorStream(true)
			.start();
		List<ProcessHandle> children = new ArrayList<>();
		Path workDirectory = null;
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = output.readLine()) != null && !line.equals("ready")) {
				if (line.startsWith("workdir ")) {
					workDirectory = Path.of(line.substring(8));
				}
				if (line.startsWith("child ")) {
					ProcessHandle.of(Long.parseLong(line.substring(6))).ifPresent(children::add);
				}
			}
			assertThat(children).extracting(InterruptedRunTests::command).containsExactlyInAnyOrderElementsOf(expected);
			jvm.destroyForcibly().waitFor();
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> assertThat(children).noneMatch(ProcessHandle::isAlive));
			assertThat(workDirectory).exists();
			new ProcessReaper(ControlPlaneAssets.fromEnvironment().cacheDirectory().resolve("control-plane/run"))
				.reapOrphans();
			assertThat(workDirectory).doesNotExist();
		}
		finally {
			jvm.destroyForcibly();
			children.forEach(ProcessHandle::destroyForcibly);
		}
	}

	private static Optional<String> command(ProcessHandle handle) {
		return handle.info().command();
	}

}
