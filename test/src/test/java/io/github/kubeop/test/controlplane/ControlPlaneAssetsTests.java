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
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ControlPlaneAssets}: where binaries are looked for, in which order,
 * and the message when there are none.
 *
 * @author Kubeop authors
 */
class ControlPlaneAssetsTests {

	@TempDir
	Path home;

	private final Map<String, String> environment = new HashMap<>();

	@Test
	void testAssetVariablesComeFirst() throws IOException {
		Path apiServer = executable(this.home.resolve("custom/kube-apiserver"));
		Path etcd = executable(this.home.resolve("custom/etcd"));
		binariesIn(this.home.resolve("assets"));
		this.environment.put("TEST_ASSET_KUBE_APISERVER", apiServer.toString());
		this.environment.put("TEST_ASSET_ETCD", etcd.toString());
		this.environment.put("KUBEBUILDER_ASSETS", this.home.resolve("assets").toString());
		ControlPlaneBinaries binaries = assets().find().orElseThrow();
		assertThat(binaries.kubeApiServer()).isEqualTo(apiServer);
		assertThat(binaries.etcd()).isEqualTo(etcd);
	}

	@Test
	void oneTestAssetVariableIsCompletedFromKubebuilderAssets() throws IOException {
		Path apiServer = executable(this.home.resolve("custom/kube-apiserver"));
		binariesIn(this.home.resolve("assets"));
		this.environment.put("TEST_ASSET_KUBE_APISERVER", apiServer.toString());
		this.environment.put("KUBEBUILDER_ASSETS", this.home.resolve("assets").toString());
		ControlPlaneBinaries binaries = assets().find().orElseThrow();
		assertThat(binaries.kubeApiServer()).isEqualTo(apiServer);
		assertThat(binaries.etcd()).isEqualTo(this.home.resolve("assets/etcd"));
	}

	@Test
	void kubebuilderAssetsComeBeforeSetupEnvtestAndTheCache() throws IOException {
		binariesIn(this.home.resolve("assets"));
		binariesIn(this.home.resolve(".local/share/kubebuilder-envtest/k8s/1.35.0-" + ControlPlaneAssets.platform()));
		this.environment.put("KUBEBUILDER_ASSETS", this.home.resolve("assets").toString());
		assertThat(assets().find().orElseThrow().kubeApiServer()).isEqualTo(this.home.resolve("assets/kube-apiserver"));
	}

	@Test
	void kubebuilderAssetsWithoutBinariesIsAnError() throws IOException {
		Files.createDirectories(this.home.resolve("empty"));
		this.environment.put("KUBEBUILDER_ASSETS", this.home.resolve("empty").toString());
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> assets().find())
			.withMessageContaining("KUBEBUILDER_ASSETS")
			.withMessageContaining("does not hold executable kube-apiserver and etcd");
	}

	@Test
	void setupEnvtestDirectoryWithTheHighestPatchOfTheWantedMinorIsUsed() throws IOException {
		Path envtest = this.home.resolve(".local/share/kubebuilder-envtest/k8s");
		binariesIn(envtest.resolve("1.34.9-" + ControlPlaneAssets.platform()));
		binariesIn(envtest.resolve("1.35.2-" + ControlPlaneAssets.platform()));
		binariesIn(envtest.resolve("1.35.10-" + ControlPlaneAssets.platform()));
		binariesIn(envtest.resolve("1.36.0-" + ControlPlaneAssets.platform()));
		assertThat(assets().find().orElseThrow().kubeApiServer())
			.isEqualTo(envtest.resolve("1.35.10-" + ControlPlaneAssets.platform()).resolve("kube-apiserver"));
	}

	@Test
	void cachedBuildIsUsedWhenNothingElseIsConfigured() throws IOException {
		ControlPlaneAssets assets = assets();
		binariesIn(assets.buildDirectory());
		ControlPlaneBinaries binaries = assets.find().orElseThrow();
		assertThat(binaries.kubeApiServer()).startsWith(this.home.resolve(".cache/kubeop/control-plane"));
		assertThat(binaries.origin()).contains("Kubeop's cache");
	}

	@Test
	void cacheDirectoryFollowsKubeopCacheDirThenXdgCacheHome() {
		this.environment.put("XDG_CACHE_HOME", "/xdg");
		assertThat(assets().cacheDirectory()).isEqualTo(Path.of("/xdg/kubeop"));
		this.environment.put("KUBEOP_CACHE_DIR", "/custom");
		assertThat(assets().cacheDirectory()).isEqualTo(Path.of("/custom"));
	}

	@Test
	void goOnThePathIsFound() throws IOException {
		Path go = executable(this.home.resolve("go/bin/go"));
		this.environment.put("PATH", "/nonexistent:" + go.getParent());
		assertThat(assets().goExecutable()).contains(go);
		assertThat(assets().available()).isTrue();
	}

	@Test
	void withNoBinariesAndNoGoTheMessageNamesEveryWayToGetAControlPlane() {
		this.environment.put("PATH", "/nonexistent");
		// port 1 on loopback: nothing listens, as on a machine without the network
		this.environment.put("KUBEOP_TEST_ENVTEST_INDEX_URL", "http://127.0.0.1:1/envtest-releases.yaml");
		ControlPlaneAssets assets = assets();
		assertThat(assets.available()).isFalse();
		assertThatExceptionOfType(NoControlPlaneException.class).isThrownBy(assets::resolve)
			.withMessageContaining("KUBEBUILDER_ASSETS")
			.withMessageContaining("setup-envtest use 1.35.x")
			.withMessageContaining("Go 1.25+ on the PATH")
			.withMessageContaining("the download")
			.withMessageContaining("Docker engine")
			.withMessageContaining("KUBEOP_TEST_CONTROL_PLANE=k3s");
	}

	private ControlPlaneAssets assets() {
		return new ControlPlaneAssets(this.environment::get, this.home, Versions.load());
	}

	private static void binariesIn(Path directory) throws IOException {
		executable(directory.resolve("kube-apiserver"));
		executable(directory.resolve("etcd"));
	}

	private static Path executable(Path path) throws IOException {
		Files.createDirectories(path.getParent());
		Files.writeString(path, "#!/bin/sh\n");
		Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
		return path;
	}

}
