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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that a component that cannot be built or started is reported with its name, the
 * command and the tail of its output, at once, and leaves nothing running.
 *
 * @author Kubeop authors
 */
class ComponentFailureTests {

	@TempDir
	Path temp;

	@Test
	void componentThatExitsWhileStartingFailsTheStartWithItsNameCommandAndLog() throws IOException {
		Path kwok = executable(this.temp.resolve("kwok"), "echo 'kwok: cannot reach the moon' >&2; exit 3");
		ControlPlaneBinaries binaries = ControlPlaneAssets.fromEnvironment().resolve();
		Set<Long> before = descendants();
		assertThatExceptionOfType(ComponentUnavailableException.class)
			.isThrownBy(() -> LocalControlPlane.start(binaries, List.of(), Map.of(Component.NODES, kwok)))
			.satisfies((ex) -> assertThat(ex.component()).isEqualTo(Component.NODES))
			.withMessageStartingWith("Control plane component kwok is unavailable")
			.withMessageContaining("exited with code 3")
			.withMessageContaining("command: " + kwok + " --kubeconfig=")
			.withMessageContaining("kwok: cannot reach the moon");
		assertThat(descendants()).isSubsetOf(before);
	}

	@Test
	void componentThatFailsToBuildIsReportedWithItsNameCommandAndLog() throws IOException {
		Path bin = Files.createDirectories(this.temp.resolve("bin"));
		executable(bin.resolve("go"), "echo 'go: k8s.io/kubernetes@v1.35.4: missing go.sum entry'; exit 1");
		Map<String, String> environment = Map.of("PATH", bin.toString(), "KUBEOP_CACHE_DIR",
				this.temp.resolve("cache").toString());
		ControlPlaneAssets assets = new ControlPlaneAssets(environment::get, this.temp, Versions.load());
		assertThatExceptionOfType(ComponentUnavailableException.class)
			.isThrownBy(() -> assets.resolve(Component.SCHEDULER))
			.satisfies((ex) -> assertThat(ex.component()).isEqualTo(Component.SCHEDULER))
			.withMessageStartingWith("Control plane component kube-scheduler is unavailable: building it failed")
			.withMessageContaining(bin.resolve("go") + " build -trimpath")
			.withMessageContaining("missing go.sum entry");
	}

	@Test
	void componentWithNeitherBinaryNorGoNamesTheWaysToProvideIt() {
		// port 1 on loopback: nothing listens, as on a machine without the network
		Map<String, String> environment = Map.of("PATH", this.temp.toString(), "KUBEOP_CACHE_DIR",
				this.temp.resolve("cache").toString(), "KUBEOP_TEST_KUBERNETES_RELEASE_URL",
				"http://127.0.0.1:1/release");
		ControlPlaneAssets assets = new ControlPlaneAssets(environment::get, this.temp, Versions.load());
		assertThatExceptionOfType(ComponentUnavailableException.class)
			.isThrownBy(() -> assets.resolve(Component.CONTROLLER_MANAGER))
			.withMessageContaining("kube-controller-manager")
			.withMessageContaining("Go is not on the PATH")
			.withMessageContaining("Could not reach http://127.0.0.1:1/release/")
			.withMessageContaining("TEST_ASSET_KUBE_CONTROLLER_MANAGER")
			.withMessageContaining("let the download through");
	}

	private static Path executable(Path path, String script) throws IOException {
		Files.writeString(path, "#!/bin/sh\n" + script + "\n");
		Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
		return path;
	}

	private static Set<Long> descendants() {
		return ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
	}

}
