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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ProtobufDecoderProbe;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;

/**
 * Thread CPU time and allocation per object of decoding a protobuf list response, as an
 * informer's list or relist reads it (with the lean cache's string pooling, the default):
 * realistic Pods and small ConfigMaps, encoded by client-go's serializer as the API
 * server sends them. Run with {@code java -cp benchmarks.jar
 * io.github.kubeop.benchmarks.ListDecodeCpuProbe [objects] [rounds]}; needs Go on the
 * PATH.
 *
 * @author Kubeop authors
 */
public final class ListDecodeCpuProbe {

	private ListDecodeCpuProbe() {
	}

	/**
	 * Runs the probe.
	 * @param args the number of objects per list and the number of measured rounds
	 * @throws Exception if the lists cannot be encoded or decoded
	 */
	public static void main(String[] args) throws Exception {
		int objects = (args.length > 0) ? Integer.parseInt(args[0]) : 2000;
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 40;
		Path clientGo = ClientGo.build();
		if (clientGo == null) {
			throw new IllegalStateException("Go is needed to encode the lists");
		}
		JsonArray pods = new JsonArray();
		JsonArray configMaps = new JsonArray();
		for (int i = 0; i < objects; i++) {
			pods.add(Payloads.servedPod("shop", i));
			JsonObject configMap = JsonParser.parseString(Payloads.configMap("shop", i)).getAsJsonObject();
			configMap.getAsJsonObject("metadata").addProperty("resourceVersion", Integer.toString(1000 + i));
			configMaps.add(configMap);
		}
		byte[] podList = encode(clientGo, "pods", "PodList", pods);
		byte[] configMapList = encode(clientGo, "configmaps", "ConfigMapList", configMaps);
		measure("Pods", ProtobufDecoderProbe.of(InformerSpec.of("pods", "v1", "Pod", V1Pod.class), "", "pods"), podList,
				objects, rounds);
		measure("ConfigMaps", ProtobufDecoderProbe
			.of(InformerSpec.of("configmaps", "v1", "ConfigMap", V1ConfigMap.class), "", "configmaps"), configMapList,
				objects, rounds);
	}

	private static void measure(String name, ProtobufDecoderProbe<?> probe, byte[] list, int objects, int rounds)
			throws Exception {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long thread = Thread.currentThread().getId();
		// warm-up: the JIT compiles the decoder first
		for (int i = 0; i < rounds; i++) {
			probe.decodeList(list);
		}
		double[] cpu = new double[rounds];
		double[] allocated = new double[rounds];
		for (int i = 0; i < rounds; i++) {
			long cpuBefore = threads.getCurrentThreadCpuTime();
			long allocatedBefore = threads.getThreadAllocatedBytes(thread);
			int decoded = probe.decodeList(list);
			cpu[i] = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1000.0 / decoded;
			allocated[i] = (threads.getThreadAllocatedBytes(thread) - allocatedBefore) / 1024.0 / decoded;
			if (decoded != objects) {
				throw new IllegalStateException("Decoded " + decoded + " of " + objects);
			}
		}
		Arrays.sort(cpu);
		Arrays.sort(allocated);
		System.out.printf(
				"%s: %d objects, %d KB list, %d rounds: thread CPU per object %.2f us (%.2f to %.2f), "
						+ "allocated %.2f KB%n",
				name, objects, list.length / 1024, rounds, cpu[rounds / 2], cpu[0], cpu[rounds - 1],
				allocated[rounds / 2]);
	}

	private static byte[] encode(Path clientGo, String plural, String listKind, JsonArray items) throws Exception {
		Path directory = Files.createTempDirectory("list-decode");
		ClientGo.encodeProtobuf(clientGo, plural, listKind, items, directory);
		return Files.readAllBytes(directory.resolve("list.pb"));
	}

}
