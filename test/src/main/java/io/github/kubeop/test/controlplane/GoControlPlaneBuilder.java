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
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds kube-apiserver and etcd, and on demand kube-controller-manager with
 * kube-scheduler, and kwok, with {@code go build} from the Go wrapper modules shipped in
 * this jar, into Kubeop's cache, once per version and wrapper digest. Builds run with
 * {@code GOTOOLCHAIN=local} and {@code CGO_ENABLED=0}; the Kubernetes components get
 * their version stamped with {@code -ldflags} so that they report the real release. A
 * file lock keeps concurrent test JVMs from building the same binaries twice.
 *
 * @author Kubeop authors
 */
final class GoControlPlaneBuilder {

	private static final Logger logger = LoggerFactory.getLogger(GoControlPlaneBuilder.class);

	private final Path go;

	private final Versions versions;

	private final Path sourceDirectory;

	private final Path buildDirectory;

	GoControlPlaneBuilder(Path go, Versions versions, Path sourceDirectory, Path buildDirectory) {
		this.go = go;
		this.versions = versions;
		this.sourceDirectory = sourceDirectory;
		this.buildDirectory = buildDirectory;
	}

	ControlPlaneBinaries build() {
		return locked(() -> {
			ControlPlaneBinaries built = ControlPlaneBinaries.in(this.buildDirectory, "Kubeop's cache");
			return (built != null) ? built : buildLocked();
		});
	}

	/**
	 * Builds the executable of a component into the build directory, unless it is there
	 * already. kube-controller-manager and kube-scheduler are built together, in one
	 * {@code go build}, since they share nearly all their packages.
	 * @param component the component
	 * @return the executable
	 */
	Path build(Component component) {
		return locked(() -> {
			Path executable = this.buildDirectory.resolve(component.executableName());
			if (!ControlPlaneBinaries.isExecutable(executable)) {
				buildLocked(component);
			}
			return executable;
		});
	}

	private <T> T locked(IoSupplier<T> action) {
		try {
			Files.createDirectories(this.buildDirectory.getParent());
			Path lockFile = this.buildDirectory.getParent().resolve("build.lock");
			try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
					FileLock lock = channel.lock()) {
				return action.get();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not build the control plane in " + this.buildDirectory, ex);
		}
	}

	private void buildLocked(Component component) throws IOException {
		Instant start = Instant.now();
		boolean kwok = component == Component.NODES;
		String what = kwok ? "kwok " + this.versions.kwok()
				: "kube-controller-manager and kube-scheduler " + this.versions.kubernetes();
		logger.info("Building {} from the official Go modules with {} (first run only, this takes several minutes)",
				what, this.go);
		writeSources();
		Path staging = Files.createTempDirectory(this.buildDirectory.getParent(), "build-");
		try {
			if (kwok) {
				run(this.sourceDirectory.resolve("kwok"), staging,
						List.of("build", "-trimpath", "-ldflags", "-s -w", "-o", staging + "/kwok", "."));
			}
			else {
				if (!this.versions.isCommitted()) {
					run(this.sourceDirectory.resolve("kube-apiserver"), staging, List.of("mod", "tidy"));
				}
				run(this.sourceDirectory.resolve("kube-apiserver"), staging, List.of("build", "-trimpath", "-ldflags",
						kubernetesLdflags(), "-o", staging + "/", "./kube-controller-manager", "./kube-scheduler"));
			}
			Files.move(staging, this.buildDirectory, StandardCopyOption.ATOMIC_MOVE);
		}
		finally {
			FileTree.deleteQuietly(staging);
		}
		logger.info("Built {} into {} in {} s", what, this.buildDirectory,
				Duration.between(start, Instant.now()).toSeconds());
	}

	private ControlPlaneBinaries buildLocked() throws IOException {
		Instant start = Instant.now();
		logger.info(
				"Building kube-apiserver {} and etcd {} from the official Go modules with {} "
						+ "(first run only, this takes several minutes)",
				this.versions.kubernetes(), this.versions.etcd(), this.go);
		writeSources();
		Path staging = Files.createTempDirectory(this.buildDirectory.getParent(), "build-");
		try {
			if (!this.versions.isCommitted()) {
				run(this.sourceDirectory.resolve("kube-apiserver"), staging, List.of("mod", "tidy"));
			}
			run(this.sourceDirectory.resolve("etcd"), staging, List.of("build", "-trimpath", "-ldflags",
					"-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=kubeop-go-build", "-o", staging + "/etcd", "."));
			run(this.sourceDirectory.resolve("kube-apiserver"), staging, List.of("build", "-trimpath", "-ldflags",
					kubernetesLdflags(), "-o", staging + "/kube-apiserver", "."));
			Files.move(staging, this.buildDirectory, StandardCopyOption.ATOMIC_MOVE);
		}
		finally {
			FileTree.deleteQuietly(staging);
		}
		logger.info("Built the control plane into {} in {} s", this.buildDirectory,
				Duration.between(start, Instant.now()).toSeconds());
		return ControlPlaneBinaries.in(this.buildDirectory, "built with Go");
	}

	private void writeSources() throws IOException {
		for (Map.Entry<String, String> source : this.versions.sources().entrySet()) {
			Path target = this.sourceDirectory.resolve(source.getKey());
			Files.createDirectories(target.getParent());
			Files.writeString(target, source.getValue(), StandardCharsets.UTF_8);
		}
	}

	private String kubernetesLdflags() {
		String buildDate = DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS));
		List<String> flags = new ArrayList<>(List.of("-s", "-w"));
		Map<String, String> values = Map.of("gitVersion", this.versions.kubernetes(), "gitMajor",
				this.versions.kubernetesVersionPart(1), "gitMinor", this.versions.kubernetesVersionPart(2),
				"gitTreeState", "clean", "buildDate", buildDate);
		for (String pkg : List.of("k8s.io/component-base/version", "k8s.io/client-go/pkg/version")) {
			values.forEach((key, value) -> flags.add("-X " + pkg + "." + key + "=" + value));
		}
		return String.join(" ", flags);
	}

	private void run(Path directory, Path logDirectory, List<String> arguments) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(this.go.toString());
		command.addAll(arguments);
		Path log = logDirectory.resolve("go-" + directory.getFileName() + "-" + arguments.get(0) + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().put("GOTOOLCHAIN", "local");
		builder.environment().put("CGO_ENABLED", "0");
		builder.environment().put("GOFLAGS", this.versions.isCommitted() ? "-mod=readonly" : "-mod=mod");
		Process process = builder.start();
		try {
			int exit = process.waitFor();
			if (exit != 0) {
				throw new IllegalStateException("'" + String.join(" ", command) + "' in " + directory
						+ " failed with exit " + exit + ":\n" + FileTree.tail(log, 40));
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while building the control plane", ex);
		}
	}

	@FunctionalInterface
	private interface IoSupplier<T> {

		T get() throws IOException;

	}

}
