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

package io.github.kubeop.informer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Reader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The list-and-watch loop of one informer in one namespace (or all): a paged list, then a
 * watch from the list's resourceVersion with bookmarks and a server-side timeout; a watch
 * that ends is reopened from the last resourceVersion seen, a watch the server can no
 * longer serve ({@code 410 Gone}) is followed by a relist, and any failure backs off with
 * jitter before the next attempt.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class ListWatch<T extends KubernetesObject> implements Runnable {

	private static final Log logger = LogFactory.getLog(ListWatch.class);

	private final ResourceInformer<T> informer;

	private final ApiClient client;

	private final String namespace;

	private final OkHttpClient listHttp;

	private final OkHttpClient watchHttp;

	private final Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30));

	private final AtomicLong relists = new AtomicLong();

	private final AtomicLong watches = new AtomicLong();

	private final AtomicLong skipped = new AtomicLong();

	private volatile boolean running;

	private volatile boolean synced;

	private volatile WatchState state = WatchState.STOPPED;

	private volatile Instant reconnectingSince;

	private volatile String lastError;

	private volatile String lastResourceVersion;

	private volatile InformerException startupFailure;

	private volatile Call current;

	private Thread thread;

	ListWatch(ResourceInformer<T> informer, ApiClient client, String namespace) {
		this.informer = informer;
		this.client = client;
		this.namespace = namespace;
		this.listHttp = client.getHttpClient().newBuilder().readTimeout(Duration.ofSeconds(60)).build();
		this.watchHttp = client.getHttpClient().newBuilder().readTimeout(informer.spec().stallTimeout()).build();
	}

	synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		this.thread = new Thread(this, "kubeop-informer-" + this.informer.spec().name()
				+ ((this.namespace != null) ? "-" + this.namespace : ""));
		this.thread.setDaemon(true);
		this.thread.start();
	}

	synchronized void stop() {
		this.running = false;
		Call call = this.current;
		if (call != null) {
			call.cancel();
		}
		if (this.thread != null) {
			this.thread.interrupt();
			try {
				this.thread.join(TimeUnit.SECONDS.toMillis(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.thread = null;
		}
		this.state = WatchState.STOPPED;
	}

	@Override
	public void run() {
		boolean needList = true;
		while (this.running) {
			try {
				if (needList) {
					list();
					needList = false;
				}
				needList = !watch();
				this.backoff.reset();
			}
			catch (ApiException ex) {
				needList = needList || ex.getCode() == 410;
				failed(ex.getCode() + " " + reason(ex), ex, isConfigurationError(ex.getCode()));
			}
			catch (IOException | RuntimeException ex) {
				failed(ex.getClass().getSimpleName() + ": " + ex.getMessage(), ex, false);
			}
		}
	}

	/**
	 * Lists all objects page by page and replaces the loop's part of the cache with them.
	 * Each page is read as a stream, one item at a time, so that neither a whole page nor
	 * its JSON tree is held in memory at once; the next page is requested as soon as this
	 * page's continue token is read, so that the server prepares it while this one is
	 * decoded.
	 */
	private void list() throws ApiException, IOException {
		this.state = this.synced ? this.state : WatchState.LISTING;
		List<T> objects = new ArrayList<>();
		Set<String> unreadable = new HashSet<>();
		PendingPage next = requestPage(null);
		ListMetadata page;
		do {
			PendingPage current = next;
			List<PendingPage> prefetched = new ArrayList<>(1);
			try (Response response = current.await()) {
				page = readPage(response.body().charStream(), objects, unreadable, (metadata) -> {
					if (metadata.continueToken() != null && this.running && prefetched.isEmpty()) {
						prefetched.add(requestPage(metadata.continueToken()));
					}
				});
			}
			catch (ApiException | IOException | RuntimeException ex) {
				prefetched.forEach(PendingPage::cancel);
				throw ex;
			}
			next = prefetched.isEmpty() ? null : prefetched.get(0);
			if (next == null && page.continueToken() != null && this.running) {
				next = requestPage(page.continueToken());
			}
		}
		while (page.continueToken() != null && this.running);
		if (next != null) {
			next.cancel();
		}
		this.informer.replace(this.namespace, objects, unreadable);
		this.lastResourceVersion = page.resourceVersion();
		this.relists.incrementAndGet();
		this.synced = true;
		this.startupFailure = null;
	}

	private PendingPage requestPage(String continueToken) {
		List<Pair> query = selectors();
		query.add(new Pair("limit", Integer.toString(this.informer.spec().pageSize())));
		if (continueToken != null) {
			query.add(new Pair("continue", continueToken));
		}
		Call call = this.listHttp.newCall(request(query));
		this.current = call;
		return PendingPage.start(call);
	}

	/**
	 * Reads one page of a list: converts its items one at a time into {@code objects},
	 * recording the keys of those that cannot be read in {@code unreadable}, and returns
	 * the list's metadata, which may come before or after the items.
	 * @param body the page's JSON
	 * @param objects the objects read so far
	 * @param unreadable the keys of the objects that could not be read so far
	 * @param onMetadata told the list's metadata as soon as it is read
	 * @return the list's resourceVersion and continue token
	 * @throws IOException if the page cannot be read or is not a list
	 */
	ListMetadata readPage(Reader body, List<T> objects, Set<String> unreadable, Consumer<ListMetadata> onMetadata)
			throws IOException {
		ListMetadata metadata = null;
		boolean hasItems = false;
		JsonReader reader = new JsonReader(body);
		reader.beginObject();
		while (reader.hasNext()) {
			switch (reader.nextName()) {
				case "items" -> {
					readItems(reader, objects, unreadable);
					hasItems = true;
				}
				case "metadata" -> {
					metadata = ListMetadata.of(parse(reader).getAsJsonObject());
					onMetadata.accept(metadata);
				}
				default -> reader.skipValue();
			}
		}
		reader.endObject();
		if (metadata == null || !hasItems) {
			// not a list: taking it for an empty one would empty the cache
			throw new IOException("The response to a list has no " + ((metadata == null) ? "metadata" : "items"));
		}
		return metadata;
	}

	private void readItems(JsonReader reader, List<T> objects, Set<String> unreadable) throws IOException {
		reader.beginArray();
		while (reader.hasNext()) {
			JsonObject object = parse(reader).getAsJsonObject();
			// list items carry no apiVersion and kind; dynamic objects need them
			object.addProperty("apiVersion", this.informer.resource().apiVersion());
			object.addProperty("kind", this.informer.resource().kind());
			T converted = convert(object);
			if (converted != null) {
				objects.add(converted);
			}
			else {
				unreadable.add(key(object.getAsJsonObject("metadata")));
			}
		}
		reader.endArray();
	}

	/**
	 * Reads the next value as a JSON tree, reporting a failure to read the stream as the
	 * {@link IOException} it is rather than wrapped in a {@link JsonIOException}.
	 */
	private static JsonElement parse(JsonReader reader) throws IOException {
		try {
			return JsonParser.parseReader(reader);
		}
		catch (JsonIOException ex) {
			if (ex.getCause() instanceof IOException cause) {
				throw cause;
			}
			throw ex;
		}
	}

	/**
	 * Watches until the server ends the watch or it fails.
	 * @return {@code true} if the watch can be resumed from the last resourceVersion,
	 * {@code false} if a relist is needed
	 */
	private boolean watch() throws ApiException, IOException {
		List<Pair> query = selectors();
		query.add(new Pair("watch", "true"));
		query.add(new Pair("allowWatchBookmarks", "true"));
		query.add(new Pair("resourceVersion", this.lastResourceVersion));
		long timeout = jittered(this.informer.spec().watchTimeout()).toSeconds();
		query.add(new Pair("timeoutSeconds", Long.toString(timeout)));
		Call call = this.watchHttp.newCall(request(query));
		this.current = call;
		if (this.watches.incrementAndGet() > 1) {
			logger.debug("Reopening watch of " + this.informer + " from resourceVersion " + this.lastResourceVersion);
		}
		try (Response response = ApiRequests.open(call)) {
			this.state = WatchState.WATCHING;
			this.reconnectingSince = null;
			this.lastError = null;
			BufferedSource source = response.body().source();
			String line;
			while (this.running && (line = source.readUtf8Line()) != null) {
				if (!line.isBlank() && !handle(JsonParser.parseString(line).getAsJsonObject())) {
					return false;
				}
			}
			return true;
		}
		catch (IOException ex) {
			if (!this.running || ex instanceof InterruptedIOException && call.isCanceled()) {
				return true;
			}
			throw ex;
		}
		finally {
			this.current = null;
		}
	}

	private boolean handle(JsonObject event) throws ApiException {
		String type = event.get("type").getAsString();
		JsonObject object = event.getAsJsonObject("object");
		if ("ERROR".equals(type)) {
			int code = object.has("code") ? object.get("code").getAsInt() : 500;
			if (code == 410) {
				logger.debug("Watch of " + this.informer + " expired (410 Gone); relisting");
				return false;
			}
			throw new ApiException(code, object.has("message") ? object.get("message").getAsString() : "watch error");
		}
		JsonObject metadata = object.getAsJsonObject("metadata");
		if (metadata != null && metadata.has("resourceVersion")) {
			this.lastResourceVersion = metadata.get("resourceVersion").getAsString();
		}
		switch (type) {
			case "ADDED", "MODIFIED" -> {
				// an unreadable new state is skipped: the last readable one stays cached
				T converted = convert(object);
				if (converted != null) {
					this.informer.upsert(converted);
				}
			}
			case "DELETED" -> {
				T converted = convert(object);
				if (converted != null) {
					this.informer.delete(converted);
				}
				else {
					this.informer.deleteKey(key(metadata));
				}
			}
			default -> {
				// BOOKMARK: only the resourceVersion matters
			}
		}
		return true;
	}

	/**
	 * Converts one object; one whose JSON does not fit the Java type is reported with its
	 * key and skipped, so that it cannot stop the informer.
	 */
	private T convert(JsonObject object) {
		try {
			return this.informer.convert(object);
		}
		catch (RuntimeException ex) {
			this.skipped.incrementAndGet();
			JsonObject metadata = object.getAsJsonObject("metadata");
			logger.warn("Informer '" + this.informer.spec().name() + "' skips " + this.informer.resource().kind() + " "
					+ ((metadata != null) ? key(metadata) : "(no metadata)") + ": its JSON does not fit "
					+ this.informer.spec().type().getName() + " (" + ex.getMessage() + ")");
			return null;
		}
	}

	private static String key(JsonObject metadata) {
		String name = metadata.has("name") ? metadata.get("name").getAsString() : "";
		return metadata.has("namespace") ? metadata.get("namespace").getAsString() + "/" + name : name;
	}

	private void failed(String message, Exception ex, boolean configurationError) {
		if (!this.running) {
			return;
		}
		if (this.reconnectingSince == null) {
			this.reconnectingSince = Instant.now();
			logger.warn("List/watch of " + this.informer + " failed, retrying with back-off: " + message);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("List/watch of " + this.informer + " failed again: " + message, ex);
		}
		this.state = WatchState.RECONNECTING;
		this.lastError = message;
		if (configurationError && !this.synced) {
			this.startupFailure = new InformerException(message, ex);
		}
		try {
			Thread.sleep(this.backoff.next().toMillis());
		}
		catch (InterruptedException interrupted) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	private Request request(List<Pair> query) {
		return ApiRequests.get(this.client, this.informer.resource().collectionPath(this.namespace), query);
	}

	private List<Pair> selectors() {
		List<Pair> query = new ArrayList<>();
		if (this.informer.spec().labelSelector() != null) {
			query.add(new Pair("labelSelector", this.informer.spec().labelSelector()));
		}
		if (this.informer.spec().fieldSelector() != null) {
			query.add(new Pair("fieldSelector", this.informer.spec().fieldSelector()));
		}
		return query;
	}

	private static Duration jittered(Duration timeout) {
		return timeout.plusMillis((long) (timeout.toMillis() * ThreadLocalRandom.current().nextDouble()));
	}

	private static boolean isConfigurationError(int code) {
		return code == 400 || code == 401 || code == 403 || code == 404 || code == 422;
	}

	private static String reason(ApiException ex) {
		String body = ex.getResponseBody();
		if (body != null && body.startsWith("{")) {
			try {
				JsonObject status = JsonParser.parseString(body).getAsJsonObject();
				if (status.has("message")) {
					return status.get("message").getAsString();
				}
			}
			catch (RuntimeException ignored) {
				// not a Status: fall back to the exception's message
			}
		}
		return (ex.getMessage() != null) ? ex.getMessage() : "";
	}

	boolean hasSynced() {
		return this.synced;
	}

	WatchState state() {
		return this.state;
	}

	Instant reconnectingSince() {
		return this.reconnectingSince;
	}

	String lastError() {
		return this.lastError;
	}

	String lastResourceVersion() {
		return this.lastResourceVersion;
	}

	InformerException startupFailure() {
		return this.startupFailure;
	}

	long relists() {
		return this.relists.get();
	}

	long skipped() {
		return this.skipped.get();
	}

	long watchRestarts() {
		return Math.max(0, this.watches.get() - 1);
	}

	/**
	 * A page requested ahead of being read.
	 */
	private static final class PendingPage implements Callback {

		private final Call call;

		private final CompletableFuture<Response> response = new CompletableFuture<>();

		private PendingPage(Call call) {
			this.call = call;
		}

		static PendingPage start(Call call) {
			PendingPage page = new PendingPage(call);
			call.enqueue(page);
			return page;
		}

		@Override
		public void onResponse(Call call, Response response) {
			if (!this.response.complete(response)) {
				response.close();
			}
		}

		@Override
		public void onFailure(Call call, IOException ex) {
			this.response.completeExceptionally(ex);
		}

		/**
		 * Waits for the response.
		 * @return the successful response, to be closed by the caller
		 * @throws ApiException with the status code and body of an unsuccessful response
		 * @throws IOException on a connection failure or when interrupted
		 */
		Response await() throws ApiException, IOException {
			try {
				return ApiRequests.checked(this.response.get());
			}
			catch (ExecutionException ex) {
				throw (ex.getCause() instanceof IOException cause) ? cause : new IOException(ex.getCause());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				cancel();
				throw new InterruptedIOException("Interrupted while waiting for a list page");
			}
		}

		void cancel() {
			this.call.cancel();
			this.response.thenAccept(Response::close);
		}

	}

	/**
	 * What a page of a list says about the list as a whole.
	 *
	 * @param resourceVersion the resourceVersion of the list, to watch from
	 * @param continueToken the token for the next page, or {@code null} after the last
	 */
	record ListMetadata(String resourceVersion, String continueToken) {

		static ListMetadata of(JsonObject metadata) {
			String resourceVersion = metadata.has("resourceVersion") ? metadata.get("resourceVersion").getAsString()
					: null;
			String continueToken = metadata.has("continue") ? metadata.get("continue").getAsString() : null;
			return new ListMetadata(resourceVersion,
					(continueToken != null && !continueToken.isEmpty()) ? continueToken : null);
		}

	}

}
