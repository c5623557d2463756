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

package io.github.kubeop.event;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.JsonObject;
import io.github.kubeop.informer.ResourceDiscovery;
import io.github.kubeop.resource.GeneratedModels;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

/**
 * The {@link EventRecorder} Kubeop provides, combining client-go's two recorders.
 * <ul>
 * <li>A call only queues the Event: a bounded queue drained by one sender thread, so a
 * handler never waits for the API server; when the queue is full the Event is dropped and
 * counted.</li>
 * <li>Repeats are aggregated as client-go's {@code tools/events} does: Events with the
 * same type, reason, action, reporter and regarding object (the note may differ) are
 * isomorphic; the first creates an Event, later ones within six minutes of the last
 * become its {@code series}, whose {@code count} and {@code lastObservedTime} are
 * patched. client-go writes a series every 30 minutes and when it ends; here the sender
 * patches each series once after every batch it drains, so the stored count follows at
 * the cost of one request per series and batch.</li>
 * <li>Each object is rate-limited as client-go's {@code tools/record} spam filter does: a
 * burst of 25 Events, then one more per five minutes; the rest is dropped and
 * counted.</li>
 * </ul>
 * Each request is cut off after a timeout and not retried: a server that cannot be
 * reached costs the Events meanwhile (counted as failed, or dropped once the queue is
 * full), never a handler's time. {@link #close()} writes what is queued within a bound.
 *
 * @author Kubeop authors
 */
public class DefaultEventRecorder implements EventRecorder, AutoCloseable {

	/**
	 * client-go's {@code maxQueuedEvents}.
	 */
	public static final int DEFAULT_QUEUE_CAPACITY = 1000;

	/**
	 * How long after its last occurrence an Event's series ends, client-go's
	 * {@code finishTime}.
	 */
	static final Duration SERIES_WINDOW = Duration.ofMinutes(6);

	/**
	 * The API server's limit on {@code note}, in bytes.
	 */
	static final int NOTE_LIMIT = 1024;

	/**
	 * The API server's limit on {@code reportingController} and
	 * {@code reportingInstance}.
	 */
	static final int REPORTER_LIMIT = 128;

	private static final int SPAM_BURST = 25;

	private static final Duration SPAM_REFILL = Duration.ofMinutes(5);

	private static final int BATCH = 100;

	private static final MediaType MERGE_PATCH = MediaType.get("application/merge-patch+json");

	private static final Log logger = LogFactory.getLog(DefaultEventRecorder.class);

	private final ApiClient client;

	private final EventsV1Api api;

	private final OkHttpClient http;

	private final String reportingController;

	private final String reportingInstance;

	private final Duration closeTimeout;

	private final Clock clock;

	private final SpamFilter spamFilter;

	private final BlockingQueue<Pending> queue;

	private final ResourceDiscovery discovery;

	private final Map<Class<?>, String[]> modelKinds = new ConcurrentHashMap<>();

	private final Map<SeriesKey, Series> series = new HashMap<>();

	private final Map<Outcome, AtomicLong> counts = new ConcurrentHashMap<>();

	private final Thread sender;

	private volatile boolean closed;

	private long lastNameNanos;

	/**
	 * Creates a recorder and starts its sender thread.
	 * @param client the client to write Events with
	 * @param reportingController the name of the controller, such as
	 * {@code sample.kubeop.io/static-site-operator}, at most 128 characters
	 * @param reportingInstance the name of this replica, such as the controller name
	 * followed by the pod name; cut to 128 characters
	 * @param queueCapacity how many Events may wait to be written
	 * @param requestTimeout how long one request to the API server may take
	 */
	public DefaultEventRecorder(ApiClient client, String reportingController, String reportingInstance,
			int queueCapacity, Duration requestTimeout) {
		this(client, reportingController, reportingInstance, queueCapacity, requestTimeout,
				new SpamFilter(SPAM_BURST, SPAM_REFILL, System::nanoTime), Clock.systemUTC());
	}

