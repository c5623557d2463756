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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

/**
 * Spring's buffered start-up steps with the CPU time of the thread that ran each step: a
 * step's wall-clock duration on a machine whose cores other processes share includes the
 * time its thread waited for a core, its CPU time does not (much). Spring starts and ends
 * a step on the same thread.
 *
 * @author Kubeop authors
 */
final class CpuTimedStartup implements ApplicationStartup {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final BufferingApplicationStartup buffering;

	private final Map<Long, Long> cpuNanos = new ConcurrentHashMap<>();

	CpuTimedStartup(BufferingApplicationStartup buffering) {
		this.buffering = buffering;
	}

	BufferingApplicationStartup buffering() {
		return this.buffering;
	}

	/**
	 * Returns the CPU time of the step's thread while it ran, in nanoseconds, or -1 if
	 * the step did not end.
	 */
	long cpuNanos(StartupStep step) {
		return this.cpuNanos.getOrDefault(step.getId(), -1L);
	}

	@Override
	public StartupStep start(String name) {
		StartupStep step = this.buffering.start(name);
		return new CpuTimedStep(step, threads.getCurrentThreadCpuTime());
	}

	/**
	 * A step that notes its thread's CPU time when it ends.
	 */
	private final class CpuTimedStep implements StartupStep {

		private final StartupStep step;

		private final long cpuAtStart;

		CpuTimedStep(StartupStep step, long cpuAtStart) {
			this.step = step;
			this.cpuAtStart = cpuAtStart;
		}

		@Override
		public String getName() {
			return this.step.getName();
		}

		@Override
		public long getId() {
			return this.step.getId();
		}

		@Override
		public Long getParentId() {
			return this.step.getParentId();
		}

		@Override
		public StartupStep tag(String key, String value) {
			this.step.tag(key, value);
			return this;
		}

		@Override
		public StartupStep tag(String key, Supplier<String> value) {
			this.step.tag(key, value);
			return this;
		}

		@Override
		public Tags getTags() {
			return this.step.getTags();
		}

		@Override
		public void end() {
			CpuTimedStartup.this.cpuNanos.put(this.step.getId(), threads.getCurrentThreadCpuTime() - this.cpuAtStart);
			this.step.end();
		}

	}

}
