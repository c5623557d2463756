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

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Finds kube-apiserver and etcd executables for a local control plane, in this order:
 * <ol>
 * <li>{@code TEST_ASSET_KUBE_APISERVER} and {@code TEST_ASSET_ETCD};</li>
 * <li>the {@code KUBEBUILDER_ASSETS} directory;</li>
 * <li>setup-envtest's default directory, for the wanted Kubernetes minor version;</li>
 * <li>Kubeop's own cache of binaries built or fetched earlier;</li>
 * <li>a fresh build from the Go wrapper modules shipped in this jar, when {@code go} is
 * on the {@code PATH};</li>
 * <li>else the released binaries, fetched as setup-envtest fetches them and checked
 * against their published checksums (see {@link ReleaseDownloads}).</li>
 * </ol>
 * The optional {@link Component components} are found the same way, by executable name
 * ({@code TEST_ASSET_KUBE_CONTROLLER_MANAGER}, {@code TEST_ASSET_KUBE_SCHEDULER},
 * {@code TEST_ASSET_KWOK}, then {@code KUBEBUILDER_ASSETS}, then the cache, then a build,
 * then a download), each only when a control plane needs it. The environment is passed
 * in, so that the order can be tested without touching the real one.
 *
 * @author Kubeop authors
 */
public final class ControlPlaneAssets {

	/**
	 * The message given when no way to get a control plane exists on this machine.
	 */
	static final String NO_CONTROL_PLANE = """
			No Kubernetes control plane is available for tests: kube-apiserver and etcd were not found, \
			Go is not on the PATH to build them, and fetching the released ones failed (%s). Ways out:
			  1. Go 1.25+ on the PATH: Kubeop then builds kube-apiserver %s and etcd from the official \
			Go modules once and caches them in %s;
			  2. KUBEBUILDER_ASSETS set to a directory with kube-apiserver and etcd (or \
			TEST_ASSET_KUBE_APISERVER and TEST_ASSET_ETCD), installed for example with \
			'setup-envtest use %s';
			  3. the download: let this machine reach setup-envtest's index %s and the archive it \
			names (or set KUBEOP_TEST_ENVTEST_INDEX_URL to a mirror of it); the binaries are checked \
			against the published SHA-512 and cached in %s;
			  4. a Docker engine: set KUBEOP_TEST_CONTROL_PLANE=k3s to run the tests on K3s \
			through Testcontainers.""";

	private final UnaryOperator<String> environment;

	private final Path home;

	private final Versions versions;

	private final ReleaseDownloads downloads;

	ControlPlaneAssets(UnaryOperator<String> environment, Path home, Versions versions) {
		this.environment = environment;
		this.home = home;
		this.versions = versions;
		this.downloads = new ReleaseDownloads(environment, versions, cacheDirectory().resolve("control-plane"));
	}

	/**
	 * Returns the assets resolver for this process's environment.
	 * @return the resolver
	 */
	public static ControlPlaneAssets fromEnvironment() {
		return new ControlPlaneAssets(System::getenv, Path.of(System.getProperty("user.home")), Versions.load());
	}

	/**
	 * Finds binaries that already exist, without building anything.
	 * @return the binaries, if any source has them
	 */
	public Optional<ControlPlaneBinaries> find() {
		Path apiServer = pathFromEnvironment("TEST_ASSET_KUBE_APISERVER");
		Path etcd = pathFromEnvironment("TEST_ASSET_ETCD");
		if (apiServer != null || etcd != null) {
			Path assets = pathFromEnvironment("KUBEBUILDER_ASSETS");
			apiServer = (apiServer != null) ? apiServer : (assets != null) ? assets.resolve("kube-apiserver") : null;
			etcd = (etcd != null) ? etcd : (assets != null) ? assets.resolve("etcd") : null;
			if (!ControlPlaneBinaries.isExecutable(apiServer) || !ControlPlaneBinaries.isExecutable(etcd)) {
				throw new IllegalStateException("TEST_ASSET_KUBE_APISERVER (" + apiServer + ") and TEST_ASSET_ETCD ("
						+ etcd + ") must both name executable files");
			}
			return Optional.of(new ControlPlaneBinaries(apiServer, etcd, "TEST_ASSET_* environment variables"));
		}
		Path assets = pathFromEnvironment("KUBEBUILDER_ASSETS");
		if (assets != null) {
			ControlPlaneBinaries binaries = ControlPlaneBinaries.in(assets, "KUBEBUILDER_ASSETS");
			if (binaries == null) {
				throw new IllegalStateException(
						"KUBEBUILDER_ASSETS (" + assets + ") does not hold executable kube-apiserver and etcd");
			}
			return Optional.of(binaries);
		}
		return setupEnvtestDirectory().map((directory) -> ControlPlaneBinaries.in(directory, "setup-envtest"))
			.or(() -> Optional.ofNullable(ControlPlaneBinaries.in(buildDirectory(), "Kubeop's cache")))
			.or(this.downloads::findCore);
	}

	/**
	 * Finds binaries or, failing that, builds them with Go or, without Go, fetches the
	 * released ones.
	 * @return the binaries
	 * @throws NoControlPlaneException if no source can provide them
	 */
	public ControlPlaneBinaries resolve() {
		return find().orElseGet(() -> {
			Optional<Path> go = goExecutable();
			if (go.isPresent()) {
				return new GoControlPlaneBuilder(go.get(), this.versions, sourceDirectory(), buildDirectory()).build();
			}
			try {
				return this.downloads.fetchCore();
			}
			catch (ReleaseDownloads.DownloadException ex) {
				throw new NoControlPlaneException(noControlPlaneMessage(ex.getMessage()), ex);
			}
		});
	}