	DefaultEventRecorder(ApiClient client, String reportingController, String reportingInstance, int queueCapacity,
			Duration requestTimeout, SpamFilter spamFilter, Clock clock) {
		Assert.hasText(reportingController, "'reportingController' must not be empty");
		Assert.isTrue(reportingController.length() <= REPORTER_LIMIT, () -> "'reportingController' must be at most "
				+ REPORTER_LIMIT + " characters: " + reportingController);
		Assert.hasText(reportingInstance, "'reportingInstance' must not be empty");
		this.client = client;
		this.api = new EventsV1Api(client);
		// connections of their own, so that a dead connection to the server is not shared
		// with watches, and every request is cut off
		this.http = client.getHttpClient()
			.newBuilder()
			.connectionPool(new ConnectionPool())
			.callTimeout(requestTimeout)
			.build();
		this.reportingController = reportingController;
		this.reportingInstance = (reportingInstance.length() > REPORTER_LIMIT)
				? reportingInstance.substring(0, REPORTER_LIMIT) : reportingInstance;
		this.closeTimeout = requestTimeout.multipliedBy(2);
		this.clock = clock;
		this.spamFilter = spamFilter;
		this.queue = new ArrayBlockingQueue<>(queueCapacity);
		this.discovery = new ResourceDiscovery(client);
		for (Outcome outcome : Outcome.values()) {
			this.counts.put(outcome, new AtomicLong());
		}
		this.sender = new Thread(this::send, "kubeop-events");
		this.sender.setDaemon(true);
		this.sender.start();
	}

	@Override
	public void record(KubernetesObject regarding, EventType type, String reason, String action, String note) {
		Assert.notNull(regarding, "'regarding' must not be null");
		Assert.notNull(type, "'type' must not be null");
		Assert.hasText(reason, "'reason' must not be empty");
		Assert.hasText(action, "'action' must not be empty");
		V1ObjectMeta metadata = regarding.getMetadata();
		Assert.isTrue(metadata != null && metadata.getName() != null, "'regarding' must have a name");
		Pending pending = new Pending(regarding.getClass(), regarding.getApiVersion(), regarding.getKind(),
				metadata.getNamespace(), metadata.getName(), metadata.getUid(), type, reason, action, truncate(note),
				this.clock.instant());
		if (this.closed || !this.queue.offer(pending)) {
			increment(Outcome.DROPPED);
		}
	}

	/**
	 * Returns the name of the controller that reports the Events.
	 * @return the {@code reportingController} of every Event
	 */
	public String reportingController() {
		return this.reportingController;
	}

	/**
	 * Returns the name of this replica.
	 * @return the {@code reportingInstance} of every Event
	 */
	public String reportingInstance() {
		return this.reportingInstance;
	}

	/**
	 * Returns how many Events ended in an outcome since this recorder was created.
	 * @param outcome the outcome
	 * @return the number of Events
	 */
	public long count(Outcome outcome) {
		return this.counts.get(outcome).get();
	}

