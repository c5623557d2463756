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

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * A loopback HTTP server that plays back a recorded list of ConfigMaps and then streams
 * MODIFIED events of those objects, with increasing resourceVersions, as fast as the
 * client reads them. It answers the few discovery requests the contenders make, so that
 * every client runs unchanged; where the real API server is the bottleneck, this shows
 * the client's own limit.
 *
 * @author Kubeop authors
 */
final class ReplayServer implements AutoCloseable {

	private static final int RESOURCE_VERSION_DIGITS = 20;

	private static final String RESOURCE_VERSION_MARKER = "\"resourceVersion\":\"" + "0".repeat(RESOURCE_VERSION_DIGITS)
			+ "\"";

	private static final byte[] NOT_FOUND = """
			{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"""
		.getBytes(StandardCharsets.UTF_8);

	private final String namespace;

	private final byte[] list;

	private final byte[][] events;

	private final int[] resourceVersionOffsets;

	private final AtomicLong resourceVersion = new AtomicLong(1_000_000_000L);

	private final AtomicLong eventsWritten = new AtomicLong();

	private final ServerSocket socket;

	private final ExecutorService connections = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "replay-server");
		thread.setDaemon(true);
		return thread;
	});

	private volatile boolean running = true;

	private ReplayServer(String namespace, JsonObject recordedList) throws IOException {
		this.namespace = namespace;
		List<byte[]> templates = new ArrayList<>();
		List<Integer> offsets = new ArrayList<>();
		for (JsonElement item : recordedList.getAsJsonArray("items")) {
			JsonObject object = item.getAsJsonObject().deepCopy();
			object.addProperty("apiVersion", "v1");
			object.addProperty("kind", "ConfigMap");
			object.getAsJsonObject("metadata").addProperty("resourceVersion", "0".repeat(RESOURCE_VERSION_DIGITS));
			byte[] event = ("{\"type\":\"MODIFIED\",\"object\":" + object + "}\n").getBytes(StandardCharsets.UTF_8);
			int marker = new String(event, StandardCharsets.ISO_8859_1).indexOf(RESOURCE_VERSION_MARKER);
			if (marker < 0) {
				throw new IllegalStateException("No resourceVersion in a recorded object");
			}
			templates.add(event);
			offsets.add(marker + RESOURCE_VERSION_MARKER.length() - RESOURCE_VERSION_DIGITS - 1);
		}
		this.events = templates.toArray(new byte[0][]);
		this.resourceVersionOffsets = offsets.stream().mapToInt(Integer::intValue).toArray();
		JsonObject list = recordedList.deepCopy();
		list.getAsJsonObject("metadata").addProperty("resourceVersion", pad(this.resourceVersion.get()));
		list.getAsJsonObject("metadata").remove("continue");
		this.list = list.toString().getBytes(StandardCharsets.UTF_8);
		this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "replay-server-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a server that plays back a list as recorded.
	 * @param namespace the namespace the list was read from
	 * @param recordedList the list as the API server sent it
	 * @return the running server
	 * @throws IOException if no loopback port is free
	 */
	static ReplayServer start(String namespace, JsonObject recordedList) throws IOException {
		return new ReplayServer(namespace, recordedList);
	}

	String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	/**
	 * Writes a kubeconfig without credentials that points at this server.
	 * @param directory where to write it
	 * @return the file
	 * @throws IOException if it cannot be written
	 */
	Path writeKubeconfig(Path directory) throws IOException {
		String kubeconfig = """
				apiVersion: v1
				kind: Config
				clusters:
				- name: replay
				  cluster:
				    server: %s
				users:
				- name: replay
				  user: {}
				contexts:
				- name: replay
				  context: {cluster: replay, user: replay, namespace: %s}
				current-context: replay
				""".formatted(url(), this.namespace);
		Path file = directory.resolve("replay-kubeconfig.yaml");
		Files.writeString(file, kubeconfig, StandardCharsets.UTF_8);
		return file;
	}

	/**
	 * Returns how many watch events this server has written so far.
	 * @return the events written
	 */
	long eventsWritten() {
		return this.eventsWritten.get();
	}

	@Override
	public void close() throws IOException {
		this.running = false;
		this.socket.close();
		this.connections.shutdownNow();
	}

	private void accept() {
		while (this.running) {
			try {
				Socket connection = this.socket.accept();
				connection.setTcpNoDelay(true);
				this.connections.execute(() -> serve(connection));
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void serve(Socket connection) {
		try (connection) {
			InputStream input = new BufferedInputStream(connection.getInputStream());
			OutputStream output = new BufferedOutputStream(connection.getOutputStream(), 1 << 16);
			String target;
			while (this.running && (target = readRequest(input)) != null) {
				String path = (target.indexOf('?') >= 0) ? target.substring(0, target.indexOf('?')) : target;
				String query = (target.indexOf('?') >= 0) ? target.substring(target.indexOf('?') + 1) : "";
				if (path.equals("/api/v1/namespaces/" + this.namespace + "/configmaps")
						|| path.equals("/api/v1/configmaps")) {
					if (query.contains("watch=true") || query.contains("watch=1")) {
						stream(output, query.contains("sendInitialEvents=true"));
						return;
					}
					respond(output, 200, this.list);
				}
				else {
					byte[] document = discovery(path);
					respond(output, (document != null) ? 200 : 404, (document != null) ? document : NOT_FOUND);
				}
			}
		}
		catch (IOException ex) {
			// the client went away
		}
	}

	private static byte[] discovery(String path) {
		String body = switch (path) {
			case "/version" -> "{\"major\":\"1\",\"minor\":\"35\",\"gitVersion\":\"v1.35.4\"}";
			case "/api" -> "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"]}";
			case "/apis" -> "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}";
			case "/api/v1" -> """
					{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps",\
					"singularName":"configmap","namespaced":true,"kind":"ConfigMap",\
					"verbs":["create","delete","get","list","patch","update","watch"]}]}""";
			default -> null;
		};
		return (body != null) ? body.getBytes(StandardCharsets.UTF_8) : null;
	}

	/**
	 * Streams events in chunks of up to 128 KB until the client disconnects or the server
	 * closes.
	 */
	private void stream(OutputStream output, boolean initialEvents) throws IOException {
		output.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		if (initialEvents) {
			// a watch-list client (client-go's default) syncs from the watch: the objects
			// as
			// ADDED, then a bookmark that marks the end of the initial events
			StringBuilder initial = new StringBuilder();
			for (byte[] event : this.events) {
				initial.append(new String(event, StandardCharsets.UTF_8).replaceFirst("\"MODIFIED\"", "\"ADDED\""));
			}
			initial.append("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",")
				.append("\"metadata\":{\"resourceVersion\":\"")
				.append(pad(this.resourceVersion.get()))
				.append("\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n");
			byte[] bytes = initial.toString().getBytes(StandardCharsets.UTF_8);
			output.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			output.write(bytes);
			output.write("\r\n".getBytes(StandardCharsets.US_ASCII));
			output.flush();
		}
		byte[] chunk = new byte[1 << 17];
		int next = 0;
		while (this.running) {
			int length = 0;
			int written = 0;
			while (length + this.events[next].length <= chunk.length) {
				byte[] event = this.events[next];
				System.arraycopy(event, 0, chunk, length, event.length);
				writeResourceVersion(chunk, length + this.resourceVersionOffsets[next],
						this.resourceVersion.incrementAndGet());
				length += event.length;
				next = (next + 1) % this.events.length;
				written++;
			}
			output.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			output.write(chunk, 0, length);
			output.write("\r\n".getBytes(StandardCharsets.US_ASCII));
			output.flush();
			this.eventsWritten.addAndGet(written);
		}
	}

	private static void writeResourceVersion(byte[] buffer, int offset, long resourceVersion) {
		long value = resourceVersion;
		for (int i = offset + RESOURCE_VERSION_DIGITS - 1; i >= offset; i--) {
			buffer[i] = (byte) ('0' + (value % 10));
			value /= 10;
		}
	}

	private static String pad(long resourceVersion) {
		String digits = Long.toString(resourceVersion);
		return "0".repeat(RESOURCE_VERSION_DIGITS - digits.length()) + digits;
	}

	private static void respond(OutputStream output, int status, byte[] body) throws IOException {
		output.write(("HTTP/1.1 " + status + ((status == 200) ? " OK" : " Not Found")
				+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		output.write(body);
		output.flush();
	}

	/**
	 * Reads one request's head and returns its target, or {@code null} at the end of the
	 * connection. Requests here are GETs without a body.
	 */
	private static String readRequest(InputStream input) throws IOException {
		String requestLine = readLine(input);
		if (requestLine == null || requestLine.isEmpty()) {
			return null;
		}
		String header;
		while ((header = readLine(input)) != null && !header.isEmpty()) {
			// headers are not needed
		}
		String[] parts = requestLine.split(" ");
		return (parts.length > 1) ? parts[1] : "/";
	}

	private static String readLine(InputStream input) throws IOException {
		StringBuilder line = new StringBuilder();
		int read;
		while ((read = input.read()) != -1) {
			if (read == '\n') {
				int length = line.length();
				return (length > 0 && line.charAt(length - 1) == '\r') ? line.substring(0, length - 1)
						: line.toString();
			}
			line.append((char) read);
		}
		return (line.length() > 0) ? line.toString() : null;
	}

}
