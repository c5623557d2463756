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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.informer.DecoderProbe;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ProtobufDecoderProbe;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Pod;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What decoding one watch event costs: Kubeop's decoder, as an informer with the default
 * transforms runs it (managedFields dropped, repeated strings pooled), on the realistic
 * Pod of {@link Payloads#servedPod(String, int)} (about 15 KB of JSON with its status and
 * managedFields) and on a ConfigMap with 1 KB of data, beside the client's own Gson
 * decoding the same object, and Kubeop's protobuf decoder on the same objects as
 * client-go's own serializer writes them (the Go program encodes them; without Go on the
 * PATH the protobuf rows fail). The events cycle through a hundred objects, so that the
 * string pool and the shared timestamps and quantities see what an informer sees. Run
 * with {@code -prof gc} for the bytes each decode allocates.
 *
 * @author Kubeop authors
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@State(Scope.Thread)
public class DecoderBenchmark {

	private static final int OBJECTS = 100;

	private final String[] podEvents = new String[OBJECTS];

	private final String[] pods = new String[OBJECTS];

	private final String[] configMapEvents = new String[OBJECTS];

	private final byte[][] podFrames = new byte[OBJECTS][];

	private final byte[][] configMapFrames = new byte[OBJECTS][];

	private DecoderProbe<V1Pod> podDecoder;

	private ProtobufDecoderProbe<V1Pod> podProtobufDecoder;

	private ProtobufDecoderProbe<V1ConfigMap> configMapProtobufDecoder;

	private DecoderProbe<V1ConfigMap> configMapDecoder;

	private Gson clientGson;

	private int next;

	@Setup
	public void record() throws Exception {
		JsonArray podItems = new JsonArray();
		JsonArray configMapItems = new JsonArray();
		for (int i = 0; i < OBJECTS; i++) {
			JsonObject pod = Payloads.servedPod("shop", i);
			this.pods[i] = pod.toString();
			this.podEvents[i] = "{\"type\":\"MODIFIED\",\"object\":" + pod + "}";
			podItems.add(pod);
			JsonObject configMap = JsonParser.parseString(Payloads.configMap("shop", i)).getAsJsonObject();
			configMap.getAsJsonObject("metadata").addProperty("resourceVersion", Integer.toString(1000 + i));
			this.configMapEvents[i] = "{\"type\":\"MODIFIED\",\"object\":" + configMap + "}";
			configMapItems.add(configMap);
		}
		Path clientGo = ClientGo.build();
		if (clientGo != null) {
			frames(clientGo, "pods", "PodList", podItems, this.podFrames);
			frames(clientGo, "configmaps", "ConfigMapList", configMapItems, this.configMapFrames);
		}
		this.podProtobufDecoder = ProtobufDecoderProbe.of(InformerSpec.of("pods", "v1", "Pod", V1Pod.class), "",
				"pods");
		this.configMapProtobufDecoder = ProtobufDecoderProbe
			.of(InformerSpec.of("configmaps", "v1", "ConfigMap", V1ConfigMap.class), "", "configmaps");
		this.podDecoder = DecoderProbe.of(InformerSpec.of("pods", "v1", "Pod", V1Pod.class), "", "pods");
		this.configMapDecoder = DecoderProbe.of(InformerSpec.of("configmaps", "v1", "ConfigMap", V1ConfigMap.class), "",
				"configmaps");
		this.clientGson = new JSON().getGson();
	}

	/**
	 * Has the Go program encode the objects as client-go's serializer writes watch
	 * events, and keeps each frame without its length.
	 */
	private static void frames(Path clientGo, String plural, String listKind, JsonArray items, byte[][] frames)
			throws Exception {
		Path directory = Files.createTempDirectory("decoder-protobuf");
		ClientGo.encodeProtobuf(clientGo, plural, listKind, items, directory);
		List<byte[]> read = ClientGo.watchFrames(directory);
		for (int i = 0; i < frames.length; i++) {
			frames[i] = read.get(i);
		}
	}

	private int next() {
		this.next = (this.next + 1) % OBJECTS;
		return this.next;
	}

	@Benchmark
	public V1Pod podKubeop() throws IOException {
		return this.podDecoder.decodeEvent(this.podEvents[next()]);
	}

	@Benchmark
	public V1Pod podKubeopProtobuf() throws IOException {
		return this.podProtobufDecoder.decodeEvent(this.podFrames[next()]);
	}

	@Benchmark
	public V1Pod podClientGson() {
		return this.clientGson.fromJson(this.pods[next()], V1Pod.class);
	}

	@Benchmark
	public V1ConfigMap configMapKubeop() throws IOException {
		return this.configMapDecoder.decodeEvent(this.configMapEvents[next()]);
	}

	@Benchmark
	public V1ConfigMap configMapKubeopProtobuf() throws IOException {
		return this.configMapProtobufDecoder.decodeEvent(this.configMapFrames[next()]);
	}

}
