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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * A loopback HTTP server that plays back a recorded list of ConfigMaps or Pods and then
 * streams a given number of MODIFIED events of those objects, with increasing
 * resourceVersions, as fast as the client reads them. It answers the few discovery
 * requests the contenders make, so that every client runs unchanged; where the real API
 * server is the bottleneck, this shows the client's own limit.
 * <p>
 * It speaks as the API server does to each client: JSON, or protobuf to a client whose
 * {@code Accept} header asks for {@code application/vnd.kubernetes.protobuf} (the frames
 * are encoded once, by client-go's own serializer in the Go program, and served as bytes
 * with only the resourceVersion digits rewritten); a watch as a chunked HTTP stream, or
 * over a WebSocket to a client that asks for the upgrade (fabric8), one event per text
 * message as the API server sends them.
 *
 * @author Kubeop authors
 */
final class ReplayServer implements AutoCloseable {

	private static final int RESOURCE_VERSION_DIGITS = 20;

	private static final byte[] RESOURCE_VERSION_PLACEHOLDER = "0".repeat(RESOURCE_VERSION_DIGITS)
		.getBytes(StandardCharsets.US_ASCII);

	private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

	private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

	private static final int CHUNK = 1 << 17;

	private static final byte[] NOT_FOUND = """
			{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"""
		.getBytes(StandardCharsets.UTF_8);

	private final String namespace;

	private final String plural;

	private final Encoding json;

	private final Encoding protobuf;

	private final AtomicLong resourceVersion = new AtomicLong(1_000_000_000L);

	private final AtomicLong eventsLeft = new AtomicLong();

	private final AtomicLong firstEventMicros = new AtomicLong();

	private volatile String lastWatchFormat = "none";

	private final ServerSocket socket;

	private final ExecutorService connections = Executors.newCachedThreadPool((runnable) -> {
		Thread thread = new Thread(runnable, "replay-server");
		thread.setDaemon(true);
		return thread;
	});

	private volatile boolean running = true;

