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
import java.util.LinkedHashMap;
import java.util.Map;

import com.google.gson.Gson;
import io.github.kubeop.autoconfigure.InformersLifecycle;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * A small operator on the starter, started by {@link StartupBenchmark} in a fresh JVM:
 * four informers declared in properties (given on the command line by the harness), the
 * actuator on Spring MVC and Tomcat, as an operator that Kubernetes probes runs. Prints
 * one JSON line with the wall-clock instants (milliseconds since the epoch) of the JVM's
 * start, {@code main} entered, the context refreshed (the informers have synced by then:
 * Kubeop's lifecycle waits for them) and the application ready, with the live threads and
 * {@code VmRSS} at that point, and the time Kubeop's own start-up steps took on the main
 * thread ({@link KubeopSteps}); the harness probes {@code /actuator/health} from outside.
 * <p>
 * No component scan: the benchmarks package holds other benchmarks' configurations (the
 * memory benchmark's application with its own client), which a scan would pick up.
 *
 * @author Kubeop authors
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class StartupApplication {

	private static final Map<String, Object> phases = new LinkedHashMap<>();

	public static void main(String[] args) {
		run(StartupApplication.class, args);
	}

	/**
	 * Runs another application as {@link #main} runs this one, for a baseline.
	 * @param source the application's primary source
	 * @param args the arguments
	 */
	public static void runPlain(Class<?> source, String[] args) {
		run(source, args);
	}

	/**
	 * Runs an application as the harness measures it: records Spring's start-up steps
	 * ({@link BufferingApplicationStartup}) and prints the phases, and Kubeop's share of
	 * the main thread's work, once the application is ready; exits then if the system
	 * property {@code startup.exit} is set (a training run for the JDK's AOT cache).
	 * @param source the application's primary source
	 * @param args the arguments
	 */
	static void run(Class<?> source, String[] args) {
		double main = epochMillis();
		phases.put("jvmStart", (double) ManagementFactory.getRuntimeMXBean().getStartTime());
		phases.put("main", main);
		cpu("main");
		SpringApplication application = new SpringApplication(source);
		CpuTimedStartup startup = new CpuTimedStartup(new BufferingApplicationStartup(100_000));
		application.setApplicationStartup(startup);
		application.addListeners((ContextRefreshedEvent event) -> {
			phases.put("refreshed", epochMillis());
			cpu("refreshed");
		});
		application.addListeners((ApplicationReadyEvent event) -> {
			phases.put("ready", epochMillis());
			cpu("ready");
			phases.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
			phases.put("rssMiB", ManyInformersProbe.statusField("VmRSS:") / 1024.0);
			phases.put("classesLoaded", (double) ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount());
			phases.putAll(KubeopSteps.of(startup.buffering().getBufferedTimeline(), startup,
					event.getApplicationContext().getBeanFactory()));
			System.out.println(new Gson().toJson(phases));
			System.out.flush();
			if (System.getProperty("startup.exit") != null) {
				System.exit(SpringApplication.exit(event.getApplicationContext()));
			}
		});
		application.run(args);
	}

	@Bean
	static SmartLifecycle informersStarting() {
		return new PhaseMarker(InformersLifecycle.PHASE - 1, "informersStarting");
	}

	@Bean
	static SmartLifecycle informersSynced() {
		return new PhaseMarker(InformersLifecycle.PHASE + 1, "informersSynced");
	}

	/**
	 * Notes, under the phase's name with {@code CpuMain} and {@code CpuProcess} appended,
	 * the CPU time the main thread (the one calling, which refreshes the context) and the
	 * whole process (JIT and GC threads and the informers' threads included) have used so
	 * far, in milliseconds: what a phase cost in CPU, which other processes on the
	 * machine change far less than its wall-clock time.
	 */
	private static void cpu(String phase) {
		phases.put(phase + "CpuMain", ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e6);
		phases.put(phase + "CpuProcess",
				((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
					.getProcessCpuTime() / 1e6);
	}

	private static double epochMillis() {
		java.time.Instant now = java.time.Instant.now();
		return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
	}

	/**
	 * Notes when the lifecycle processor reaches its phase.
	 */
	private static final class PhaseMarker implements SmartLifecycle {

		private final int phase;

		private final String name;

		private volatile boolean running;

		PhaseMarker(int phase, String name) {
			this.phase = phase;
			this.name = name;
		}

		@Override
		public void start() {
			phases.put(this.name, epochMillis());
			cpu(this.name);
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return this.phase;
		}

	}

}
