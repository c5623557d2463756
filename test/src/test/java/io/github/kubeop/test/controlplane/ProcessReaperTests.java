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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ProcessReaper} with real processes.
 *
 * @author Kubeop authors
 */
class ProcessReaperTests {

	@TempDir
	Path runDirectory;

	@Test
	void childOfADeadOwnerIsKilledAndForgotten() throws Exception {
		Process orphan = new ProcessBuilder("sleep", "300").start();
		try {
			Path record = this.runDirectory.resolve("999999999-" + orphan.pid() + ".pid");
			Path workDirectory = Files.createDirectories(this.runDirectory.resolve("work"));
			Files.writeString(record, "999999999 0\n" + orphan.pid() + " " + startMillis(orphan.toHandle()) + "\n"
					+ workDirectory + "\n");
			new ProcessReaper(this.runDirectory).reapOrphans();
			await().atMost(Duration.ofSeconds(10)).until(() -> !orphan.isAlive());
			assertThat(record).doesNotExist();
			assertThat(workDirectory).doesNotExist();
		}
		finally {
			orphan.destroyForcibly();
		}
	}

	@Test
	void childOfALiveOwnerIsLeftAlone() throws Exception {
		ProcessReaper reaper = new ProcessReaper(this.runDirectory);
		Process child = new ProcessBuilder("sleep", "300").start();
		try {
			Path record = reaper.register(child, this.runDirectory.resolve("work"));
			reaper.reapOrphans();
			assertThat(child.isAlive()).isTrue();
			assertThat(record).exists();
			reaper.forget(record);
			assertThat(record).doesNotExist();
		}
		finally {
			child.destroyForcibly();
		}
	}

	@Test
	void recycledPidIsNotKilled() throws Exception {
		Process unrelated = new ProcessBuilder("sleep", "300").start();
		try {
			Path record = this.runDirectory.resolve("1-" + unrelated.pid() + ".pid");
			Files.writeString(record,
					"999999999 0\n" + unrelated.pid() + " 12345\n" + this.runDirectory.resolve("gone") + "\n");
			new ProcessReaper(this.runDirectory).reapOrphans();
			assertThat(unrelated.isAlive()).isTrue();
			assertThat(record).doesNotExist();
		}
		finally {
			unrelated.destroyForcibly();
		}
	}

	private static long startMillis(ProcessHandle handle) {
		return handle.info().startInstant().map(Instant::toEpochMilli).orElseThrow();
	}

}