	/**
	 * Stops taking Events, writes those queued within twice the request timeout, and
	 * drops (and counts) the rest.
	 */
	@Override
	public void close() {
		this.closed = true;
		try {
			this.sender.join(this.closeTimeout.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.sender.isAlive()) {
			this.sender.interrupt();
		}
		int left = this.queue.size();
		this.queue.clear();
		this.counts.get(Outcome.DROPPED).addAndGet(left);
		this.http.connectionPool().evictAll();
	}

	private void send() {
		try {
			while (!this.closed || !this.queue.isEmpty()) {
				Pending next = this.queue.poll(1, TimeUnit.SECONDS);
				for (int i = 0; next != null && i < BATCH; i++) {
					send(next);
					next = (i + 1 < BATCH) ? this.queue.poll() : null;
				}
				writeSeries();
				forgetEndedSeries();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void send(Pending pending) {
		V1ObjectReference regarding = regarding(pending);
		if (regarding == null) {
			increment(Outcome.FAILED);
			return;
		}
		if (!this.spamFilter.tryAccept(new SpamKey(regarding))) {
			increment(Outcome.DROPPED);
			return;
		}
		SeriesKey key = new SeriesKey(pending.type(), pending.reason(), pending.action(), new SpamKey(regarding));
		Series existing = this.series.get(key);
		if (existing != null && !existing.endedBefore(pending.time().minus(SERIES_WINDOW))) {
			existing.observe(pending.time());
			increment(Outcome.SERIES);
			return;
		}
		EventsV1Event event = newEvent(pending, regarding);
		try {
			create(event);
			this.series.put(key, new Series(event, pending.time()));
			increment(Outcome.CREATED);
		}
		catch (ApiException ex) {
			failed("create", event, ex);
		}
	}

	private void writeSeries() {
		for (Series series : this.series.values()) {
			if (!series.unwritten) {
				continue;
			}
			series.unwritten = false;
			EventsV1Event event = series.event;
			event.series(new EventsV1EventSeries().count(series.count)
				.lastObservedTime(OffsetDateTime.ofInstant(series.lastObserved, ZoneOffset.UTC)));
			try {
				patchSeries(event);
			}
			catch (ApiException ex) {
				if (ex.getCode() != 404) {
					failed("patch", event, ex);
					continue;
				}
				// the Event expired (or was deleted): write it anew with its series, as
				// client-go does
				try {
					create(event);
				}
				catch (ApiException createFailure) {
					failed("create", event, createFailure);
				}
			}
		}
	}

	private void forgetEndedSeries() {
		Instant ended = this.clock.instant().minus(SERIES_WINDOW);
		for (Iterator<Series> iterator = this.series.values().iterator(); iterator.hasNext();) {
			if (iterator.next().endedBefore(ended)) {
				iterator.remove();
			}
		}
	}

	private EventsV1Event newEvent(Pending pending, V1ObjectReference regarding) {
		// client-go names an Event after its object and the time in hex nanoseconds; the
		// time is kept strictly increasing so that two Events of one batch never collide
		long nanos = Math.max(this.lastNameNanos + 1, nanos(this.clock.instant()));
		this.lastNameNanos = nanos;
		String namespace = (regarding.getNamespace() != null) ? regarding.getNamespace() : "default";
		return new EventsV1Event().apiVersion("events.k8s.io/v1")
			.kind("Event")
			.metadata(new V1ObjectMeta().name(regarding.getName() + "." + Long.toHexString(nanos)).namespace(namespace))
			.eventTime(OffsetDateTime.ofInstant(pending.time().truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC))
			.type(pending.type().value())
			.reason(pending.reason())
			.action(pending.action())
			.note(pending.note())
			.regarding(regarding)
			.reportingController(this.reportingController)
			.reportingInstance(this.reportingInstance);
	}

	private V1ObjectReference regarding(Pending pending) {
		String apiVersion = pending.apiVersion();
		String kind = pending.kind();
		if (apiVersion == null || kind == null) {
			String[] resolved = modelKind(pending.objectClass());
			if (resolved == null) {
				return null;
			}
			apiVersion = resolved[0];
			kind = resolved[1];
		}
		return new V1ObjectReference().apiVersion(apiVersion)
			.kind(kind)
			.namespace(pending.namespace())
			.name(pending.name())
			.uid(pending.uid());
	}

	/**
	 * Resolves the API version and kind of a class whose objects do not carry them, as
	 * generated models read from a list do not: typed custom resources name them in their
	 * annotation, generated models in their class name except for the group, which
	 * discovery tells.
	 */
	private String[] modelKind(Class<?> type) {
		String[] cached = this.modelKinds.get(type);
		if (cached != null) {
			return cached;
		}
		String[] resolved;
		try {
			if (ResourceType.isCustomResource(type)) {
				ResourceType resource = ResourceType.of(type);
				resolved = new String[] { resource.apiVersion(), resource.kind() };
			}
			else {
				GroupVersionKind gvk = GeneratedModels.groupVersionKindOf(type).orElse(null);
				if (gvk == null) {
					logger.warn("Cannot record Events about a " + type.getName()
							+ " that names no apiVersion and kind; set them on the object");
					return null;
				}
				String apiVersion = gvk.getGroup().isEmpty()
						? this.discovery.apiVersionOf(gvk.getVersion(), gvk.getKind())
						: gvk.getGroup() + "/" + gvk.getVersion();
				resolved = new String[] { apiVersion, gvk.getKind() };
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Cannot record Events about a " + type.getName() + ": " + ex.getMessage());
			return null;
		}
		this.modelKinds.put(type, resolved);
		return resolved;
	}

	private void create(EventsV1Event event) throws ApiException {
		Call prepared = this.api.createNamespacedEvent(event.getMetadata().getNamespace(), event).buildCall(null);
		execute(prepared.request());
	}

	private void patchSeries(EventsV1Event event) throws ApiException {
		JsonObject series = new JsonObject();
		series.add("series", this.client.getJSON().getGson().toJsonTree(event.getSeries()));
		String patch = this.client.getJSON().serialize(series);
		Call prepared = this.api
			.patchNamespacedEvent(event.getMetadata().getName(), event.getMetadata().getNamespace(), new V1Patch(patch))
			.buildCall(null);
		execute(prepared.request().newBuilder().patch(RequestBody.create(patch, MERGE_PATCH)).build());
	}

	private void execute(Request request) throws ApiException {
		try {
			this.client.execute(this.http.newCall(request), EventsV1Event.class);
		}
		catch (ApiException ex) {
			if (ex.getCode() == 0) {
				// a connection that timed out is likely dead: the next request dials anew
				this.http.connectionPool().evictAll();
			}
			throw ex;
		}
	}

	private void failed(String verb, EventsV1Event event, ApiException ex) {
		increment(Outcome.FAILED);
		if (logger.isWarnEnabled()) {
			// the note may carry what a user wrote: never logged
			V1ObjectReference regarding = event.getRegarding();
			logger.warn("Could not " + verb + " Event " + event.getReason() + " about " + regarding.getKind() + " "
					+ ((regarding.getNamespace() != null) ? regarding.getNamespace() + "/" : "") + regarding.getName()
					+ ": " + ((ex.getCode() != 0) ? "HTTP " + ex.getCode() + " " + status(ex) : ex.getMessage()));
		}
	}

	private String status(ApiException ex) {
		try {
			JsonObject status = this.client.getJSON().deserialize(ex.getResponseBody(), JsonObject.class);
			return (status != null && status.has("message")) ? status.get("message").getAsString() : "";
		}
		catch (RuntimeException notJson) {
			return "";
		}
	}

	private void increment(Outcome outcome) {
		this.counts.get(outcome).incrementAndGet();
	}

	private static long nanos(Instant instant) {
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

	/**
	 * Cuts a note to the API server's limit of 1024 bytes of UTF-8, never inside a
	 * character.
	 */
	static String truncate(String note) {
		if (note == null || note.length() * 3 <= NOTE_LIMIT) {
			return note;
		}
		CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
			.onMalformedInput(CodingErrorAction.REPLACE)
			.onUnmappableCharacter(CodingErrorAction.REPLACE);
		ByteBuffer bytes = ByteBuffer.allocate(NOTE_LIMIT);
		CharBuffer chars = CharBuffer.wrap(note);
		encoder.encode(chars, bytes, true);
		return note.substring(0, chars.position());
	}

	/**
	 * What became of a recorded Event.
	 */
	public enum Outcome {

		/**
		 * A new Event was written.
		 */
		CREATED,

		/**
		 * The Event repeated an earlier one and was added to its series.
		 */
		SERIES,

		/**
		 * The Event was dropped: the queue was full, the recorder closed, or its object
		 * had used up its rate.
		 */
		DROPPED,

		/**
		 * The API server could not be reached or refused the Event.
		 */
		FAILED;

		/**
		 * Returns the value of the {@code result} tag of the {@code kubeop.events}
		 * counter.
		 * @return the tag value, such as {@code created}
		 */
		public String tag() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * An Event as recorded, before the sender resolves its object.
	 */
	private record Pending(Class<?> objectClass, String apiVersion, String kind, String namespace, String name,
			String uid, EventType type, String reason, String action, String note, Instant time) {
	}

	/**
	 * The reporter and object an Event is about, client-go's spam key.
	 */
	private record SpamKey(String apiVersion, String kind, String namespace, String name, String uid) {

		SpamKey(V1ObjectReference reference) {
			this(reference.getApiVersion(), reference.getKind(), reference.getNamespace(), reference.getName(),
					reference.getUid());
		}

	}

	/**
	 * What makes two Events isomorphic, client-go's {@code eventKey}; the reporter is the
	 * same for every Event of one recorder.
	 */
	private record SeriesKey(EventType type, String reason, String action, SpamKey regarding) {
	}

	/**
	 * An Event written and the repeats observed since.
	 */
	private static final class Series {

		private final EventsV1Event event;

		private int count = 1;

		private Instant lastObserved;

		private boolean unwritten;

		Series(EventsV1Event event, Instant time) {
			this.event = event;
			this.lastObserved = time;
		}

		void observe(Instant time) {
			this.count++;
			this.lastObserved = time;
			this.unwritten = true;
		}

		boolean endedBefore(Instant instant) {
			return this.lastObserved.isBefore(instant);
		}

	}

}
