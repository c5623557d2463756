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
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Status;

import io.github.kubeop.informer.ProtobufTable.FieldInfo;
import io.github.kubeop.informer.ProtobufTable.Kind;
import io.github.kubeop.informer.ProtobufTable.MessageType;
import io.github.kubeop.informer.ProtobufTable.ValueType;

/**
 * Decodes the objects of one informer of a built-in kind straight from the API server's
 * protobuf encoding ({@code application/vnd.kubernetes.protobuf}) into the client's
 * models, without protobuf message classes: a list response (the {@code k8s\0} magic, a
 * {@code runtime.Unknown} envelope, the list) one item at a time, and a watch's frames
 * ({@code WatchEvent}s whose objects are such envelopes). A metadata-only informer, of
 * any kind, reads {@code meta.k8s.io/v1} {@code PartialObjectMetadata} the same way into
 * {@link PartialObjectMetadata}.
 * <p>
 * The models equal what the JSON path decodes, with the help of {@link ProtobufTable}:
 * protobuf sends every value field of a Go struct even when it is zero, where JSON leaves
 * a zero value out if the field is {@code omitempty}, so such zeros are dropped (a
 * pointer field keeps its zero in both); JSON inlines some nested messages into their
 * parent; a {@code Time} has no fraction in JSON, a {@code MicroTime} microseconds, and
 * the zero time is {@code null}; {@code fieldsV1} and raw extensions are JSON inside the
 * protobuf. The ready-made transforms take effect while reading, as on the JSON path:
 * {@code managedFields} and a stripped {@code status} are skipped unread, the
 * last-applied annotation is dropped, and with
 * {@link StandardTransform#DEDUPLICATE_STRINGS} short strings are pooled (but an object's
 * name, uid and resourceVersion). Quantities and timestamps are shared between objects.
 * <p>
 * Each list/watch loop has its own, which keeps the state of the object it reads (the
 * watch frame its strings are pooled from, the object's key, the shared values): a watch
 * frame and each item of a list are read holding the decoder's lock, since a load by name
 * ({@link ResourceInformer#load(String)}) lists on another thread while the loop reads
 * its watch.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class ProtobufDecoder<T extends KubernetesObject> {

	/**
	 * The media type of the protobuf encoding.
	 */
	static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

	private static final byte[] MAGIC = { 'k', '8', 's', 0 };

	private static final String OBJECT_META = "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta";

	private static final String STATUS = "k8s.io/apimachinery/pkg/apis/meta/v1.Status";

	private static final String PARTIAL_OBJECT_METADATA = "k8s.io/apimachinery/pkg/apis/meta/v1.PartialObjectMetadata";

	private static final Set<String> UNIQUE_METADATA_FIELDS = Set.of("name", "uid", "resourceVersion");

	private static final int SHARED_CAPACITY = 4096;

	private static final Gson plainGson = new Gson();

	private static final java.util.concurrent.atomic.LongAdder decoded = new java.util.concurrent.atomic.LongAdder();

	private final ProtobufTable table;

	private final Class<T> type;

	private final String apiVersion;

	private final String kind;

	/**
	 * Whether the objects are {@link PartialObjectMetadata}, which take the resource's
	 * apiVersion and kind rather than {@code meta.k8s.io/v1}'s.
	 */
	private final boolean metadataOnly;

	private final boolean deduplicate;

	private final boolean skipManagedFields;

	private final boolean stripLastApplied;

	private final Binding root;

	private final Map<String, Binding> bindings = new HashMap<>();

	private final Map<String, Quantity> quantities = new HashMap<>();

	private final Map<Long, OffsetDateTime> times = new HashMap<>();

	private final Method setApiVersion;

	private final Method setKind;

	private String key;

	private String resourceVersion;

	/**
	 * The watch frame being read, whose strings are pooled from its bytes, or
	 * {@code null} while a list is read from its stream.
	 */
	private byte[] frame;

	private ProtobufDecoder(ProtobufTable table, String goType, Class<T> type, ResourceKind resource,
			Set<StandardTransform> standardTransforms, boolean clientKeepsManagedFields) throws NoSuchMethodException {
		this.table = table;
		this.type = type;
		// the instances JSON's cached objects share
		this.apiVersion = StringPool.pooled(resource.apiVersion());
		this.kind = StringPool.pooled(resource.kind());
		this.metadataOnly = type == PartialObjectMetadata.class;
		this.deduplicate = standardTransforms.contains(StandardTransform.DEDUPLICATE_STRINGS);
		this.skipManagedFields = standardTransforms.contains(StandardTransform.STRIP_MANAGED_FIELDS)
				|| !clientKeepsManagedFields;
		this.stripLastApplied = standardTransforms.contains(StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION);
		this.root = new Binding(table.type(goType), type,
				standardTransforms.contains(StandardTransform.STRIP_STATUS) ? "status" : null);
		this.setApiVersion = type.getMethod("setApiVersion", String.class);
		this.setKind = type.getMethod("setKind", String.class);
	}

	/**
	 * Returns a decoder for an informer's objects, or {@code null} if its kind has no
	 * protobuf encoding that this decoder knows: custom resources, dynamic objects, and
	 * kinds the table does not have; or if the application registered its own adapter for
	 * the type on the client's Gson, which only JSON goes through. A metadata-only
	 * informer has one whatever its kind (the API server sends the metadata of custom
	 * resources in protobuf too), unless the application registered its own adapter for
	 * {@code V1ObjectMeta}.
	 * @param <T> the Java type of the objects
	 * @param spec the informer's spec
	 * @param resource the informer's resource
	 * @param clientGson the client's Gson, asked whether it keeps {@code managedFields}
	 * and how it decodes the type
	 * @return the decoder, or {@code null}
	 */
	static <T extends KubernetesObject> ProtobufDecoder<T> of(InformerSpec<T> spec, ResourceKind resource,
			Gson clientGson) {
		ProtobufTable table = ProtobufTable.get();
		boolean metadataOnly = spec.metadataOnly();
		String goType = metadataOnly ? PARTIAL_OBJECT_METADATA
				: table.goType(resource.group(), resource.version(), resource.kind());
		if (goType == null) {
			return null;
		}
		boolean decodable = metadataOnly ? ModelDecoder.decodesAsTheClient(clientGson, V1ObjectMeta.class)
				: KubernetesObject.class.isAssignableFrom(spec.type())
						&& spec.type().getName().startsWith("io.kubernetes.client.openapi.")
						&& ModelDecoder.decodesAsTheClient(clientGson, spec.type());
		if (!decodable) {
			return null;
		}
		try {
			return new ProtobufDecoder<>(table, goType, spec.type(), resource, spec.standardTransforms(),
					ModelDecoder.keepsManagedFields(clientGson));
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

	/**
	 * Returns what a list or watch of this decoder's objects accepts: protobuf, and JSON
	 * from a server that does not send it.
	 * @param watch whether the request is a watch
	 * @return the {@code Accept} header
	 */
	String accept(boolean watch) {
		if (this.metadataOnly) {
			return watch ? PartialObjectMetadata.PROTOBUF_WATCH_MEDIA_TYPE
					: PartialObjectMetadata.PROTOBUF_LIST_MEDIA_TYPE;
		}
		return MEDIA_TYPE + ", application/json";
	}

	/**
	 * Returns how many objects decoders have read in this JVM, for tests.
	 * @return the number of objects
	 */
	static long decodedObjects() {
		return decoded.sum();
	}

	/**
	 * Returns whether a response's content type is the protobuf encoding.
	 * @param contentType the {@code Content-Type} header, or {@code null}
	 * @return whether it is protobuf
	 */
	static boolean isProtobuf(String contentType) {
		return contentType != null && contentType.startsWith(MEDIA_TYPE);
	}

	/**
	 * Reads a list response one item at a time.
	 * @param body the response's body
	 * @param onObject told each object, with its key, before user transforms
	 * @param onUnreadable told the key of each object that could not be decoded
	 * @param onMetadata told the list's metadata, before the items
	 * @return the list's metadata
	 * @throws IOException if the body cannot be read or is not a list
	 */
	ListWatch.ListMetadata readList(InputStream body, ObjectConsumer<T> onObject, Consumer<String> onUnreadable,
			Consumer<ListWatch.ListMetadata> onMetadata) throws IOException {
		CodedInputStream in = CodedInputStream.newInstance(body);
		in.setSizeLimit(Integer.MAX_VALUE);
		readMagic(in);
		ListWatch.ListMetadata metadata = null;
		boolean hasItems = false;
		// runtime.Unknown: typeMeta = 1, raw = 2
		int tag;
		while ((tag = in.readTag()) != 0) {
			if (WireFormat.getTagFieldNumber(tag) != 2) {
				in.skipField(tag);
				continue;
			}
			int limit = in.pushLimit(in.readRawVarint32());
			// a list: metadata = 1, items = 2
			int listTag;
			while ((listTag = in.readTag()) != 0) {
				int number = WireFormat.getTagFieldNumber(listTag);
				if (number == 1) {
					int metadataLimit = in.pushLimit(in.readRawVarint32());
					metadata = readListMeta(in);
					in.popLimit(metadataLimit);
					onMetadata.accept(metadata);
				}
				else if (number == 2) {
					hasItems = true;
					int length = in.readRawVarint32();
					int itemLimit = in.pushLimit(length);
					int start = in.getTotalBytesRead();
					T object;
					String key;
					// a load by name lists on another thread than the watch's frames
					// are read on: without the lock, its strings were pooled from the
					// bytes of the frame being read (a Secret cached under a key of
					// garbage)
					synchronized (this) {
						try {
							object = readObject(in, this.root);
							this.setApiVersion.invoke(object, this.apiVersion);
							this.setKind.invoke(object, this.kind);
							key = this.key;
							in.popLimit(itemLimit);
						}
						catch (RuntimeException | ReflectiveOperationException ex) {
							object = null;
							key = (this.key != null) ? this.key : "(unreadable)";
							// the limits of the nested messages it failed in are still
							// pushed, and the rest of the item lies beyond them: back to
							// the list's limit first
							in.popLimit(itemLimit);
							in.skipRawBytes(length - (in.getTotalBytesRead() - start));
						}
					}
					if (object != null) {
						onObject.accept(object, key);
					}
					else {
						onUnreadable.accept(key);
					}
				}
				else {
					in.skipField(listTag);
				}
			}
			in.popLimit(limit);
		}
		if (metadata == null) {
			// not a list: taking it for an empty one would empty the cache
			throw new ListWatch.UnexpectedResponseException("The protobuf response to a list has no metadata");
		}
		if (!hasItems) {
			// protobuf leaves an empty list of items out
			return metadata;
		}
		return metadata;
	}

	/**
	 * Reads the {@code Status} of a response that failed in protobuf (a list or watch
	 * that the API server refused) as the JSON the server sends when asked for JSON, so
	 * that its message, reason and details are read as on JSON.
	 * @param body the response's body
	 * @return the Status as JSON, or {@code null} if the body is not a protobuf Status
	 */
	static String statusJson(byte[] body) {
		try {
			// a decoder of any kind reads a Status, as a watch's error events
			ProtobufDecoder<PartialObjectMetadata> decoder = new ProtobufDecoder<>(ProtobufTable.get(),
					PARTIAL_OBJECT_METADATA, PartialObjectMetadata.class,
					new ResourceKind("meta.k8s.io", "v1", "PartialObjectMetadata", "", false), Set.of(), true);
			CodedInputStream in = CodedInputStream.newInstance(body);
			readMagic(in);
			V1Status status = null;
			String apiVersion = "v1";
			String kind = null;
			// runtime.Unknown: typeMeta = 1, raw = 2
			int tag;
			while ((tag = in.readTag()) != 0) {
				int number = WireFormat.getTagFieldNumber(tag);
				int limit = (number == 1 || number == 2) ? in.pushLimit(in.readRawVarint32()) : -1;
				if (number == 1) {
					int typeMetaTag;
					while ((typeMetaTag = in.readTag()) != 0) {
						switch (WireFormat.getTagFieldNumber(typeMetaTag)) {
							case 1 -> apiVersion = in.readString();
							case 2 -> kind = in.readString();
							default -> in.skipField(typeMetaTag);
						}
					}
				}
				else if (number == 2) {
					status = (V1Status) decoder.readMessage(in, decoder.binding(STATUS, V1Status.class),
							new V1Status());
				}
				else {
					in.skipField(tag);
				}
				if (limit >= 0) {
					in.popLimit(limit);
				}
			}
			if (status == null || !"Status".equals(kind)) {
				return null;
			}
			status.setApiVersion(apiVersion);
			status.setKind(kind);
			if (status.getDetails() != null && status.getDetails().getCauses() != null
					&& status.getDetails().getCauses().isEmpty()) {
				// the model starts with an empty list, which JSON leaves out
				status.getDetails().setCauses(null);
			}
			return plainGson.toJson(status);
		}
		catch (IOException | RuntimeException | NoSuchMethodException ex) {
			return null;
		}
	}

	private static void readMagic(CodedInputStream in) throws IOException {
		byte[] magic = in.readRawBytes(MAGIC.length);
		for (int i = 0; i < MAGIC.length; i++) {
			if (magic[i] != MAGIC[i]) {
				throw new ListWatch.UnexpectedResponseException("The protobuf response does not start with k8s\\0");
			}
		}
	}

	private ListWatch.ListMetadata readListMeta(CodedInputStream in) throws IOException {
		String resourceVersion = null;
		String continueToken = null;
		int tag;
		while ((tag = in.readTag()) != 0) {
			switch (WireFormat.getTagFieldNumber(tag)) {
				case 2 -> resourceVersion = in.readString();
				case 3 -> continueToken = in.readString();
				default -> in.skipField(tag);
			}
		}
		return new ListWatch.ListMetadata(resourceVersion,
				(continueToken != null && !continueToken.isEmpty()) ? continueToken : null);
	}

	/**
	 * Decodes one frame of a watch, a {@code WatchEvent}.
	 * @param frame the frame, without its length
	 * @return the event
	 * @throws IOException if the frame is not a watch event
	 * @throws RuntimeException if the object does not fit its Java type
	 */
	Event<T> readEvent(byte[] frame) throws IOException {
		return readEvent(frame, frame.length);
	}

	/**
	 * Decodes one frame of a watch, a {@code WatchEvent}, from the start of a buffer that
	 * the caller may reuse once this returns: nothing decoded refers to its bytes.
	 * @param frame the buffer holding the frame, without its length
	 * @param length the frame's length
	 * @return the event
	 * @throws IOException if the frame is not a watch event
	 * @throws RuntimeException if the object does not fit its Java type
	 */
	synchronized Event<T> readEvent(byte[] frame, int length) throws IOException {
		this.frame = frame;
		try {
			return readEvent(CodedInputStream.newInstance(frame, 0, length));
		}
		finally {
			this.frame = null;
		}
	}

	private Event<T> readEvent(CodedInputStream in) throws IOException {
		in.setSizeLimit(Integer.MAX_VALUE);
		String eventType = null;
		Object object = null;
		String objectKind = null;
		String objectApiVersion = null;
		int tag;
		while ((tag = in.readTag()) != 0) {
			int number = WireFormat.getTagFieldNumber(tag);
			if (number == 1) {
				eventType = in.readString();
				continue;
			}
			if (number != 2) {
				in.skipField(tag);
				continue;
			}
			// RawExtension: raw = 1, holding k8s\0 and a runtime.Unknown
			int extensionLimit = in.pushLimit(in.readRawVarint32());
			int extensionTag;
			while ((extensionTag = in.readTag()) != 0) {
				if (WireFormat.getTagFieldNumber(extensionTag) != 1) {
					in.skipField(extensionTag);
					continue;
				}
				int rawLimit = in.pushLimit(in.readRawVarint32());
				readMagic(in);
				int unknownTag;
				while ((unknownTag = in.readTag()) != 0) {
					int unknownNumber = WireFormat.getTagFieldNumber(unknownTag);
					if (unknownNumber == 1) {
						int typeMetaLimit = in.pushLimit(in.readRawVarint32());
						int typeMetaTag;
						while ((typeMetaTag = in.readTag()) != 0) {
							switch (WireFormat.getTagFieldNumber(typeMetaTag)) {
								case 1 -> objectApiVersion = in.readString();
								case 2 -> objectKind = in.readString();
								default -> in.skipField(typeMetaTag);
							}
						}
						in.popLimit(typeMetaLimit);
					}
					else if (unknownNumber == 2) {
						int objectLimit = in.pushLimit(in.readRawVarint32());
						if ("Status".equals(objectKind) && !"Status".equals(this.kind)) {
							object = readMessage(in, binding(STATUS, V1Status.class), new V1Status());
						}
						else {
							object = readObject(in, this.root);
						}
						in.popLimit(objectLimit);
					}
					else {
						in.skipField(unknownTag);
					}
				}
				in.popLimit(rawLimit);
			}
			in.popLimit(extensionLimit);
		}
		if (eventType == null || object == null) {
			throw new ListWatch.UnexpectedResponseException("A protobuf watch event without a type or an object");
		}
		if (object instanceof V1Status status && !this.type.isInstance(object)) {
			status.setApiVersion(objectApiVersion);
			status.setKind(objectKind);
			JsonObject tree = new JsonObject();
			tree.addProperty("type", eventType);
			tree.add("object", plainGson.toJsonTree(status));
			return new Event<>(eventType, null, null, null, tree);
		}
		T decoded = this.type.cast(object);
		// metadata comes as meta.k8s.io/v1 PartialObjectMetadata and is cached as the
		// resource's, as on JSON
		boolean envelope = !this.metadataOnly;
		try {
			// each event's type meta is read anew: without sharing, every cached object
			// kept its own "v1" and "ConfigMap" (about 100 bytes), where JSON pools them
			this.setApiVersion.invoke(decoded, (envelope && objectApiVersion != null)
					? shared(objectApiVersion, this.apiVersion) : this.apiVersion);
			this.setKind.invoke(decoded, (envelope && objectKind != null) ? shared(objectKind, this.kind) : this.kind);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
		if ("BOOKMARK".equals(eventType)) {
			// the usual path reads a bookmark's resourceVersion and annotations from a
			// tree
			JsonObject metadata = new JsonObject();
			metadata.addProperty("resourceVersion", this.resourceVersion);
			V1ObjectMeta meta = decoded.getMetadata();
			if (meta != null && meta.getAnnotations() != null) {
				metadata.add("annotations", plainGson.toJsonTree(meta.getAnnotations()));
			}
			JsonObject bookmark = new JsonObject();
			bookmark.add("metadata", metadata);
			JsonObject tree = new JsonObject();
			tree.addProperty("type", eventType);
			tree.add("object", bookmark);
			return new Event<>(eventType, null, null, null, tree);
		}
		return new Event<>(eventType, decoded, this.key, this.resourceVersion, null);
	}

	/**
	 * Decodes an object, the rest of the stream up to its limit, and applies the
	 * ready-made transforms of its own metadata.
	 */
	private T readObject(CodedInputStream in, Binding binding) throws IOException {
		decoded.increment();
		this.key = null;
		this.resourceVersion = null;
		T object = this.type.cast(readMessage(in, binding, binding.newInstance()));
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null) {
			throw new ListWatch.UnexpectedResponseException("An object without metadata");
		}
		String name = (metadata.getName() != null) ? metadata.getName() : "";
		this.key = (metadata.getNamespace() != null) ? metadata.getNamespace() + "/" + name : name;
		this.resourceVersion = metadata.getResourceVersion();
		if (this.stripLastApplied && metadata.getAnnotations() != null) {
			metadata.getAnnotations().remove(StandardTransform.LAST_APPLIED_CONFIGURATION);
		}
		return object;
	}

	private Binding binding(String goType, Class<?> javaType) {
		String bindingKey = goType + " " + javaType.getName();
		Binding binding = this.bindings.get(bindingKey);
		if (binding == null) {
			MessageType message = this.table.type(goType);
			if (message == null) {
				throw new IllegalStateException("No protobuf table entry for " + goType);
			}
			binding = new Binding(message, javaType, null);
			this.bindings.put(bindingKey, binding);
		}
		return binding;
	}

	/**
	 * Returns the binding of a message nested in a field, kept by the field: looking it
	 * up by name for every nested message was a fifth of a Pod's decoding.
	 */
	private Binding nested(FieldBinding field, String goType, Class<?> javaType) {
		Binding cached = field.nested;
		if (cached != null && cached.javaType == javaType && cached.goType.equals(goType)) {
			return cached;
		}
		Binding binding = binding(goType, javaType);
		field.nested = binding;
		return binding;
	}

	/**
	 * Reads a message's fields up to the current limit into a model.
	 */
	private Object readMessage(CodedInputStream in, Binding binding, Object target) throws IOException {
		binding.clearDefaults(target);
		int tag;
		while ((tag = in.readTag()) != 0) {
			FieldBinding field = binding.field(WireFormat.getTagFieldNumber(tag));
			if (field == null) {
				in.skipField(tag);
				continue;
			}
			readField(in, tag, field, target);
		}
		return target;
	}

	@SuppressWarnings("unchecked")
	private void readField(CodedInputStream in, int tag, FieldBinding field, Object target) throws IOException {
		FieldInfo info = field.info;
		try {
			if (info.inline()) {
				int limit = in.pushLimit(in.readRawVarint32());
				readMessage(in, nested(field, info.type().message(), field.owner), target);
				in.popLimit(limit);
				return;
			}
			if (info.map()) {
				Map<String, Object> map = (Map<String, Object>) field.field.get(target);
				if (map == null) {
					map = new LinkedHashMap<>();
					field.field.set(target, map);
				}
				int limit = in.pushLimit(in.readRawVarint32());
				String entryKey = "";
				Object value = null;
				int entryTag;
				while ((entryTag = in.readTag()) != 0) {
					int number = WireFormat.getTagFieldNumber(entryTag);
					if (number == 1) {
						// a watch frame's keys pooled from its bytes, as its values are
						entryKey = (this.frame != null) ? readPooledString(in) : pooled(in.readString(), true);
					}
					else if (number == 2) {
						value = readValue(in, info.type(), field.element, field.elementElement, field.pool, field);
					}
					else {
						in.skipField(entryTag);
					}
				}
				in.popLimit(limit);
				map.put(entryKey, (value != null) ? value : zero(info.type(), field.element));
				return;
			}
			if (info.repeated()) {
				List<Object> list = (List<Object>) field.field.get(target);
				if (list == null) {
					list = new ArrayList<>();
					field.field.set(target, list);
				}
				if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED && isScalar(info.type())) {
					// packed
					int limit = in.pushLimit(in.readRawVarint32());
					while (in.getBytesUntilLimit() > 0) {
						list.add(readValue(in, info.type(), field.element, null, field.pool, field));
					}
					in.popLimit(limit);
				}
				else {
					list.add(readValue(in, info.type(), field.element, field.elementElement, field.pool, field));
				}
				return;
			}
			Object value = readValue(in, info.type(), field.javaType, field.element, field.pool, field);
			if (!info.pointer() && info.omitempty() && isZero(value)) {
				// protobuf sends a value field's zero, JSON leaves it out
				return;
			}
			field.field.set(target, value);
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static boolean isScalar(ValueType type) {
		return switch (type.kind()) {
			case BOOL, INT32, INT64, DOUBLE -> true;
			default -> false;
		};
	}

	static boolean isZero(Object value) {
		if (value == null) {
			return true;
		}
		if (value instanceof String string) {
			return string.isEmpty();
		}
		if (value instanceof Boolean bool) {
			return !bool;
		}
		if (value instanceof Number number) {
			return number.doubleValue() == 0;
		}
		if (value instanceof byte[] bytes) {
			return bytes.length == 0;
		}
		return false;
	}

	private Object zero(ValueType type, Class<?> javaType) {
		return switch (type.kind()) {
			case STRING -> "";
			case BOOL -> Boolean.FALSE;
			case INT32, INT64, DOUBLE -> number(0L, javaType);
			case BYTES -> new byte[0];
			case LIST -> new ArrayList<>();
			default -> null;
		};
	}

	/**
	 * Reads one value.
	 * @param javaType the Java type it is read into
	 * @param element the type of the elements, if the Java type is a list
	 * @param field the field the value is read for, which keeps the binding of a nested
	 * message
	 */
	private Object readValue(CodedInputStream in, ValueType type, Class<?> javaType, Class<?> element, boolean pool,
			FieldBinding field) throws IOException {
		switch (type.kind()) {
			case STRING:
				return (pool && this.frame != null) ? readPooledString(in) : pooled(in.readString(), pool);
			case BOOL:
				return in.readBool();
			case INT32:
				return number(in.readInt32(), javaType);
			case INT64:
				return number(in.readInt64(), javaType);
			case DOUBLE:
				return number(in.readDouble(), javaType);
			case BYTES:
				return in.readByteArray();
			default:
				break;
		}
		int limit = in.pushLimit(in.readRawVarint32());
		Object value = switch (type.kind()) {
			case TIME, MICROTIME -> readTime(in, type.kind() == Kind.MICROTIME);
			case QUANTITY -> readQuantity(in);
			case INTORSTRING -> readIntOrString(in);
			case FIELDSV1, RAWEXTENSION -> readRawJson(in);
			case DURATION -> readDuration(in);
			case LIST -> readList(in, type.element(), element, pool, field);
			case MESSAGE -> (javaType == Object.class || javaType == null) ? skipAll(in)
					: readNested(in, nested(field, type.message(), javaType));
			default -> throw new IllegalStateException("Unexpected " + type.kind());
		};
		in.popLimit(limit);
		return value;
	}

	/**
	 * Reads a message nested in an object; one that is an object itself (a StatefulSet's
	 * claim templates) gets the apiVersion and kind that JSON has and protobuf does not.
	 */
	private Object readNested(CodedInputStream in, Binding binding) throws IOException {
		Object nested = readMessage(in, binding, binding.newInstance());
		if (binding.apiVersion != null) {
			try {
				binding.apiVersion.set(nested, binding.typeMeta[0]);
				binding.kind.set(nested, binding.typeMeta[1]);
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return nested;
	}

	private static Object skipAll(CodedInputStream in) throws IOException {
		in.skipRawBytes(in.getBytesUntilLimit());
		return null;
	}

	private List<Object> readList(CodedInputStream in, ValueType element, Class<?> javaElement, boolean pool,
			FieldBinding field) throws IOException {
		List<Object> list = new ArrayList<>();
		int tag;
		while ((tag = in.readTag()) != 0) {
			if (WireFormat.getTagFieldNumber(tag) == 1) {
				list.add(readValue(in, element, javaElement, null, pool, field));
			}
			else {
				in.skipField(tag);
			}
		}
		return list;
	}

	private static Object number(long value, Class<?> javaType) {
		if (javaType == Integer.class) {
			return (int) value;
		}
		if (javaType == Double.class) {
			return (double) value;
		}
		if (javaType == Float.class) {
			return (float) value;
		}
		if (javaType == BigDecimal.class) {
			return BigDecimal.valueOf(value);
		}
		return value;
	}

	private static Object number(double value, Class<?> javaType) {
		if (javaType == Float.class) {
			return (float) value;
		}
		if (javaType == BigDecimal.class) {
			return BigDecimal.valueOf(value);
		}
		return value;
	}

	/**
	 * Reads a string of the watch frame and pools it, looked up by its bytes: a string
	 * already pooled is neither copied out of the frame nor hashed twice.
	 */
	private String readPooledString(CodedInputStream in) throws IOException {
		int length = in.readRawVarint32();
		if (length > StringDeduplication.MAX_LENGTH) {
			// may still be short enough in characters
			return pooled(new String(in.readRawBytes(length), StandardCharsets.UTF_8), true);
		}
		// a decoder over the whole frame counts its bytes from the frame's start
		int offset = in.getTotalBytesRead();
		in.skipRawBytes(length);
		return StringPool.pooled(this.frame, offset, length);
	}

	/**
	 * Returns the decoder's own instance of a string of an event's type meta when equal,
	 * else the pooled one.
	 */
	private static String shared(String value, String own) {
		return value.equals(own) ? own : StringPool.pooled(value);
	}

	private String pooled(String value, boolean pool) {
		return (pool && value.length() <= StringDeduplication.MAX_LENGTH) ? StringPool.pooled(value) : value;
	}

	private OffsetDateTime readTime(CodedInputStream in, boolean micro) throws IOException {
		long seconds = 0;
		int nanos = 0;
		int tag;
		while ((tag = in.readTag()) != 0) {
			switch (WireFormat.getTagFieldNumber(tag)) {
				case 1 -> seconds = in.readInt64();
				case 2 -> nanos = in.readInt32();
				default -> in.skipField(tag);
			}
		}
		if (seconds == 0 && nanos == 0) {
			// the zero time, which JSON writes as null
			return null;
		}
		if (!micro || nanos == 0) {
			// JSON writes a Time without its fraction of a second
			return this.times.computeIfAbsent(seconds, (s) -> {
				if (this.times.size() >= SHARED_CAPACITY) {
					this.times.clear();
				}
				return OffsetDateTime.ofInstant(Instant.ofEpochSecond(s), ZoneOffset.UTC);
			});
		}
		// JSON writes a MicroTime to the microsecond
		return OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos - nanos % 1000), ZoneOffset.UTC);
	}

	private Quantity readQuantity(CodedInputStream in) throws IOException {
		String text = "";
		int tag;
		while ((tag = in.readTag()) != 0) {
			if (WireFormat.getTagFieldNumber(tag) == 1) {
				text = in.readString();
			}
			else {
				in.skipField(tag);
			}
		}
		Quantity quantity = this.quantities.get(text);
		if (quantity == null) {
			quantity = Quantity.fromString(text);
			if (this.quantities.size() >= SHARED_CAPACITY) {
				this.quantities.clear();
			}
			this.quantities.put(text, quantity);
		}
		return quantity;
	}

	private IntOrString readIntOrString(CodedInputStream in) throws IOException {
		long kind = 0;
		int intValue = 0;
		String stringValue = "";
		int tag;
		while ((tag = in.readTag()) != 0) {
			switch (WireFormat.getTagFieldNumber(tag)) {
				case 1 -> kind = in.readInt64();
				case 2 -> intValue = in.readInt32();
				case 3 -> stringValue = in.readString();
				default -> in.skipField(tag);
			}
		}
		return (kind == 1) ? new IntOrString(pooled(stringValue, this.deduplicate)) : new IntOrString(intValue);
	}

	private Object readRawJson(CodedInputStream in) throws IOException {
		byte[] raw = null;
		int tag;
		while ((tag = in.readTag()) != 0) {
			if (WireFormat.getTagFieldNumber(tag) == 1) {
				raw = in.readByteArray();
			}
			else {
				in.skipField(tag);
			}
		}
		if (raw == null || raw.length == 0) {
			return null;
		}
		return plainGson.fromJson(new String(raw, StandardCharsets.UTF_8), Object.class);
	}

	private String readDuration(CodedInputStream in) throws IOException {
		long nanos = 0;
		int tag;
		while ((tag = in.readTag()) != 0) {
			if (WireFormat.getTagFieldNumber(tag) == 1) {
				nanos = in.readInt64();
			}
			else {
				in.skipField(tag);
			}
		}
		return GoDuration.format(nanos);
	}

	/**
	 * Takes an object decoded from a list, with its key.
	 *
	 * @param <T> the Java type of the objects
	 */
	@FunctionalInterface
	interface ObjectConsumer<T> {

		void accept(T object, String key);

	}

	/**
	 * A decoded watch event: an object that was added, changed or deleted, or another
	 * event (a bookmark, an error) as the tree that the usual path handles.
	 *
	 * @param <T> the Java type of the objects
	 * @param type the event's type
	 * @param object the object, before user transforms, or {@code null}
	 * @param key the object's key
	 * @param resourceVersion the object's resourceVersion
	 * @param tree another event's tree, or {@code null}
	 */
	record Event<T>(String type, T object, String key, String resourceVersion, JsonObject tree) {

	}

	/**
	 * The fields of a Go type bound to the fields of a model.
	 */
	private final class Binding {

		private final String goType;

		private final Class<?> javaType;

		// found once per binding, not once per decoded object
		private final Constructor<?> constructor;

		private final FieldBinding[] fields;

		private final String[] typeMeta;

		private final Field[] nullWhenAbsent;

		private final Field apiVersion;

		private final Field kind;

		Binding(MessageType message, Class<?> javaType, String skipped) {
			this.goType = message.name();
			this.javaType = javaType;
			try {
				this.constructor = javaType.getDeclaredConstructor();
				// without it every object pays a caller lookup and an access check
				this.constructor.setAccessible(true);
			}
			catch (NoSuchMethodException ex) {
				throw new IllegalStateException("Cannot create " + javaType, ex);
			}
			Map<String, Field> javaFields = javaFields(javaType);
			this.typeMeta = message.typeMeta();
			Field apiVersion = (this.typeMeta != null) ? javaFields.get("apiVersion") : null;
			Field kind = (this.typeMeta != null) ? javaFields.get("kind") : null;
			boolean both = apiVersion != null && kind != null;
			if (both) {
				apiVersion.setAccessible(true);
				kind.setAccessible(true);
			}
			this.apiVersion = both ? apiVersion : null;
			this.kind = both ? kind : null;
			int max = 0;
			for (int number : message.fields().keySet()) {
				max = Math.max(max, number);
			}
			this.fields = newFieldBindings(max + 1);
			List<Field> nullWhenAbsent = new ArrayList<>();
			boolean objectMeta = OBJECT_META.equals(message.name());
			for (FieldInfo info : message.fields().values()) {
				if (info.inline()) {
					this.fields[info.number()] = new FieldBinding(info, javaType, null, false);
					continue;
				}
				if (info.jsonName().equals(skipped) || (objectMeta && ProtobufDecoder.this.skipManagedFields
						&& "managedFields".equals(info.jsonName()))) {
					continue;
				}
				Field field = javaFields.get(info.jsonName());
				if (field == null) {
					// the model does not have it: skipped, as the JSON path skips unknown
					// fields
					continue;
				}
				boolean pool = ProtobufDecoder.this.deduplicate
						&& !(objectMeta && UNIQUE_METADATA_FIELDS.contains(info.jsonName()));
				this.fields[info.number()] = new FieldBinding(info, javaType, field, pool);
				if ((info.repeated() || info.map()) && !info.omitempty()) {
					nullWhenAbsent.add(field);
				}
			}
			this.nullWhenAbsent = nullWhenAbsent.toArray(new Field[0]);
		}

		@SuppressWarnings("unchecked")
		private FieldBinding[] newFieldBindings(int length) {
			// an inner class of a generic class has no array of its own type
			return (FieldBinding[]) new ProtobufDecoder<?>.FieldBinding[length];
		}

		FieldBinding field(int number) {
			return (number < this.fields.length) ? this.fields[number] : null;
		}

		/**
		 * Clears the slices and maps without {@code omitempty}: protobuf leaves a nil one
		 * out, where JSON writes {@code null} and the model holds it (rather than the
		 * empty list it starts with); an empty one that is not nil is rare, since the API
		 * server decodes what it stores from protobuf.
		 */
		void clearDefaults(Object target) {
			for (Field field : this.nullWhenAbsent) {
				try {
					field.set(target, null);
				}
				catch (IllegalAccessException ex) {
					throw new IllegalStateException(ex);
				}
			}
		}

		Object newInstance() {
			try {
				return this.constructor.newInstance();
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot create " + this.javaType, ex);
			}
		}

		private static Map<String, Field> javaFields(Class<?> type) {
			Map<String, Field> fields = new HashMap<>();
			for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
				for (Field field : c.getDeclaredFields()) {
					if (java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
						continue;
					}
					SerializedName name = field.getAnnotation(SerializedName.class);
					fields.putIfAbsent((name != null) ? name.value() : field.getName(), field);
				}
			}
			return fields;
		}

	}

	/**
	 * A protobuf field bound to a model's field.
	 */
	private final class FieldBinding {

		private final FieldInfo info;

		/**
		 * The model a nested message of the field is inlined into.
		 */
		private final Class<?> owner;

		private final Field field;

		private final Class<?> javaType;

		/**
		 * The Java type of a list's elements or of a map's values.
		 */
		private final Class<?> element;

		/**
		 * The Java type of the elements of a list that is a map's value or a list's
		 * element.
		 */
		private final Class<?> elementElement;

		private final boolean pool;

		/**
		 * The binding of the message last read for this field, found once.
		 */
		private Binding nested;

		FieldBinding(FieldInfo info, Class<?> owner, Field field, boolean pool) {
			this.info = info;
			this.owner = owner;
			this.field = field;
			this.pool = pool;
			if (field == null) {
				this.javaType = null;
				this.element = null;
				this.elementElement = null;
				return;
			}
			field.setAccessible(true);
			this.javaType = field.getType();
			Type generic = field.getGenericType();
			Type element = null;
			if (generic instanceof ParameterizedType parameterized) {
				Type[] arguments = parameterized.getActualTypeArguments();
				element = arguments[arguments.length - 1];
			}
			else if (info.repeated() || info.map() || info.type().kind() == Kind.LIST) {
				element = Object.class;
			}
			this.element = raw(element);
			Type elementElement = null;
			if (element instanceof ParameterizedType parameterized) {
				Type[] arguments = parameterized.getActualTypeArguments();
				elementElement = arguments[arguments.length - 1];
			}
			this.elementElement = raw(elementElement);
		}

		private static Class<?> raw(Type type) {
			if (type instanceof Class<?> c) {
				return c;
			}
			if (type instanceof ParameterizedType parameterized) {
				return (Class<?>) parameterized.getRawType();
			}
			return (type != null) ? Object.class : null;
		}

	}

	/**
	 * Formats a duration as Go's {@code time.Duration.String()}, as JSON has it.
	 */
	static final class GoDuration {

		private GoDuration() {
		}

		static String format(long nanos) {
			if (nanos == 0) {
				return "0s";
			}
			StringBuilder builder = new StringBuilder();
			if (nanos < 0) {
				builder.append('-');
				nanos = -nanos;
			}
			if (nanos < 1_000_000_000L) {
				if (nanos < 1_000L) {
					return builder.append(nanos).append("ns").toString();
				}
				if (nanos < 1_000_000L) {
					return builder.append(fraction(nanos, 1_000L)).append("µs").toString();
				}
				return builder.append(fraction(nanos, 1_000_000L)).append("ms").toString();
			}
			long hours = nanos / 3_600_000_000_000L;
			long minutes = (nanos / 60_000_000_000L) % 60;
			long rest = nanos % 60_000_000_000L;
			if (hours > 0) {
				builder.append(hours).append('h');
			}
			if (hours > 0 || minutes > 0) {
				builder.append(minutes).append('m');
			}
			return builder.append(fraction(rest, 1_000_000_000L)).append('s').toString();
		}

		private static String fraction(long value, long unit) {
			String text = BigDecimal.valueOf(value)
				.divide(BigDecimal.valueOf(unit))
				.stripTrailingZeros()
				.toPlainString();
			return text;
		}

	}

}
