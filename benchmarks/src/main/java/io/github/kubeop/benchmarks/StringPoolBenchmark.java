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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.github.kubeop.informer.DecoderProbe;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * What pooling the strings of one decoded Pod costs: the strings the decoder pools in the
 * realistic Pod of {@link Payloads#servedPod(String, int)} (keys and short values,
 * without managedFields), each a fresh instance as the JSON reader makes it, pooled by
 * Kubeop's pool, by the JVM's string table ({@link String#intern()}, the pool before),
 * and by a plain {@link HashMap} (the floor: neither weak nor safe for concurrent use).
 * The Pods cycle through a hundred objects, as an informer's do.
 *
 * @author Kubeop authors
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@State(Scope.Thread)
public class StringPoolBenchmark {

	private static final int OBJECTS = 100;

	private final char[][][] strings = new char[OBJECTS][][];

	private final Map<String, String> map = new HashMap<>();

	private int next;

	@Setup
	public void collect() {
		for (int i = 0; i < OBJECTS; i++) {
			JsonObject pod = Payloads.servedPod("shop", i);
			pod.getAsJsonObject("metadata").remove("managedFields");
			List<char[]> found = new ArrayList<>();
			collect(pod, found);
			this.strings[i] = found.toArray(new char[0][]);
		}
	}

	private static void collect(JsonElement element, List<char[]> found) {
		if (element instanceof JsonObject object) {
			for (Map.Entry<String, JsonElement> member : object.entrySet()) {
				found.add(member.getKey().toCharArray());
				collect(member.getValue(), found);
			}
		}
		else if (element instanceof JsonArray array) {
			array.forEach((item) -> collect(item, found));
		}
		else if (element instanceof JsonPrimitive primitive && primitive.isString()
				&& primitive.getAsString().length() <= 256) {
			found.add(primitive.getAsString().toCharArray());
		}
	}

	private char[][] nextPod() {
		this.next = (this.next + 1) % OBJECTS;
		return this.strings[this.next];
	}

	@Benchmark
	public void kubeopPool(Blackhole blackhole) {
		for (char[] chars : nextPod()) {
			blackhole.consume(DecoderProbe.pooled(new String(chars)));
		}
	}

	@Benchmark
	public void intern(Blackhole blackhole) {
		for (char[] chars : nextPod()) {
			blackhole.consume(new String(chars).intern());
		}
	}

	@Benchmark
	public void hashMap(Blackhole blackhole) {
		for (char[] chars : nextPod()) {
			String value = new String(chars);
			String pooled = this.map.putIfAbsent(value, value);
			blackhole.consume((pooled != null) ? pooled : value);
		}
	}

	@Benchmark
	public void noPool(Blackhole blackhole) {
		for (char[] chars : nextPod()) {
			blackhole.consume(new String(chars));
		}
	}

}
