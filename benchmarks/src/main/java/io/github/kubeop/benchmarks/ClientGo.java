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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The client-go contender: a small Go program (in {@code benchmarks/src/main/go}) built
 * from the Go module proxy and run as a separate process.
 *
 * @author Kubeop authors
 */
final class ClientGo {

	private ClientGo() {
	}

	/**
	 * Has the Go program encode objects with client-go's protobuf serializer, as a list
	 * ({@code list.pb}) and as watch events of them ({@code modified.pb}, each frame
	 * after its length), into a directory.
	 * @param binary the program ({@link #build()})
	 * @param plural the objects' resource, for example {@code pods}
	 * @param listKind the kind of their list, for example {@code PodList}
	 * @param items the objects as the API server serves them in JSON
	 * @param directory where the encoded files go
	 * @throws IOException if the program cannot encode them
	 * @throws InterruptedException if interrupted while it runs
	 */
	static void encodeProtobuf(Path binary, String plural, String listKind, JsonArray items, Path directory)
			throws IOException, InterruptedException {
		JsonObject list = new JsonObject();
		list.addProperty("kind", listKind);
		list.addProperty("apiVersion", "v1");
		JsonObject metadata = new JsonObject();
		metadata.addProperty("resourceVersion", "1");
		list.add("metadata", metadata);
		list.add("items", items);
		Path input = directory.resolve("list.json");
		Files.writeString(input, list.toString(), StandardCharsets.UTF_8);
		encodeProtobuf(binary, plural, input, directory, Duration.ofMinutes(2));
	}

