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
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
import com.google.gson.stream.JsonToken;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
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
 * <p>
 * As client-go's reflector, relists are served from the API server's watch cache: they
 * ask for data not older than the last resourceVersion seen, and only a list whose
 * resourceVersion the server no longer has falls back to a consistent read. The initial
 * list is a consistent read too, not client-go's {@code resourceVersion=0}: since
 * Kubernetes 1.31 the watch cache serves consistent lists, in pages since 1.34, where
 * {@code resourceVersion=0} would be served in one piece and may be older than what
 * another API server already showed. A paged list whose continue token expired is read
 * again in one piece, as client-go's pager does, so that a list slower than etcd's
 * compaction window still ends. A watch that ends within a second without any event is a
 * failure, and the back-off starts over only after two minutes without one. Dead
 * connections are found by HTTP/2 pings; a silent watch is taken for dead only once the
 * server has shown that it sends bookmarks. A failure that did not reach the server waits
 * on what the loops of that server share ({@link ServerReachability}): one probe at a
 * time, and every loop back as soon as any request is answered.
 * <p>
 * With {@link ListStrategy#WATCH_LIST} the list is a watch-list, as client-go's reflector
 * does by default since 0.35: a watch with {@code sendInitialEvents=true} whose initial
 * events end at a bookmark annotated {@code k8s.io/initial-events-end}, and which then
 * goes on as the watch. A server that refuses it is listed in pages from then on. Either
 * way a relist goes into the cache one object at a time
 * ({@link ResourceInformer#startRelist}), never held as a second copy.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class ListWatch<T extends KubernetesObject> implements Runnable {

	private static final Log logger = LogFactory.getLog(ListWatch.class);

	/**
	 * A watch that ends sooner than this without any event is a failure, as client-go's
	 * "very short watch".
	 */
	private static final Duration SHORT_WATCH = Duration.ofSeconds(1);

	/**
	 * The annotation of the bookmark that ends the initial events of a watch-list.
	 */
	private static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

	/**
	 * The largest buffer a protobuf watch keeps for its frames: realistic Pods (about 10
	 * KB) and most objects fit; a larger frame gets an array of its own.
	 */
	private static final int MAX_FRAME_BUFFER = 64 * 1024;

	private final ResourceInformer<T> informer;

	private final ApiClient client;

	private final String namespace;

	private final OkHttpClient listHttp;

	/**
	 * What the loops of this API server know together: whether it can be reached, and the
	 * pinged connections they share.
	 */
	private final ServerReachability reachability;

	private final OkHttpClient watchHttp;

	/**
	 * Decodes objects straight from the stream, or {@code null} for objects decoded from
	 * trees.
	 */
	private final ModelDecoder<T> decoder;

	/**
	 * Decodes the protobuf encoding, or {@code null} if this loop asks for JSON only.
	 */
	private final ProtobufDecoder<T> protobuf;

	private final Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), Duration.ofMinutes(2));

	private final AtomicLong relists = new AtomicLong();

	private final AtomicLong watches = new AtomicLong();

	private final AtomicLong skipped = new AtomicLong();

	private volatile boolean running;

	private volatile boolean synced;

	private volatile WatchState state = WatchState.STOPPED;

	private volatile Instant reconnectingSince;

	private volatile String lastError;

	private volatile String lastResourceVersion;

	/**
	 * The resourceVersion up to which the cache reflects every change of this loop's
	 * part: set only once a list is wholly in the cache or a watch event has been
	 * applied, never from a list that is still filling it, so that the read-after-write
	 * gate ({@link ResourceInformer#hasSeenAfter}) cannot open while the cache still
	 * shows an object older than a write.
	 */
	private volatile String cachedResourceVersion;

	private volatile InformerException startupFailure;

	private volatile Call current;

	/**
	 * Whether the server sent a bookmark on a watch of this loop, so that a silent watch
	 * can be told from a quiet one.
	 */
	private volatile boolean bookmarksSeen;

	/**
	 * Whether the server no longer has {@link #lastResourceVersion}, so that the next
	 * list must be a consistent read; confined to the loop's thread.
	 */
	private boolean resourceVersionUnavailable;

	/**
	 * Why the API server refused a watch-list, if it did: this loop lists in pages from
	 * then on.
	 */
	private volatile String watchListRefused;

	/**
	 * Whether the current watch is a watch-list whose initial events have not all come;
	 * confined to the loop's thread.
	 */
	private boolean initialEventsPending;

	/**
	 * Whether the next attempt must list; confined to the loop's thread. A watch-list
	 * clears it once its initial events are in, so that a failure of the watch that
	 * follows resumes it rather than listing again.
	 */
	private boolean needList = true;

	private Thread thread;

	ListWatch(ResourceInformer<T> informer, ApiClient client, String namespace) {
		this.informer = informer;
		this.client = client;
		this.namespace = namespace;
		this.reachability = informer.reachability();
		this.listHttp = pinged(client.getHttpClient(), informer.spec(), this.reachability)
			.readTimeout(Duration.ofSeconds(60))
			.build();
		this.watchHttp = watchClient(client.getHttpClient(), informer.spec(), this.reachability);
		this.decoder = ModelDecoder.of(informer.spec(), informer.resource(), client.getJSON().getGson());
		this.protobuf = (informer.spec().encoding() == InformerSpec.Encoding.PROTOBUF)
				? ProtobufDecoder.of(informer.spec(), informer.resource(), client.getJSON().getGson()) : null;
	}

	/**
	 * Returns the client for watches: the pinged connections of this API server's loops
	 * (see {@link #pinged}); the stall timeout as read timeout, which bounds the wait for
	 * a watch's response headers (the API server sends them at once; a wait that times
	 * out is that watch's own failure, not its connection's) and is lifted for its events
	 * until bookmarks are known to come; and the record of which connection each watch
	 * runs on, so that a watch found dead can close it for all.
	 */
	private static OkHttpClient watchClient(OkHttpClient base, InformerSpec<?> spec, ServerReachability reachability) {
		return pinged(base, spec, reachability).readTimeout(spec.stallTimeout())
			.addNetworkInterceptor(reachability.watchConnectionRecorder())
			.build();
	}

	/**
	 * Returns a client on connections of their own, shared by the lists and watches of
	 * one API server's loops (one HTTP/2 connection carries them all, as client-go's
	 * transport does), so that each connection is pinged and one that fails a ping fails
	 * every list and watch on it at once; HTTP/2 offered, since OkHttp pings only HTTP/2
	 * connections, as client-go's transport does with its read-idle and ping timeouts.
	 * Loops that start together open that connection once, not once each (see
	 * {@link ServerReachability#oneOpeningAtATime()}).
	 */
	private static OkHttpClient.Builder pinged(OkHttpClient base, InformerSpec<?> spec,
			ServerReachability reachability) {
		OkHttpClient.Builder builder = base.newBuilder()
			.connectionPool(reachability.connections())
			.pingInterval(spec.pingInterval())
			.addInterceptor(reachability.oneOpeningAtATime())
			.addNetworkInterceptor(reachability.connectionOpen());
		List<Protocol> protocols = base.protocols();
		if (!protocols.contains(Protocol.HTTP_2) && !protocols.contains(Protocol.H2_PRIOR_KNOWLEDGE)) {
			builder.protocols(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));
		}
		return builder;
	}

	synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		// its first step is a list: reported as such from now, not only once the loop's
		// thread runs, so that a sync timeout right after the start does not say stopped
		this.state = WatchState.LISTING;
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
		this.reachability.connections().evictAll();
		this.state = WatchState.STOPPED;
	}

	@Override
	public void run() {
		try {
			loop();
		}
		catch (Throwable ex) {
			if (this.running) {
				// ended by a failure even the loop could not survive (an Error while it
				// backs off): a frozen cache must not be reported as watched
				this.state = WatchState.RECONNECTING;
				this.reconnectingSince = (this.reconnectingSince != null) ? this.reconnectingSince : Instant.now();
				this.lastError = "the list/watch loop ended: " + ex;
			}
			throw ex;
		}
		finally {
			this.reachability.stopped();
		}
	}

	private void loop() {
		this.needList = true;
		while (this.running) {
			try {
				if (this.needList && usesWatchList()) {
					// the watch that lists goes on watching, until it ends
					this.needList = !watchList();
					continue;
				}
				if (this.needList) {
					this.needList = !list();
				}
				if (!this.needList) {
					this.needList = !watch();
				}
			}
			catch (ApiException ex) {
				this.needList = this.needList || ex.getCode() == 410;
				failed(ex.getCode() + " " + reason(ex), ex, isConfigurationError(ex.getCode()),
						ServerReachability.Failure.ANSWERED);
			}
			catch (UnexpectedResponseException | RuntimeException ex) {
				failed(ex.getClass().getSimpleName() + ": " + ex.getMessage(), ex, false,
						ServerReachability.Failure.ANSWERED);
			}
			catch (ResponseTimeoutException ex) {
				// a busy server, not a dead connection: this watch's own back-off
				failed(ex.getMessage(), ex, false, ServerReachability.Failure.UNANSWERED);
			}
			catch (IOException ex) {
				// no answer: the server, or the way to it, is down
				failed(ex.getClass().getSimpleName() + ": " + ex.getMessage(), ex, false,
						ServerReachability.Failure.UNREACHABLE);
			}
			catch (Error ex) {
				// an OutOfMemoryError in a relist, or an Error from user code such as an
				// index function, may have left the cache half-updated: back off and list
				// again, rather than let the thread die while the informer looks healthy
				logger.error("List/watch of " + this.informer + " failed with an error; listing again", ex);
				this.needList = true;
				failed(ex.toString(), ex, false, ServerReachability.Failure.ANSWERED);
			}
		}
	}

	/**
	 * Lists all objects into the loop's part of the cache as they arrive, and at the end
	 * deletes what was not listed, unless the loop was stopped meanwhile: a list cut
	 * short deletes nothing, or every object not yet listed would be taken for deleted.
	 * @return whether the list completed
	 */
	private boolean list() throws ApiException, IOException {
		this.state = WatchState.LISTING;
		String resourceVersion = relistResourceVersion();
		ResourceInformer<T>.Relist relist = this.informer.startRelist(this.namespace, !this.synced);
		String listed;
		try {
			listed = listPages(resourceVersion, relist);
		}
		catch (ApiException ex) {
			if (resourceVersion.isEmpty() || !isResourceVersionUnavailable(ex)) {
				throw ex;
			}
			// the server no longer has (or does not yet have) that resourceVersion:
			// list again at once with a consistent read, as client-go's reflector does
			logger.debug("Listing " + this.informer + " at resourceVersion " + resourceVersion + " failed with "
					+ ex.getCode() + "; listing the latest state");
			this.resourceVersionUnavailable = true;
			relist.restart();
			listed = listPages("", relist);
		}
		if (listed == null || !this.running) {
			return false;
		}
		relist.finish();
		listCompleted(listed);
		return true;
	}

	private void listCompleted(String resourceVersion) {
		this.lastResourceVersion = resourceVersion;
		this.cachedResourceVersion = resourceVersion;
		this.resourceVersionUnavailable = false;
		this.relists.incrementAndGet();
		this.synced = true;
		this.startupFailure = null;
	}

	/**
	 * Remembers the resourceVersion of a list that has started to fill the cache: should
	 * it fail, the next list must not be older than what is cached. The cache does not
	 * reflect it yet (later pages and the deletes at the end are still to come), so
	 * {@link #cachedResourceVersion} waits for {@link #listCompleted}.
	 */
	private void listStarted(String resourceVersion) {
		if (resourceVersion != null && !resourceVersion.isEmpty()) {
			this.lastResourceVersion = resourceVersion;
		}
	}

	/**
	 * Returns the resourceVersion to list at: for a relist the last resourceVersion seen
	 * (data not older than it, from the watch cache, as client-go's reflector asks for),
	 * and {@code ""} (a consistent read) for the first list and after the server said it
	 * no longer has that resourceVersion.
	 */
	private String relistResourceVersion() {
		if (this.resourceVersionUnavailable || this.lastResourceVersion == null) {
			return "";
		}
		return this.lastResourceVersion;
	}

	/**
	 * Lists page by page. Each page is read as a stream, one item at a time, so that
	 * neither a whole page nor its JSON tree is held in memory at once; the next page is
	 * requested as soon as this page's continue token is read, so that the server
	 * prepares it while this one is decoded. A continue token that expired (the list took
	 * longer than etcd's compaction window) is followed by one list in one piece at the
	 * same resourceVersion, as client-go's pager does. Each object goes into the cache as
	 * it is read.
	 * @return the list's resourceVersion, or {@code null} if the loop was stopped before
	 * it completed
	 */
	private String listPages(String resourceVersion, ResourceInformer<T>.Relist relist)
			throws ApiException, IOException {
		PendingPage next = requestPage(resourceVersion, null, true);
		ListMetadata page;
		do {
			PendingPage current = next;
			List<PendingPage> prefetched = new ArrayList<>(1);
			try (Response response = current.await()) {
				this.reachability.answered();
				page = readPage(response, relist::listed, relist::unreadable, (metadata) -> {
					listStarted(metadata.resourceVersion());
					if (metadata.continueToken() != null && this.running && prefetched.isEmpty()) {
						prefetched.add(requestPage(null, metadata.continueToken(), true));
					}
				});
			}
			catch (ApiException ex) {
				prefetched.forEach(PendingPage::cancel);
				if (ex.getCode() != 410 || current.continueToken() == null || !this.running) {
					throw ex;
				}
				logger.info("The continue token of a paged list of " + this.informer
						+ " expired before the list was read; listing in one piece");
				relist.restart();
				return listInOnePiece(resourceVersion, relist);
			}
			catch (IOException | RuntimeException | Error ex) {
				prefetched.forEach(PendingPage::cancel);
				throw ex;
			}
			next = prefetched.isEmpty() ? null : prefetched.get(0);
			if (next == null && page.continueToken() != null && this.running) {
				next = requestPage(null, page.continueToken(), true);
			}
		}
		while (page.continueToken() != null && this.running);
		if (next != null) {
			next.cancel();
		}
		return this.running ? page.resourceVersion() : null;
	}

	private String listInOnePiece(String resourceVersion, ResourceInformer<T>.Relist relist)
			throws ApiException, IOException {
		try (Response response = requestPage(resourceVersion, null, false).await()) {
			this.reachability.answered();
			ListMetadata list = readPage(response, relist::listed, relist::unreadable,
					(metadata) -> listStarted(metadata.resourceVersion()));
			return this.running ? list.resourceVersion() : null;
		}
	}

	/**
	 * Requests a page of a list: the first page at a resourceVersion ({@code ""} for
	 * none), or the page a continue token names, which carries the resourceVersion of the
	 * first.
	 */
	private PendingPage requestPage(String resourceVersion, String continueToken, boolean paged) {
		List<Pair> query = selectors();
		if (paged) {
			query.add(new Pair("limit", Integer.toString(this.informer.spec().pageSize())));
		}
		if (continueToken != null) {
			query.add(new Pair("continue", continueToken));
		}
		else if (!resourceVersion.isEmpty()) {
			query.add(new Pair("resourceVersion", resourceVersion));
			// served from the watch cache, paged or not, rather than from etcd as the
			// legacy exact match of a resourceVersion with a limit would be
			query.add(new Pair("resourceVersionMatch", "NotOlderThan"));
		}
		Call call = this.listHttp.newCall(request(query));
		this.current = call;
		return PendingPage.start(call, continueToken);
	}

	/**
	 * Reads one page of a list, in the encoding the server answered with.
	 * @param response the page
	 * @param onObject told each object read
	 * @param onUnreadable told the key of each object that could not be read
	 * @param onMetadata told the list's metadata as soon as it is read
	 * @return the list's resourceVersion and continue token
	 * @throws IOException if the page cannot be read or is not a list
	 */
	private ListMetadata readPage(Response response, Consumer<T> onObject, Consumer<String> onUnreadable,
			Consumer<ListMetadata> onMetadata) throws IOException {
		if (this.protobuf != null && ProtobufDecoder.isProtobuf(response.header("Content-Type"))) {
			return this.protobuf.readList(response.body().byteStream(), (decoded, key) -> {
				T transformed = transform(decoded, key);
				if (transformed != null) {
					onObject.accept(transformed);
				}
				else {
					onUnreadable.accept(key);
				}
			}, (key) -> {
				this.skipped.incrementAndGet();
				logger.warn("Informer '" + this.informer.spec().name() + "' skips " + this.informer.resource().kind()
						+ " " + key + ": its protobuf does not fit " + this.informer.spec().type().getName());
				onUnreadable.accept(key);
			}, onMetadata);
		}
		return readPage(response.body().charStream(), onObject, onUnreadable, onMetadata);
	}

	/**
	 * Reads one page of a list in JSON: converts its items one at a time and hands each
	 * to {@code onObject} before the next is read, or its key to {@code onUnreadable} if
	 * it cannot be read, and returns the list's metadata, which may come before or after
	 * the items.
	 * @param body the page's JSON
	 * @param onObject told each object read
	 * @param onUnreadable told the key of each object that could not be read
	 * @param onMetadata told the list's metadata as soon as it is read
	 * @return the list's resourceVersion and continue token
	 * @throws IOException if the page cannot be read or is not a list
	 */
	ListMetadata readPage(Reader body, Consumer<T> onObject, Consumer<String> onUnreadable,
			Consumer<ListMetadata> onMetadata) throws IOException {
		ListMetadata metadata = null;
		boolean hasItems = false;
		JsonReader reader = new JsonReader(body);
		reader.beginObject();
		while (reader.hasNext()) {
			switch (reader.nextName()) {
				case "items" -> {
					if (reader.peek() == JsonToken.NULL) {
						// an empty PartialObjectMetadataList: Go writes its nil items so
						reader.nextNull();
					}
					else {
						readItems(reader, onObject, onUnreadable);
					}
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
			throw new UnexpectedResponseException(
					"The response to a list has no " + ((metadata == null) ? "metadata" : "items"));
		}
		return metadata;
	}

	private void readItems(JsonReader reader, Consumer<T> onObject, Consumer<String> onUnreadable) throws IOException {
		reader.beginArray();
		while (reader.hasNext()) {
			if (this.decoder != null) {
				decodeItem(reader, onObject, onUnreadable);
				continue;
			}
			JsonObject object = parse(reader).getAsJsonObject();
			// list items carry no apiVersion and kind; dynamic objects need them
			object.addProperty("apiVersion", this.informer.resource().apiVersion());
			object.addProperty("kind", this.informer.resource().kind());
			T converted = convert(object);
			if (converted != null) {
				onObject.accept(converted);
			}
			else {
				onUnreadable.accept(key(object.getAsJsonObject("metadata")));
			}
		}
		reader.endArray();
	}

	/**
	 * Decodes the next item of a list straight from the stream; one that does not fit the
	 * Java type, or that a transform fails for, is skipped with its key, as
	 * {@link #convert(JsonObject)} does.
	 */
	private void decodeItem(JsonReader reader, Consumer<T> onObject, Consumer<String> onUnreadable) throws IOException {
		String path = reader.getPath();
		T decoded;
		String key;
		// the decoder keeps the state of the object it reads: a load by name (another
		// thread) must not read with it at the same time as the loop
		synchronized (this.decoder) {
			try {
				decoded = this.decoder.readListItem(reader);
			}
			catch (RuntimeException ex) {
				String skippedKey = this.decoder.skipRest(reader, path, ex);
				skipped(skippedKey, ex);
				onUnreadable.accept(skippedKey);
				return;
			}
			key = this.decoder.key();
		}
		T transformed = transform(decoded, key);
		if (transformed != null) {
			onObject.accept(transformed);
		}
		else {
			onUnreadable.accept(key);
		}
	}

	/**
	 * Applies the user transforms to a decoded object; one that a transform fails for is
	 * reported with its key and skipped.
	 * @return the transformed object, or {@code null} if it is skipped
	 */
	private T transform(T decoded, String key) {
		try {
			return this.informer.transform(decoded);
		}
		catch (TransformException ex) {
			skipped(key, ex);
			return null;
		}
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
	 * Lists through a watch, as client-go's reflector does with its watch-list: the API
	 * server sends every object as an {@code ADDED} event, from its watch cache and not
	 * older than the last resourceVersion seen, then a bookmark annotated
	 * {@code k8s.io/initial-events-end}, and then goes on as a watch, which this method
	 * follows until it ends. Objects go into the cache as they arrive; at the bookmark
	 * what was not sent is deleted. A server that refuses such a watch (one that does not
	 * know {@code sendInitialEvents} or cannot serve it) is listed in pages from then on.
	 * @return {@code true} if the watch can be resumed from the last resourceVersion,
	 * {@code false} if a list is needed
	 */
	private boolean watchList() throws ApiException, IOException {
		this.state = WatchState.LISTING;
		String resourceVersion = relistResourceVersion();
		List<Pair> query = selectors();
		query.add(new Pair("watch", "true"));
		query.add(new Pair("sendInitialEvents", "true"));
		query.add(new Pair("allowWatchBookmarks", "true"));
		query.add(new Pair("resourceVersionMatch", "NotOlderThan"));
		if (!resourceVersion.isEmpty()) {
			query.add(new Pair("resourceVersion", resourceVersion));
		}
		ResourceInformer<T>.Relist listing = this.informer.startRelist(this.namespace, !this.synced);
		try {
			boolean resumable = stream(query, listing);
			if (!resumable && this.initialEventsPending) {
				if (resourceVersion.isEmpty()) {
					throw new UnexpectedResponseException(
							"the watch-list of the latest state expired before its initial events ended");
				}
				// 410 before the initial events ended: that resourceVersion is gone,
				// stream the latest state, as client-go's reflector does
				this.resourceVersionUnavailable = true;
			}
			return resumable;
		}
		catch (ApiException ex) {
			if (!this.initialEventsPending) {
				throw ex;
			}
			if (isResourceVersionUnavailable(ex) && !resourceVersion.isEmpty()) {
				this.resourceVersionUnavailable = true;
				return false;
			}
			if (!isWatchListRefusal(ex.getCode())) {
				throw ex;
			}
			this.watchListRefused = ex.getCode() + " " + reason(ex);
			logger.info("The API server refused a watch-list of " + this.informer + " (" + this.watchListRefused
					+ "); listing in pages instead");
			return false;
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
		return stream(query, null);
	}

	/**
	 * Reads a watch until the server ends it or it fails.
	 * @param query the watch's query, without its timeout
	 * @param listing the list that the watch's initial events fill, or {@code null} for a
	 * watch without them
	 * @return {@code true} if the watch can be resumed from the last resourceVersion,
	 * {@code false} if a relist is needed
	 */
	private boolean stream(List<Pair> query, ResourceInformer<T>.Relist listing) throws ApiException, IOException {
		long timeout = jittered(this.informer.spec().watchTimeout()).toSeconds();
		query.add(new Pair("timeoutSeconds", Long.toString(timeout)));
		Call call = this.watchHttp.newCall(request(query));
		this.current = call;
		this.initialEventsPending = listing != null;
		if (this.watches.incrementAndGet() > 1) {
			logger.debug("Reopening watch of " + this.informer + " from resourceVersion " + this.lastResourceVersion);
		}
		long started = System.nanoTime();
		boolean headersReceived = false;
		try (Response response = ApiRequests.open(call)) {
			headersReceived = true;
			this.reachability.answered();
			this.state = (listing != null) ? WatchState.LISTING : WatchState.WATCHING;
			this.reconnectingSince = null;
			this.lastError = null;
			BufferedSource source = response.body().source();
			if (response.protocol() == Protocol.HTTP_1_1 && this.watches.get() == 1) {
				logger.info("The watch of " + this.informer + " runs over HTTP/1.1, which has no pings: a dead "
						+ "connection is found only by silence, once the server has sent a bookmark");
			}
			boolean silenceDetected = watchForSilence(source);
			long events = 0;
			boolean protobufStream = this.protobuf != null
					&& ProtobufDecoder.isProtobuf(response.header("Content-Type"));
			if (protobufStream) {
				events = streamProtobuf(source, listing, silenceDetected);
				if (events < 0) {
					return false;
				}
			}
			String line;
			while (this.running && !protobufStream && (line = source.readUtf8Line()) != null) {
				if (line.isBlank()) {
					continue;
				}
				events++;
				ModelDecoder.DecodedEvent<T> decoded = decode(line);
				if (decoded != null) {
					if (!handleDecoded(decoded, listing)) {
						return false;
					}
					if (!silenceDetected && this.bookmarksSeen) {
						silenceDetected = watchForSilence(source);
					}
					continue;
				}
				JsonObject event = JsonParser.parseString(line).getAsJsonObject();
				if (this.initialEventsPending) {
					if (!handleInitial(event, listing)) {
						return false;
					}
				}
				else if (!handle(event)) {
					return false;
				}
				if (!silenceDetected && this.bookmarksSeen) {
					silenceDetected = watchForSilence(source);
				}
			}
			if (this.running && this.initialEventsPending) {
				throw new UnexpectedResponseException(
						"the watch-list ended before the bookmark that ends its initial events");
			}
			Duration lasted = Duration.ofNanos(System.nanoTime() - started);
			if (this.running && events == 0 && lasted.compareTo(SHORT_WATCH) < 0) {
				// reopening at once would be a tight loop against a server or proxy that
				// ends every watch
				throw new UnexpectedResponseException(
						"very short watch: it ended after " + lasted.toMillis() + " ms without any event");
			}
			return true;
		}
		catch (IOException ex) {
			if (!this.running || ex instanceof InterruptedIOException && call.isCanceled()) {
				return true;
			}
			if (ex instanceof SocketTimeoutException && !headersReceived) {
				// the server took the request but is slow to answer it (a busy server
				// queueing requests): closing the connection every other watch shares
				// would send them all against it at once
				throw new ResponseTimeoutException("the watch's response headers did not come within "
						+ this.informer.spec().stallTimeout().toMillis() + " ms", ex);
			}
			if (ex instanceof SocketTimeoutException) {
				// silent past the stall timeout while its connection looks open: that
				// connection is dead for every watch on it
				this.reachability.watchFoundDead(call);
			}
			throw ex;
		}
		finally {
			this.reachability.watchEnded(call);
			this.current = null;
		}
	}

	/**
	 * Reads a watch in the protobuf encoding: frames of a 4-byte length and a
	 * {@code WatchEvent}, until the server ends it.
	 * @return the number of events, or {@code -1} if a relist is needed
	 */
	private long streamProtobuf(BufferedSource source, ResourceInformer<T>.Relist listing, boolean silenceDetected)
			throws IOException, ApiException {
		long events = 0;
		// one buffer for the frames of a watch, grown to the largest one up to a limit:
		// an array per event was allocated and zeroed again (10 KB per Pod event)
		byte[] buffer = new byte[0];
		while (this.running && !source.exhausted()) {
			int length = source.readInt();
			if (length < 0) {
				throw new UnexpectedResponseException("A protobuf watch frame of " + length + " bytes");
			}
			if (length > buffer.length && length <= MAX_FRAME_BUFFER) {
				buffer = new byte[Math.min(MAX_FRAME_BUFFER, Math.max(length, 2 * buffer.length))];
			}
			byte[] frame = (length <= buffer.length) ? buffer : new byte[length];
			source.require(length);
			for (int read = 0; read < length;) {
				read += source.read(frame, read, length - read);
			}
			events++;
			ProtobufDecoder.Event<T> event;
			try {
				// readEvent holds the decoder's own lock, which a load by name's list
				// shares
				event = this.protobuf.readEvent(frame, length);
			}
			catch (RuntimeException ex) {
				// an object that does not fit its Java type: the last readable state
				// stays
				this.skipped.incrementAndGet();
				logger.warn("Informer '" + this.informer.spec().name() + "' skips a " + this.informer.resource().kind()
						+ " event: its protobuf does not fit " + this.informer.spec().type().getName() + " ("
						+ ex.getMessage() + ")");
				continue;
			}
			boolean resumable;
			if (event.tree() == null) {
				resumable = handleDecoded(new ModelDecoder.DecodedEvent<>(event.type(), event.object(), event.key(),
						event.resourceVersion()), listing);
			}
			else if (this.initialEventsPending) {
				resumable = handleInitial(event.tree(), listing);
			}
			else {
				resumable = handle(event.tree());
			}
			if (!resumable) {
				return -1;
			}
			if (!silenceDetected && this.bookmarksSeen) {
				silenceDetected = watchForSilence(source);
			}
		}
		return events;
	}

	/**
	 * Decodes a watch event that adds, changes or deletes an object straight from its
	 * line.
	 * @return the event, or {@code null} if it is read as a tree: other events, and
	 * objects that do not fit the Java type, whose tree the usual path reports and skips
	 */
	private ModelDecoder.DecodedEvent<T> decode(String line) {
		if (this.decoder == null) {
			return null;
		}
		try {
			synchronized (this.decoder) {
				return this.decoder.readEvent(line);
			}
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Handles a decoded event as {@link #handleInitial} and {@link #handle} handle its
	 * tree.
	 * @return {@code false} if a relist is needed
	 */
	private boolean handleDecoded(ModelDecoder.DecodedEvent<T> event, ResourceInformer<T>.Relist listing) {
		boolean initial = this.initialEventsPending && !"DELETED".equals(event.type());
		if (!initial && event.resourceVersion() != null) {
			this.lastResourceVersion = event.resourceVersion();
		}
		T transformed = transform(event.object(), event.key());
		if (initial) {
			if (transformed != null) {
				listing.listed(transformed);
			}
			else {
				listing.unreadable(event.key());
			}
		}
		else if ("DELETED".equals(event.type())) {
			if (transformed != null) {
				this.informer.delete(transformed);
			}
			else {
				this.informer.deleteKey(event.key());
			}
		}
		else if (transformed != null) {
			// an unreadable new state is skipped: the last readable one stays cached
			this.informer.upsert(transformed);
		}
		if (!this.initialEventsPending && event.resourceVersion() != null) {
			this.cachedResourceVersion = event.resourceVersion();
		}
		return true;
	}

	/**
	 * Handles an event of a watch-list before the bookmark that ends its initial events:
	 * objects go into the listing, and that bookmark completes it.
	 * @return {@code false} if a relist is needed
	 */
	private boolean handleInitial(JsonObject event, ResourceInformer<T>.Relist listing) throws ApiException {
		String type = event.get("type").getAsString();
		JsonObject object = event.getAsJsonObject("object");
		switch (type) {
			case "ADDED", "MODIFIED" -> {
				T converted = convert(object);
				if (converted != null) {
					listing.listed(converted);
				}
				else {
					listing.unreadable(key(object.getAsJsonObject("metadata")));
				}
				return true;
			}
			case "BOOKMARK" -> {
				// not taken as a sign that bookmarks come: the server ends the initial
				// events with one whether or not it sends any other
				JsonObject metadata = object.getAsJsonObject("metadata");
				JsonObject annotations = metadata.getAsJsonObject("annotations");
				if (annotations != null && annotations.has(INITIAL_EVENTS_END)
						&& "true".equals(annotations.get(INITIAL_EVENTS_END).getAsString())) {
					listing.finish();
					listCompleted(metadata.get("resourceVersion").getAsString());
					this.initialEventsPending = false;
					this.needList = false;
					this.state = WatchState.WATCHING;
				}
				return true;
			}
			default -> {
				return handle(event);
			}
		}
	}

	/**
	 * Takes a watch that delivers nothing for the stall timeout for dead, but only once
	 * the server has sent a bookmark: before that (a fresh informer, or a server without
	 * a watch cache, which sends none) a quiet watch and a dead one look alike, and the
	 * HTTP/2 pings find dead connections.
	 * @return whether silence is now detected
	 */
	private boolean watchForSilence(BufferedSource source) {
		Duration stallTimeout = this.informer.spec().stallTimeout();
		boolean detected = this.bookmarksSeen && !stallTimeout.isZero();
		source.timeout().timeout(detected ? stallTimeout.toMillis() : 0, TimeUnit.MILLISECONDS);
		return detected;
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
				// BOOKMARK: only the resourceVersion matters, and that bookmarks come
				this.bookmarksSeen = true;
			}
		}
		if (metadata != null && metadata.has("resourceVersion") && !this.initialEventsPending) {
			this.cachedResourceVersion = metadata.get("resourceVersion").getAsString();
		}
		return true;
	}

	/**
	 * Converts one object; one whose JSON does not fit the Java type, or that a transform
	 * fails for, is reported with its key and skipped, so that it cannot stop the
	 * informer.
	 */
	private T convert(JsonObject object) {
		try {
			return this.informer.convert(object);
		}
		catch (RuntimeException ex) {
			JsonObject metadata = object.getAsJsonObject("metadata");
			skipped((metadata != null) ? key(metadata) : "(no metadata)", ex);
			return null;
		}
	}

	private void skipped(String key, RuntimeException ex) {
		this.skipped.incrementAndGet();
		String reason = (ex instanceof TransformException) ? "a transform failed for it"
				: "its JSON does not fit " + this.informer.spec().type().getName();
		logger.warn("Informer '" + this.informer.spec().name() + "' skips " + this.informer.resource().kind() + " "
				+ key + ": " + reason + " (" + ex.getMessage() + ")");
	}

	static String key(JsonObject metadata) {
		String name = metadata.has("name") ? metadata.get("name").getAsString() : "";
		return metadata.has("namespace") ? metadata.get("namespace").getAsString() + "/" + name : name;
	}

	/**
	 * Records a failure and waits before the next attempt: a failure the server answered,
	 * or a response that did not come in time, on this loop's own back-off; one that did
	 * not reach the server until any loop of that server gets an answer, or it is this
	 * loop's turn to probe ({@link ServerReachability}).
	 */
	private void failed(String message, Throwable ex, boolean configurationError, ServerReachability.Failure failure) {
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
			Duration delay = (failure != ServerReachability.Failure.UNREACHABLE) ? this.backoff.next() : Duration.ZERO;
			this.reachability.awaitRetry(delay, failure);
		}
		catch (InterruptedException interrupted) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	/**
	 * Lists the one object of a name this loop covers, as a list with a field selector on
	 * {@code metadata.name} (the {@code list} permission the loop needs anyway), with a
	 * consistent read: what the API server holds now, and the resourceVersion it was read
	 * at, so that it can be merged with what the watch delivers.
	 * @param name the object's name
	 * @param onObject told the object, if it exists and matches the informer's selectors
	 * @return the list's resourceVersion
	 * @throws ApiException if the API server refuses the list
	 * @throws IOException if the list cannot be read
	 */
	String listNamed(String name, Consumer<T> onObject) throws ApiException, IOException {
		List<Pair> query = new ArrayList<>();
		if (this.informer.spec().labelSelector() != null) {
			query.add(new Pair("labelSelector", this.informer.spec().labelSelector()));
		}
		String byName = "metadata.name=" + name;
		String fieldSelector = this.informer.spec().fieldSelector();
		query.add(new Pair("fieldSelector", (fieldSelector != null) ? fieldSelector + "," + byName : byName));
		try (Response response = ApiRequests.checked(this.listHttp.newCall(request(query)).execute())) {
			this.reachability.answered();
			return readPage(response, onObject, (key) -> {
			}, (metadata) -> {
			}).resourceVersion();
		}
	}

	private Request request(List<Pair> query) {
		boolean watch = query.stream().anyMatch((pair) -> "watch".equals(pair.getName()));
		// JSON stays acceptable: a server (or a proxy) that does not speak protobuf
		// answers JSON
		String accept = (this.protobuf != null) ? this.protobuf.accept(watch) : this.informer.accept(watch);
		return ApiRequests.get(this.client, this.informer.resource().collectionPath(this.namespace), query, accept);
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

	/**
	 * Returns whether a status answering a watch-list says that the server cannot serve
	 * one (a server older than the watch-list, or one without the feature or the watch
	 * cache it needs), rather than that the request failed this time.
	 */
	private static boolean isWatchListRefusal(int code) {
		return code == 400 || code == 405 || code == 406 || code == 422 || code == 501;
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

	/**
	 * Returns whether this loop lists through watches: configured so, and not refused.
	 * @return whether this loop uses watch-lists
	 */
	boolean usesWatchList() {
		return this.informer.listStrategy() == ListStrategy.WATCH_LIST && this.watchListRefused == null;
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

	String namespace() {
		return this.namespace;
	}

	String lastResourceVersion() {
		return this.lastResourceVersion;
	}

	/**
	 * Returns the resourceVersion up to which the cache reflects every change of this
	 * loop's part.
	 * @return the resourceVersion, or {@code null} before the first list completed
	 */
	String cachedResourceVersion() {
		return this.cachedResourceVersion;
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

	int backoffSteps() {
		return this.backoff.steps();
	}

	private static boolean isResourceVersionUnavailable(ApiException ex) {
		// 410 Expired (compacted), or 504 "Too large resource version" from a cache that
		// has not caught up, as client-go's isExpiredError and
		// isTooLargeResourceVersionError
		return ex.getCode() == 410 || (ex.getCode() == 504 && ex.getResponseBody() != null
				&& ex.getResponseBody().contains("ResourceVersionTooLarge"));
	}

	/**
	 * A response the loop cannot use although the server answered it (not a list, a watch
	 * that ended at once): backed off on the loop's own clock, not taken for an
	 * unreachable server.
	 */
	/**
	 * A request's answer did not come in time although its connection is up: that
	 * request's own failure, not a sign that the server cannot be reached.
	 */
	private static final class ResponseTimeoutException extends IOException {

		ResponseTimeoutException(String message, Throwable cause) {
			super(message, cause);
		}

	}

	static final class UnexpectedResponseException extends IOException {

		UnexpectedResponseException(String message) {
			super(message);
		}

	}

	/**
	 * A page requested ahead of being read.
	 */
	private static final class PendingPage implements Callback {

		private final Call call;

		private final String continueToken;

		private final CompletableFuture<Response> response = new CompletableFuture<>();

		private PendingPage(Call call, String continueToken) {
			this.call = call;
			this.continueToken = continueToken;
		}

		static PendingPage start(Call call, String continueToken) {
			PendingPage page = new PendingPage(call, continueToken);
			call.enqueue(page);
			return page;
		}

		String continueToken() {
			return this.continueToken;
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