	private ReplayServer(String namespace, String plural, String kind, JsonObject recordedList, Path clientGo)
			throws IOException {
		this.namespace = namespace;
		this.plural = plural;
		List<byte[]> modified = new ArrayList<>();
		List<byte[]> added = new ArrayList<>();
		for (JsonElement item : recordedList.getAsJsonArray("items")) {
			JsonObject object = item.getAsJsonObject().deepCopy();
			object.addProperty("apiVersion", "v1");
			object.addProperty("kind", kind);
			object.getAsJsonObject("metadata").addProperty("resourceVersion", "0".repeat(RESOURCE_VERSION_DIGITS));
			modified.add(("{\"type\":\"MODIFIED\",\"object\":" + object + "}\n").getBytes(StandardCharsets.UTF_8));
			added.add(("{\"type\":\"ADDED\",\"object\":" + object + "}\n").getBytes(StandardCharsets.UTF_8));
		}
		String bookmark = "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + kind + "\",\"apiVersion\":\"v1\","
				+ "\"metadata\":{\"resourceVersion\":\"" + "0".repeat(RESOURCE_VERSION_DIGITS)
				+ "\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n";
		JsonObject list = recordedList.deepCopy();
		list.getAsJsonObject("metadata").addProperty("resourceVersion", pad(this.resourceVersion.get()));
		list.getAsJsonObject("metadata").remove("continue");
		byte[] listBytes = list.toString().getBytes(StandardCharsets.UTF_8);
		this.json = new Encoding("application/json", "application/json", listBytes, modified, concat(added),
				bookmark.getBytes(StandardCharsets.UTF_8));
		this.protobuf = (clientGo != null) ? encodeProtobuf(clientGo, plural, listBytes) : null;
		this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "replay-server-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a server that plays back a list as recorded.
	 * @param namespace the namespace the list was read from
	 * @param plural the resource, {@code configmaps} or {@code pods}
	 * @param kind the kind of its objects
	 * @param recordedList the list as the API server sent it
	 * @param clientGo the Go program that encodes the protobuf frames, or {@code null} to
	 * serve JSON only
	 * @return the running server
	 * @throws IOException if no loopback port is free or the frames cannot be encoded
	 */
	static ReplayServer start(String namespace, String plural, String kind, JsonObject recordedList, Path clientGo)
			throws IOException {
		return new ReplayServer(namespace, plural, kind, recordedList, clientGo);
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
	 * Makes the next watches stream this many MODIFIED events between them (after any
	 * initial events a watch-list client asks for), then nothing more.
	 * @param events the events to stream
	 */
	void arm(long events) {
		this.firstEventMicros.set(0);
		this.eventsLeft.set(events);
	}

	/**
	 * Returns the wall-clock time, in microseconds since the epoch, at which the first
	 * event since {@link #arm(long)} was written, or 0 if none was.
	 * @return the time of the first event's first byte
	 */
	long firstEventMicros() {
		return this.firstEventMicros.get();
	}

	/**
	 * Returns how the last watch was served, for example {@code JSON over a WebSocket}.
	 * @return the wire format and transport of the last watch
	 */
	String lastWatchFormat() {
		return this.lastWatchFormat;
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
			Request request;
			while (this.running && (request = readRequest(input)) != null) {
				String target = request.target();
				String path = (target.indexOf('?') >= 0) ? target.substring(0, target.indexOf('?')) : target;
				String query = (target.indexOf('?') >= 0) ? target.substring(target.indexOf('?') + 1) : "";
				if (path.equals("/api/v1/namespaces/" + this.namespace + "/" + this.plural)
						|| path.equals("/api/v1/" + this.plural)) {
					Encoding encoding = (this.protobuf != null && request.header("accept").contains(PROTOBUF))
							? this.protobuf : this.json;
					if (query.contains("watch=true") || query.contains("watch=1")) {
						boolean initialEvents = query.contains("sendInitialEvents=true");
						if (request.header("upgrade").equalsIgnoreCase("websocket")) {
							this.lastWatchFormat = "JSON over a WebSocket";
							streamWebSocket(request, output, initialEvents);
						}
						else {
							this.lastWatchFormat = ((encoding == this.json) ? "JSON" : "protobuf")
									+ " over a chunked HTTP response";
							stream(encoding, output, initialEvents);
						}
						idle(input);
						return;
					}
					respond(output, 200, encoding.contentType(), encoding.list());
				}
				else {
					byte[] document = discovery(path);
					respond(output, (document != null) ? 200 : 404, "application/json",
							(document != null) ? document : NOT_FOUND);
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
					"verbs":["create","delete","get","list","patch","update","watch"]},{"name":"pods",\
					"singularName":"pod","namespaced":true,"kind":"Pod",\
					"verbs":["create","delete","get","list","patch","update","watch"]}]}""";
			default -> null;
		};
		return (body != null) ? body.getBytes(StandardCharsets.UTF_8) : null;
	}

	/**
	 * Streams the armed events as a chunked HTTP response, in chunks of up to 128 KB.
	 */
	private void stream(Encoding encoding, OutputStream output, boolean initialEvents) throws IOException {
		output.write(("HTTP/1.1 200 OK\r\nContent-Type: " + encoding.watchContentType()
				+ "\r\nTransfer-Encoding: chunked\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		if (initialEvents) {
			// a watch-list client (client-go's default) syncs from the watch: the objects
			// as ADDED, then a bookmark that marks the end of the initial events
			byte[] bookmark = encoding.bookmark().clone();
			writeResourceVersion(bookmark, indexOf(bookmark, RESOURCE_VERSION_PLACEHOLDER), this.resourceVersion.get());
			writeChunk(output, concat(List.of(encoding.added(), bookmark)), -1);
			output.flush();
		}
		byte[] chunk = new byte[CHUNK];
		int next = 0;
		long claimed;
		while (this.running && (claimed = claim(CHUNK / encoding.largestEvent())) > 0) {
			int length = 0;
			for (long i = 0; i < claimed; i++) {
				length = encoding.copyEvent(next, chunk, length, this.resourceVersion.incrementAndGet());
				next = (next + 1) % encoding.events();
			}
			this.firstEventMicros.compareAndSet(0, EventDeliveryBenchmark.nowMicros());
			writeChunk(output, chunk, length);
			output.flush();
		}
	}

	/**
	 * Answers a WebSocket upgrade (RFC 6455) with 101 and streams the armed events as the
	 * API server does over a WebSocket: one JSON event per unmasked text message.
	 */
	private void streamWebSocket(Request request, OutputStream output, boolean initialEvents) throws IOException {
		String accept = Base64.getEncoder()
			.encodeToString(sha1(
					(request.header("sec-websocket-key").trim() + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII)));
		StringBuilder response = new StringBuilder("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n")
			.append("Connection: Upgrade\r\nSec-WebSocket-Accept: ")
			.append(accept)
			.append("\r\n");
		String protocols = request.header("sec-websocket-protocol");
		if (!protocols.isEmpty()) {
			response.append("Sec-WebSocket-Protocol: ").append(protocols.split(",")[0].trim()).append("\r\n");
		}
		output.write(response.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
		if (initialEvents) {
			for (int i = 0; i < this.json.events(); i++) {
				writeTextFrame(output, this.json.addedEvent(i));
			}
			byte[] bookmark = this.json.bookmark().clone();
			writeResourceVersion(bookmark, indexOf(bookmark, RESOURCE_VERSION_PLACEHOLDER), this.resourceVersion.get());
			writeTextFrame(output, bookmark);
		}
		output.flush();
		byte[] event = new byte[this.json.largestEvent()];
		int next = 0;
		long claimed;
		while (this.running && (claimed = claim(CHUNK / this.json.largestEvent())) > 0) {
			for (long i = 0; i < claimed; i++) {
				int length = this.json.copyEvent(next, event, 0, this.resourceVersion.incrementAndGet());
				this.firstEventMicros.compareAndSet(0, EventDeliveryBenchmark.nowMicros());
				writeTextFrame(output, ByteBuffer.wrap(event, 0, length));
				next = (next + 1) % this.json.events();
			}
			output.flush();
		}
	}

	/**
	 * Takes up to {@code wanted} of the armed events.
	 */
	private long claim(long wanted) {
		while (true) {
			long left = this.eventsLeft.get();
			long taken = Math.min(wanted, left);
			if (taken <= 0 || this.eventsLeft.compareAndSet(left, left - taken)) {
				return Math.max(taken, 0);
			}
		}
	}

	/**
	 * Keeps a watch open with nothing more to send, as the API server does, until the
	 * client goes away; whatever it sends (WebSocket pings, closes) is read and dropped.
	 */
	private void idle(InputStream input) throws IOException {
		while (this.running && input.read() != -1) {
			// drop it
		}
	}

	private static void writeTextFrame(OutputStream output, byte[] payload) throws IOException {
		writeTextFrame(output, ByteBuffer.wrap(payload));
	}

	private static void writeTextFrame(OutputStream output, ByteBuffer payload) throws IOException {
		int length = payload.remaining();
		output.write(0x81);
		if (length < 126) {
			output.write(length);
		}
		else if (length < 65536) {
			output.write(126);
			output.write(length >>> 8);
			output.write(length & 0xff);
		}
		else {
			output.write(127);
			for (int shift = 56; shift >= 0; shift -= 8) {
				output.write((int) (((long) length >>> shift) & 0xff));
			}
		}
		output.write(payload.array(), payload.arrayOffset() + payload.position(), length);
	}

	private static void writeChunk(OutputStream output, byte[] bytes, int length) throws IOException {
		int size = (length < 0) ? bytes.length : length;
		output.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
		output.write(bytes, 0, size);
		output.write("\r\n".getBytes(StandardCharsets.US_ASCII));
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

	private static void respond(OutputStream output, int status, String contentType, byte[] body) throws IOException {
		output.write(("HTTP/1.1 " + status + ((status == 200) ? " OK" : " Not Found") + "\r\nContent-Type: "
				+ contentType + "\r\nContent-Length: " + body.length + "\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		output.write(body);
		output.flush();
	}

	/**
	 * Has the Go program encode the list and its events as protobuf with client-go's own
	 * serializer, and reads the frames back.
	 */
	private static Encoding encodeProtobuf(Path clientGo, String plural, byte[] list) throws IOException {
		Path directory = Files.createTempDirectory("replay-protobuf");
		Path input = directory.resolve("list.json");
		Files.write(input, list);
		try {
			ClientGo.encodeProtobuf(clientGo, plural, input, directory, Duration.ofMinutes(1));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
		byte[] modified = Files.readAllBytes(directory.resolve("modified.pb"));
		List<byte[]> frames = new ArrayList<>();
		ByteBuffer buffer = ByteBuffer.wrap(modified);
		while (buffer.hasRemaining()) {
			int length = buffer.getInt(buffer.position());
			byte[] frame = new byte[4 + length];
			buffer.get(frame);
			frames.add(frame);
		}
		return new Encoding(PROTOBUF, PROTOBUF + ";stream=watch", Files.readAllBytes(directory.resolve("list.pb")),
				frames, Files.readAllBytes(directory.resolve("added.pb")),
				Files.readAllBytes(directory.resolve("bookmark.pb")));
	}

	private static byte[] sha1(byte[] bytes) {
		try {
			return MessageDigest.getInstance("SHA-1").digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static byte[] concat(List<byte[]> parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		parts.forEach(out::writeBytes);
		return out.toByteArray();
	}

	private static int indexOf(byte[] bytes, byte[] part) {
		outer: for (int i = 0; i <= bytes.length - part.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return i;
		}
		throw new IllegalStateException("No resourceVersion in a recorded event");
	}

	/**
	 * Reads one request's head, or returns {@code null} at the end of the connection.
	 * Requests here are GETs without a body.
	 */
	private static Request readRequest(InputStream input) throws IOException {
		String requestLine = readLine(input);
		if (requestLine == null || requestLine.isEmpty()) {
			return null;
		}
		Map<String, String> headers = new HashMap<>();
		String header;
		while ((header = readLine(input)) != null && !header.isEmpty()) {
			int colon = header.indexOf(':');
			if (colon > 0) {
				headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
						header.substring(colon + 1).trim());
			}
		}
		String[] parts = requestLine.split(" ");
		return new Request((parts.length > 1) ? parts[1] : "/", headers);
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

	/**
	 * A request's target and headers (names in lower case).
	 */
	private record Request(String target, Map<String, String> headers) {

		String header(String name) {
			return this.headers.getOrDefault(name, "");
		}

	}

	/**
	 * What the server sends in one wire format: the list, and the watch events with the
	 * offset of each one's resourceVersion digits.
	 */
	private static final class Encoding {

		private final String contentType;

		private final String watchContentType;

		private final byte[] list;

		private final byte[][] events;

		private final int[] resourceVersionOffsets;

		private final byte[] added;

		private final byte[] bookmark;

		private final int largestEvent;

		Encoding(String contentType, String watchContentType, byte[] list, List<byte[]> events, byte[] added,
				byte[] bookmark) {
			this.contentType = contentType;
			this.watchContentType = watchContentType;
			this.list = list;
			this.events = events.toArray(new byte[0][]);
			this.resourceVersionOffsets = events.stream()
				.mapToInt((event) -> indexOf(event, RESOURCE_VERSION_PLACEHOLDER))
				.toArray();
			this.added = added;
			this.bookmark = bookmark;
			this.largestEvent = events.stream().mapToInt((event) -> event.length).max().orElse(1);
		}

		String contentType() {
			return this.contentType;
		}

		String watchContentType() {
			return this.watchContentType;
		}

		byte[] list() {
			return this.list;
		}

		byte[] added() {
			return this.added;
		}

		byte[] bookmark() {
			return this.bookmark;
		}

		int events() {
			return this.events.length;
		}

		int largestEvent() {
			return this.largestEvent;
		}

		/**
		 * Returns the ADDED form of one event, for a WebSocket watch-list.
		 */
		byte[] addedEvent(int index) {
			String event = new String(this.events[index], StandardCharsets.UTF_8);
			return event.replaceFirst("\"MODIFIED\"", "\"ADDED\"").getBytes(StandardCharsets.UTF_8);
		}

		/**
		 * Copies one event into a buffer with the given resourceVersion and returns the
		 * offset after it.
		 */
		int copyEvent(int index, byte[] buffer, int offset, long resourceVersion) {
			byte[] event = this.events[index];
			System.arraycopy(event, 0, buffer, offset, event.length);
			writeResourceVersion(buffer, offset + this.resourceVersionOffsets[index], resourceVersion);
			return offset + event.length;
		}

	}

}
