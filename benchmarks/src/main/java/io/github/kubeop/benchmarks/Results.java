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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;

/**
 * The samples of one scenario, by workload, object count, contender and metric, with the
 * environment they were taken in. Harnesses add samples as they measure and write them as
 * JSON under {@code benchmarks/results}; {@link BenchmarkReport} renders them.
 *
 * @author Kubeop authors
 */
final class Results {

	private static final Gson gson = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

	private final String scenario;

	private final Map<String, String> environment = new LinkedHashMap<>();

	private final List<Row> rows = new ArrayList<>();

	Results(String scenario) {
		this.scenario = scenario;
		Runtime runtime = Runtime.getRuntime();
		this.environment.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
		this.environment.put("jvmFlags", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
		this.environment.put("maxHeapMiB", Long.toString(runtime.maxMemory() >> 20));
		this.environment.put("cores", Integer.toString(runtime.availableProcessors()));
		this.environment.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
	}

	String scenario() {
		return this.scenario;
	}

	Map<String, String> environment() {
		return this.environment;
	}

	List<Row> rows() {
		return this.rows;
	}

	/**
	 * Adds one sample.
	 * @param workload what was measured, for example {@code ConfigMaps}
	 * @param objects how many objects, or a rate, or 0
	 * @param contender who was measured
	 * @param metric the metric name
	 * @param value the sample
	 */
	synchronized void add(String workload, long objects, String contender, String metric, double value) {
		row(workload, objects, contender).samples.computeIfAbsent(metric, (key) -> new ArrayList<>()).add(value);
	}

	synchronized Row row(String workload, long objects, String contender) {
		for (Row row : this.rows) {
			if (row.workload.equals(workload) && row.objects == objects && row.contender.equals(contender)) {
				return row;
			}
		}
		Row row = new Row(workload, objects, contender, new LinkedHashMap<>());
		this.rows.add(row);
		return row;
	}

	synchronized void write(Path directory) throws IOException {
		Files.createDirectories(directory);
		Path file = directory.resolve(this.scenario + ".json");
		Files.writeString(file, gson.toJson(this), StandardCharsets.UTF_8);
		System.out.println("Wrote " + file);
	}

	static Results read(Path file) throws IOException {
		return gson.fromJson(Files.readString(file, StandardCharsets.UTF_8), Results.class);
	}

	static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	/**
	 * Samples of one workload, object count and contender.
	 *
	 * @param workload the workload
	 * @param objects the object count or rate
	 * @param contender the contender
	 * @param samples the samples by metric, in the order taken
	 */
	record Row(String workload, long objects, String contender, Map<String, List<Double>> samples) {

		List<Double> metric(String name) {
			return this.samples.getOrDefault(name, List.of());
		}

	}

}
