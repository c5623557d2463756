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
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure no etcd or kube-apiserver outlives the test JVM that started it. Each child
 * is recorded in a run directory with the JVM's pid and both start times; a JVM shutdown
 * hook stops the children of a run that ends normally or by a signal, and the next
 * control plane to start kills the children of a JVM that died without running its hooks
 * (for example by {@code SIGKILL}). Start times are compared, so a recycled pid is never
 * killed. The Go wrappers Kubeop builds also exit by themselves when their parent dies.
 *
 * @author Kubeop authors
 */
final class ProcessReaper {

	private static final Logger logger = LoggerFactory.getLogger(ProcessReaper.class);

	private static final ProcessHandle self = ProcessHandle.current();

	private final Path runDirectory;

	ProcessReaper(Path runDirectory) {
		this.runDirectory = runDirectory;
	}

	/**
	 * Kills the children recorded by JVMs that are gone, and forgets them.
	 */
	void reapOrphans() {
		if (!Files.isDirectory(this.runDirectory)) {
			return;
		}
		try (DirectoryStream<Path> records = Files.newDirectoryStream(this.runDirectory, "*.pid")) {
			for (Path record : records) {
				reapIfOrphaned(record);
			}
		}
		catch (IOException ex) {
			logger.debug("Could not scan {} for orphaned control plane processes", this.runDirectory, ex);
		}
	}

	/**
	 * Records a child so that it is killed if this JVM dies without stopping it.
	 * @param process the child process
	 * @param workDirectory the directory the child works in, deleted with an orphan
	 * @return the record, to be passed to {@link #forget(Path)} once the child has
	 * stopped
	 */
	Path register(Process process, Path workDirectory) {
		try {
			Files.createDirectories(this.runDirectory);
			Path record = this.runDirectory.resolve(self.pid() + "-" + process.pid() + ".pid");
			String content = self.pid() + " " + startMillis(self) + "\n" + process.pid() + " "
					+ startMillis(process.toHandle()) + "\n" + workDirectory + "\n";
			Files.writeString(record, content, StandardCharsets.UTF_8);
			return record;
		}
		catch (IOException ex) {
			logger.warn("Could not record control plane process {} in {}", process.pid(), this.runDirectory, ex);
			return null;
		}
	}

	void forget(Path record) {
		if (record != null) {
			try {
				Files.deleteIfExists(record);
			}
			catch (IOException ex) {
				logger.debug("Could not delete {}", record, ex);
			}
		}
	}

	/**
	 * Stops a process: SIGTERM, then SIGKILL after the grace period.
	 * @param process the process
	 * @param grace how long to wait for a clean exit
	 */
	static void stop(ProcessHandle process, Duration grace) {
		if (!process.isAlive()) {
			return;
		}
		process.destroy();
		try {
			process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (Exception ex) {
			process.destroyForcibly();
			try {
				process.onExit().get(5, TimeUnit.SECONDS);
			}
			catch (Exception ignored) {
				// the kernel reaps it; nothing more to do from here
			}
		}
	}

	private void reapIfOrphaned(Path record) throws IOException {
		String[] lines = Files.readString(record, StandardCharsets.UTF_8).trim().split("\n");
		if (lines.length != 3) {
			Files.deleteIfExists(record);
			return;
		}
		String[] owner = lines[0].split(" ");
		String[] child = lines[1].split(" ");
		if (isRunning(Long.parseLong(owner[0]), Long.parseLong(owner[1]))) {
			return;
		}
		Optional<ProcessHandle> orphan = ProcessHandle.of(Long.parseLong(child[0]))
			.filter((handle) -> startMillis(handle) == Long.parseLong(child[1]));
		orphan.ifPresent((handle) -> {
			logger.warn("Killing control plane process {} left behind by test JVM {} ({})", handle.pid(), owner[0],
					handle.info().command().orElse("unknown command"));
			stop(handle, Duration.ofSeconds(5));
		});
		FileTree.deleteQuietly(Path.of(lines[2]));
		Files.deleteIfExists(record);
	}

	private static boolean isRunning(long pid, long startMillis) {
		return ProcessHandle.of(pid).filter((handle) -> startMillis(handle) == startMillis).isPresent();
	}

	private static long startMillis(ProcessHandle handle) {
		return handle.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
	}

}
