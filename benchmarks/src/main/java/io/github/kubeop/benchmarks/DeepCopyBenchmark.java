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

import java.util.concurrent.TimeUnit;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.informer.DeepCopier;
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
 * What handing out a cached object costs: Kubeop's {@link DeepCopier} (a per-class plan
 * of field copies that shares strings, timestamps and quantities) beside a JSON round
 * trip through the client's Gson (how the Java Operator SDK's default cloner copies a
 * resource, with Jackson), for the realistic Pod of {@link Payloads#pod(String, int)}
 * with its status, and for the ConfigMap of the handler benchmark. Run with
 * {@code -prof gc} for the bytes each copy allocates.
 *
 * @author Kubeop authors
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class DeepCopyBenchmark {

	private Gson gson;

	private V1Pod pod;

	private V1ConfigMap configMap;

	@Setup
	public void decode() {
		this.gson = new JSON().getGson();
		JsonObject pod = JsonParser.parseString(Payloads.pod("shop", 7)).getAsJsonObject();
		pod.add("status", JsonParser.parseString(Payloads.podStatus(7)));
		this.pod = this.gson.fromJson(pod, V1Pod.class);
		this.configMap = this.gson.fromJson(Payloads.configMap("shop", 7), V1ConfigMap.class);
	}

	@Benchmark
	public V1Pod podDeepCopier() {
		return DeepCopier.copy(this.pod);
	}

	@Benchmark
	public V1Pod podJsonRoundTrip() {
		return this.gson.fromJson(this.gson.toJson(this.pod), V1Pod.class);
	}

	@Benchmark
	public V1ConfigMap configMapDeepCopier() {
		return DeepCopier.copy(this.configMap);
	}

	@Benchmark
	public V1ConfigMap configMapJsonRoundTrip() {
		return this.gson.fromJson(this.gson.toJson(this.configMap), V1ConfigMap.class);
	}

}