	/**
	 * Finds the executable of a component or, failing that, builds it with Go.
	 * @param component the component
	 * @return the executable
	 * @throws ComponentUnavailableException if it can be neither found nor built
	 */
	public Path resolve(Component component) {
		String variable = "TEST_ASSET_" + component.executableName().toUpperCase(Locale.ROOT).replace('-', '_');
		Path configured = pathFromEnvironment(variable);
		if (configured != null) {
			if (!ControlPlaneBinaries.isExecutable(configured)) {
				throw new ComponentUnavailableException(component,
						variable + " (" + configured + ") does not name an executable file");
			}
			return configured;
		}
		Path assets = pathFromEnvironment("KUBEBUILDER_ASSETS");
		if (assets != null && ControlPlaneBinaries.isExecutable(assets.resolve(component.executableName()))) {
			return assets.resolve(component.executableName());
		}
		Path buildDirectory = buildDirectory(component);
		if (ControlPlaneBinaries.isExecutable(buildDirectory.resolve(component.executableName()))) {
			return buildDirectory.resolve(component.executableName());
		}
		Optional<Path> fetched = this.downloads.find(component);
		if (fetched.isPresent()) {
			return fetched.get();
		}
		Optional<Path> go = goExecutable();
		if (go.isEmpty()) {
			try {
				return this.downloads.fetch(component);
			}
			catch (ReleaseDownloads.DownloadException ex) {
				throw new ComponentUnavailableException(component,
						"it is not in " + buildDirectory + ", Go is not on the PATH to build it, and fetching the "
								+ "released one failed (" + ex.getMessage() + "). Ways out: put Go 1.25+ on the PATH, "
								+ "set " + variable + " or KUBEBUILDER_ASSETS, or let the download through",
						ex);
			}
		}
		try {
			return new GoControlPlaneBuilder(go.get(), this.versions, sourceDirectory(), buildDirectory)
				.build(component);
		}
		catch (RuntimeException ex) {
			throw new ComponentUnavailableException(component, "building it failed: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Returns whether a local control plane can be had here without the network, by
	 * finding or building it.
	 * @return whether binaries exist or Go is on the PATH
	 */
	public boolean available() {
		return find().isPresent() || goExecutable().isPresent();
	}

	String noControlPlaneMessage(String downloadFailure) {
		return NO_CONTROL_PLANE.formatted(downloadFailure, this.versions.kubernetes(), cacheDirectory(),
				this.versions.kubernetesMinor() + ".x", this.downloads.envtestIndex(), cacheDirectory());
	}

	Optional<Path> setupEnvtestDirectory() {
		Path dataHome = pathFromEnvironment("XDG_DATA_HOME");
		Path root = ((dataHome != null) ? dataHome : this.home.resolve(".local/share"))
			.resolve("kubebuilder-envtest/k8s");
		if (!Files.isDirectory(root)) {
			return Optional.empty();
		}
		String prefix = this.versions.kubernetesMinor() + ".";
		List<Path> candidates = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (name.startsWith(prefix) && name.endsWith(platform())) {
					candidates.add(entry);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return candidates.stream()
			.filter((candidate) -> ControlPlaneBinaries.in(candidate, "") != null)
			.max(Comparator.comparing(ControlPlaneAssets::patchVersion));
	}

	Path cacheDirectory() {
		Path configured = pathFromEnvironment("KUBEOP_CACHE_DIR");
		if (configured != null) {
			return configured;
		}
		Path cacheHome = pathFromEnvironment("XDG_CACHE_HOME");
		return ((cacheHome != null) ? cacheHome : this.home.resolve(".cache")).resolve("kubeop");
	}

	Path buildDirectory() {
		return cacheDirectory().resolve("control-plane")
			.resolve("kubernetes-" + this.versions.kubernetes() + "-etcd-" + this.versions.etcd() + "-" + platform()
					+ "-" + this.versions.digest(Versions.CORE_FILES));
	}

	Path buildDirectory(Component component) {
		Path root = cacheDirectory().resolve("control-plane");
		if (component == Component.NODES) {
			return root.resolve("kwok-" + this.versions.kwok() + "-" + platform() + "-"
					+ this.versions.digest(Versions.KWOK_FILES));
		}
		return root.resolve("kubernetes-" + this.versions.kubernetes() + "-controllers-" + platform() + "-"
				+ this.versions.digest(Versions.CONTROLLER_FILES));
	}

	private Path sourceDirectory() {
		return cacheDirectory().resolve("control-plane").resolve("src-" + this.versions.sourceDigest());
	}

	Optional<Path> goExecutable() {
		String path = this.environment.apply("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String entry : path.split(File.pathSeparator)) {
			if (!entry.isEmpty()) {
				Path candidate = Path.of(entry, "go");
				if (ControlPlaneBinaries.isExecutable(candidate)) {
					return Optional.of(candidate);
				}
			}
		}
		return Optional.empty();
	}

	private Path pathFromEnvironment(String name) {
		String value = this.environment.apply(name);
		return (value != null && !value.isBlank()) ? Path.of(value.trim()) : null;
	}

	static String platform() {
		String arch = System.getProperty("os.arch");
		arch = switch (arch) {
			case "amd64", "x86_64" -> "amd64";
			case "aarch64", "arm64" -> "arm64";
			default -> arch;
		};
		String os = System.getProperty("os.name").toLowerCase().startsWith("mac") ? "darwin" : "linux";
		return os + "-" + arch;
	}

	private static int patchVersion(Path directory) {
		String[] parts = directory.getFileName().toString().split("[.-]");
		try {
			return (parts.length > 2) ? Integer.parseInt(parts[2]) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

}