	/**
	 * Has the Go program encode a list given in JSON with client-go's protobuf
	 * serializer: {@code list.pb}, and watch events of its objects ({@code modified.pb},
	 * {@code added.pb}, {@code bookmark.pb}, each frame after its length), into a
	 * directory. The program is killed if it outlives the timeout.
	 * @param binary the program ({@link #build()})
	 * @param plural the objects' resource, for example {@code pods}
	 * @param list the list's JSON file
	 * @param directory where the encoded files go
	 * @param timeout how long the program may take
	 * @throws IOException if the program cannot encode them
	 * @throws InterruptedException if interrupted while it runs
	 */
	static void encodeProtobuf(Path binary, String plural, Path list, Path directory, Duration timeout)
			throws IOException, InterruptedException {
		Process process = new ProcessBuilder(binary.toString(), "-mode", "encode-protobuf", "-resource", plural, "-in",
				list.toString(), "-out", directory.toString())
			.inheritIO()
			.start();
		if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			process.destroyForcibly();
			throw new IOException("Could not encode the " + plural + " as protobuf within " + timeout);
		}
		if (process.exitValue() != 0) {
			throw new IOException("Could not encode the " + plural + " as protobuf");
		}
	}

	/**
	 * Reads the watch frames {@link #encodeProtobuf} wrote, each without its length.
	 * @param directory the directory it wrote to
	 * @return the frames
	 * @throws IOException if they cannot be read
	 */
	static List<byte[]> watchFrames(Path directory) throws IOException {
		ByteBuffer buffer = ByteBuffer.wrap(Files.readAllBytes(directory.resolve("modified.pb")));
		List<byte[]> frames = new ArrayList<>();
		while (buffer.hasRemaining()) {
			byte[] frame = new byte[buffer.getInt()];
			buffer.get(frame);
			frames.add(frame);
		}
		return frames;
	}

	/**
	 * Builds the program, or returns {@code null} (and says so) when Go is not on the
	 * PATH.
	 * @return the binary, or {@code null}
	 * @throws InterruptedException if interrupted while building
	 */
	static Path build() throws InterruptedException {
		return build("informer-sync");
	}

	/**
	 * Builds one of the Go programs under {@code src/main/go}, or returns {@code null}
	 * (and says so) when Go is not on the PATH.
	 * @param program the program's directory, for example {@code priority-queue}
	 * @return the binary, or {@code null}
	 * @throws InterruptedException if interrupted while building
	 */
	static Path build(String program) throws InterruptedException {
		// from the repository's root (benchmarks/run) or the module's (its tests)
		Path module = Files.isDirectory(Path.of("benchmarks", "src")) ? Path.of("benchmarks") : Path.of("");
		Path source = module.resolve(Path.of("src", "main", "go", program));
		Path binary = module.resolve(Path.of("target", program)).toAbsolutePath();
		ProcessBuilder build = new ProcessBuilder("go", "build", "-o", binary.toString(), ".")
			.directory(source.toFile())
			.inheritIO();
		build.environment().put("GOTOOLCHAIN", "local");
		build.environment().put("CGO_ENABLED", "0");
		try {
			if (build.start().waitFor() == 0) {
				return binary;
			}
		}
		catch (IOException ex) {
			// no Go on the PATH
		}
		System.out.println(program + " contender skipped: could not build " + source + " with go");
		return null;
	}

	/**
	 * Runs one initial sync, measured as {@link SyncProbe} measures the Java contenders.
	 * @param binary the program
	 * @param kubeconfig the kubeconfig file
	 * @param namespace the namespace
	 * @param resource {@code configmaps} or {@code pods}
	 * @param stripManagedFields whether the informer factory gets a transform that drops
	 * managedFields
	 * @param json whether the client asks for JSON only, rather than its default for
	 * built-in types (protobuf, JSON as the fallback)
	 * @param results where the Go runtime's settings are recorded
	 * @return the program's figures: syncMillis, bytesPerObject, rssMiB,
	 * cachedWithManagedFields
	 */
	static JsonObject sync(Path binary, Path kubeconfig, String namespace, String resource, boolean stripManagedFields,
			boolean json, Results results) {
		try {
			List<String> command = new ArrayList<>(List.of(binary.toString(), "-kubeconfig", kubeconfig.toString(),
					"-namespace", namespace, "-resource", resource, "-strip-managed-fields=" + stripManagedFields));
			if (json) {
				command.addAll(List.of("-content-type", "json"));
			}
			return run(command, results);
		}
		catch (IOException | InterruptedException ex) {
			throw new IllegalStateException("Could not run " + binary, ex);
		}
	}

	/**
	 * Runs the program once to its end and returns the figures it printed, recording the
	 * Go runtime's settings it reports.
	 * @param command the program and its arguments
	 * @param results where the Go runtime's settings are recorded
	 * @return the program's figures
	 * @throws IOException if it cannot be started
	 * @throws InterruptedException if interrupted while it runs
	 */
	static JsonObject run(List<String> command, Results results) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		if (process.waitFor() != 0) {
			throw new IllegalStateException("client-go program failed: " + output);
		}
		JsonObject result = JsonParser.parseString(output).getAsJsonObject();
		results.environment()
			.put("clientGo",
					result.get("goVersion").getAsString() + ", GOMAXPROCS=" + result.get("gomaxprocs").getAsInt()
							+ ", GOGC=" + (result.get("gogc").getAsString().isEmpty() ? "default (100)"
									: result.get("gogc").getAsString()));
		return result;
	}

	/**
	 * Starts the program in events mode and waits until its informer has synced.
	 * @param binary the program
	 * @param kubeconfig the kubeconfig file
	 * @param namespace the namespace of the ConfigMaps
	 * @return the running program
	 * @throws IOException if it cannot be started or fails before syncing
	 */
	static Events events(Path binary, Path kubeconfig, String namespace) throws IOException {
		return events(new ProcessBuilder(binary.toString(), "-kubeconfig", kubeconfig.toString(), "-namespace",
				namespace, "-mode", "events")
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start());
	}

	/**
	 * Takes a started process that speaks the program's events protocol (the Java
	 * contenders' latency children do too) and waits until its informer has synced.
	 * @param process the process
	 * @return the running process
	 * @throws IOException if it fails before syncing
	 */
	static Events events(Process process) throws IOException {
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line = output.readLine();
		if (line == null || !line.contains("synced")) {
			process.destroyForcibly();
			throw new IOException("contender did not sync: " + line);
		}
		return new Events(process, output);
	}

	/**
	 * Starts the program in replay mode: it counts updates until it has handled the given
	 * number, then prints the time of the last one and the CPU time and bytes allocated
	 * since its informer synced.
	 * @param binary the program
	 * @param kubeconfig the kubeconfig file
	 * @param namespace the namespace of the objects
	 * @param resource the objects, {@code configmaps} or {@code pods}
	 * @param events the updates to wait for
	 * @param timeout how long to wait for them
	 * @param json whether the client asks for JSON only, rather than client-go's default
	 * for built-in types (protobuf, JSON as the fallback)
	 * @param memoryLimit a GOMEMLIMIT to run with GOGC=off, or {@code null} for the
	 * defaults
	 * @param cpuProfile where to write a pprof CPU profile, or {@code null}
	 * @return the process
	 * @throws IOException if it cannot be started
	 */
	static Process replay(Path binary, Path kubeconfig, String namespace, String resource, long events,
			Duration timeout, boolean json, String memoryLimit, Path cpuProfile) throws IOException {
		List<String> command = new ArrayList<>(List.of(binary.toString(), "-kubeconfig", kubeconfig.toString(),
				"-namespace", namespace, "-resource", resource, "-mode", "replay", "-events", Long.toString(events),
				"-timeout", timeout.toSeconds() + "s"));
		if (json) {
			command.addAll(List.of("-content-type", "json"));
		}
		if (cpuProfile != null) {
			command.addAll(List.of("-cpuprofile", cpuProfile.toString()));
		}
		ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
		builder.environment().remove("GOGC");
		builder.environment().remove("GOMEMLIMIT");
		if (memoryLimit != null) {
			builder.environment().put("GOGC", "off");
			builder.environment().put("GOMEMLIMIT", memoryLimit);
		}
		return builder.start();
	}

	/**
	 * Writes the top entries of a CPU profile, by flat time, as
	 * {@code go tool pprof -top} prints them.
	 * @param binary the profiled program
	 * @param profile the profile
	 * @param top the text file to write
	 * @param entries how many entries
	 * @throws InterruptedException if interrupted while waiting for pprof
	 */
	static void profileTop(Path binary, Path profile, Path top, int entries) throws InterruptedException {
		ProcessBuilder pprof = new ProcessBuilder("go", "tool", "pprof", "-top", "-nodecount=" + entries,
				binary.toString(), profile.toString())
			.redirectOutput(top.toFile())
			.redirectError(ProcessBuilder.Redirect.INHERIT);
		pprof.environment().put("GOTOOLCHAIN", "local");
		try {
			if (pprof.start().waitFor() != 0) {
				System.out.println("go tool pprof could not read " + profile);
			}
		}
		catch (IOException ex) {
			System.out.println("go tool pprof could not run: " + ex.getMessage());
		}
	}

	/**
	 * The program in events mode.
	 */
	static final class Events {

		private final Process process;

		private final BufferedReader output;

		private Events(Process process, BufferedReader output) {
			this.process = process;
			this.output = output;
		}

		/**
		 * Resets its counters: the measured window starts.
		 * @throws IOException if the program is gone
		 */
		void start() throws IOException {
			OutputStream input = this.process.getOutputStream();
			input.write('\n');
			input.flush();
		}

		/**
		 * Notes the events seen so far: the measured window ends, latencies are still
		 * collected until {@link #finish()}.
		 * @throws IOException if the program is gone
		 */
		void mark() throws IOException {
			start();
		}

		/**
		 * Returns what the program saw between {@link #start()} and {@link #mark()}.
		 * @return events, elapsedMillis and latencyMicros (p50, p99, samples)
		 * @throws IOException if the program failed
		 * @throws InterruptedException if interrupted while waiting for it
		 */
		JsonObject finish() throws IOException, InterruptedException {
			this.process.getOutputStream().close();
			String line = this.output.readLine();
			this.process.waitFor();
			if (line == null) {
				throw new IOException("client-go program exited with " + this.process.exitValue());
			}
			return JsonParser.parseString(line).getAsJsonObject();
		}

	}

}
