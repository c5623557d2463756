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

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.google.gson.JsonArray;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ProtobufDecoderProbe;
import io.kubernetes.client.openapi.models.V1Pod;

/**
 * Measures the protobuf decoding of realistic Pod watch events in a fresh JVM, window by
 * window, so that the warm-up (the JIT compiling the decoder) shows beside the steady
 * state: thread CPU of the decoding thread, process CPU (the compilers included) and the
 * JIT's compilation time per window.
 *
 * @author Kubeop authors
 */
public final class WatchWarmupCpuProbe {

	private WatchWarmupCpuProbe() {
	}

	/**
	 * Runs the probe.
	 * @param args the number of events, the window and a directory the encoded frames are
	 * kept in between runs
	 * @throws Exception if the frames cannot be encoded or decoded
	 */
	public static void main(String[] args) throws Exception {
		int events = (args.length > 0) ? Integer.parseInt(args[0]) : 10000;
		int window = (args.length > 1) ? Integer.parseInt(args[1]) : 1000;
		Path directory = Path.of((args.length > 2) ? args[2] : System.getProperty("java.io.tmpdir"),
				"watch-warmup-pods");
		List<byte[]> frames = frames(directory, 200);
		ProtobufDecoderProbe<V1Pod> probe = ProtobufDecoderProbe.of(InformerSpec.of("pods", "v1", "Pod", V1Pod.class),
				"", "pods");
		// what setting up compiled is done before the clock starts
		Thread.sleep(1000);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
		long thread = Thread.currentThread().getId();
		long threadStart = threads.getCurrentThreadCpuTime();
		long processStart = os.getProcessCpuTime();
		long jitStart = jit.getTotalCompilationTime();
		long allocatedStart = threads.getThreadAllocatedBytes(thread);
		long threadHalf = 0;
		long processHalf = 0;
		long threadBefore = threadStart;
		long processBefore = processStart;
		long jitBefore = jitStart;
		StringBuilder windows = new StringBuilder();
		for (int i = 0; i < events; i++) {
			if (probe.decodeEvent(frames.get(i % frames.size())) == null) {
				throw new IllegalStateException("No object in frame " + i);
			}
			if ((i + 1) % window == 0) {
				long threadNow = threads.getCurrentThreadCpuTime();
				long processNow = os.getProcessCpuTime();
				long jitNow = jit.getTotalCompilationTime();
				windows.append(String.format(" [%d: %.1f/%.1f us, jit %d ms]", i + 1,
						(threadNow - threadBefore) / 1000.0 / window, (processNow - processBefore) / 1000.0 / window,
						jitNow - jitBefore));
				threadBefore = threadNow;
				processBefore = processNow;
				jitBefore = jitNow;
			}
			if (i + 1 == events / 2) {
				threadHalf = threads.getCurrentThreadCpuTime();
				processHalf = os.getProcessCpuTime();
			}
		}
		long threadEnd = threads.getCurrentThreadCpuTime();
		long processEnd = os.getProcessCpuTime();
		System.out.printf(
				"Pod events %d: thread CPU %.1f us/event (second half %.1f), process CPU %.1f us/event "
						+ "(second half %.1f), JIT %d ms, allocated %.1f KB/event%n",
				events, (threadEnd - threadStart) / 1000.0 / events,
				(threadEnd - threadHalf) / 1000.0 / (events - events / 2),
				(processEnd - processStart) / 1000.0 / events,
				(processEnd - processHalf) / 1000.0 / (events - events / 2), jit.getTotalCompilationTime() - jitStart,
				(threads.getThreadAllocatedBytes(thread) - allocatedStart) / 1024.0 / events);
		System.out.println("windows (thread/process per event):" + windows);
	}

	private static List<byte[]> frames(Path directory, int objects) throws Exception {
		Path modified = directory.resolve("modified.pb");
		if (!Files.exists(modified)) {
			Path clientGo = ClientGo.build();
			if (clientGo == null) {
				throw new IllegalStateException("Go is needed to encode the Pods");
			}
			Files.createDirectories(directory);
			JsonArray pods = new JsonArray();
			for (int i = 0; i < objects; i++) {
				pods.add(Payloads.servedPod("shop", i));
			}
			ClientGo.encodeProtobuf(clientGo, "pods", "PodList", pods, directory);
		}
		return ClientGo.watchFrames(directory);
	}

}
