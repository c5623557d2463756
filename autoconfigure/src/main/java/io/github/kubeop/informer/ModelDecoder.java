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
import java.io.StringReader;
import java.lang.reflect.Method;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.ExclusionStrategy;
import com.google.gson.FieldAttributes;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSyntaxException;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Decodes the objects of one informer straight from the JSON stream of a list or a watch
 * into the client's models, in one pass.
 * <p>
 * The client's own Gson reads every generated model through a type adapter that first
 * reads the model's JSON into a tree, walks the tree to validate it, and then decodes the
 * tree; since nested models do the same, a Pod's containers are read and validated once
 * per level they are nested in, after Kubeop has already parsed the whole object into a
 * tree to apply its ready-made transforms. This decoder reads the same fields with Gson's
 * reflective adapters, which is what the client's adapters delegate to once validation
 * passed, and with the client's adapters for dates and bytes and its exclusion of
 * {@code managedFields} (unless the client is configured to keep them); unknown fields
 * are skipped, as before. The API server sends only objects that its own validation
 * accepted, and an object whose JSON does not fit its model still fails to decode and is
 * skipped with its key.
 * <p>
 * The ready-made transforms take effect while reading: the object's own metadata is read
 * straight into its model without its {@code managedFields}, and the last-applied
 * annotation is dropped and its strings pooled on the model as they were on a tree (a
 * client that keeps {@code managedFields}, when they are not stripped, has the metadata
 * read as a tree and given to the transforms); {@code status} is skipped unread with
 * {@link StandardTransform#STRIP_STATUS}; with
 * {@link StandardTransform#DEDUPLICATE_STRINGS} the strings of the rest of the object are
 * pooled as they are read. Timestamps are parsed once per distinct text and shared.
 * Dynamic objects and metadata-only informers are decoded from trees, as before.
 * <p>
 * Not thread-safe: each list/watch loop has its own, confined to its thread.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
final class ModelDecoder<T extends KubernetesObject> {

	private final Set<StandardTransform> standardTransforms;

	private final boolean deduplicate;

	private final boolean skipManagedFields;

	private final TypeAdapter<T> adapter;

	private final TypeAdapter<V1ObjectMeta> metadataAdapter;

	/**
	 * Reads the object's own metadata straight into the model when its
	 * {@code managedFields} are skipped, or {@code null} when it is read as a tree.
	 */
	private final TypeAdapter<V1ObjectMeta> streamedMetadataAdapter;

	private final boolean stripLastApplied;

	private final TypeAdapter<JsonElement> treeAdapter;

	private final Method setApiVersion;

	private final Method setKind;

	private final String apiVersion;

	private final String kind;

	/**
	 * Where the metadata of the object being decoded is, as {@link JsonReader#getPath()}.
	 */
	private String metadataPath;

	private String key;

	private String resourceVersion;

	private ModelDecoder(Class<T> type, Set<StandardTransform> standardTransforms, Gson clientGson,
			ResourceKind resource) throws NoSuchMethodException {
		this.standardTransforms = standardTransforms;
		this.deduplicate = standardTransforms.contains(StandardTransform.DEDUPLICATE_STRINGS);
		boolean clientKeepsManagedFields = keepsManagedFields(clientGson);
		this.skipManagedFields = standardTransforms.contains(StandardTransform.STRIP_MANAGED_FIELDS)
				|| !clientKeepsManagedFields;
		SharedValues<OffsetDateTime> timestamps = new SharedValues<>(clientGson.getAdapter(OffsetDateTime.class));
		SharedValues<Quantity> quantities = new SharedValues<>(clientGson.getAdapter(Quantity.class));
		Gson plain = builder(clientGson, clientKeepsManagedFields, timestamps, quantities).create();
		this.metadataAdapter = plain.getAdapter(V1ObjectMeta.class);
		this.streamedMetadataAdapter = this.skipManagedFields ? builder(clientGson, true, timestamps, quantities)
			.addDeserializationExclusionStrategy(new ManagedFieldsExclusion())
			.create()
			.getAdapter(V1ObjectMeta.class) : null;
		this.stripLastApplied = standardTransforms.contains(StandardTransform.STRIP_LAST_APPLIED_CONFIGURATION);
		this.treeAdapter = plain.getAdapter(JsonElement.class);
		GsonBuilder builder = builder(clientGson, clientKeepsManagedFields, timestamps, quantities)
			.registerTypeAdapterFactory(new MetadataAdapterFactory());
		if (this.deduplicate) {
			builder.registerTypeAdapter(String.class, new PooledStringAdapter().nullSafe());
		}
		if (standardTransforms.contains(StandardTransform.STRIP_STATUS)) {
			builder.addDeserializationExclusionStrategy(new TopLevelFieldExclusion(type, "status"));
		}
		this.adapter = builder.create().getAdapter(type);
		this.setApiVersion = type.getMethod("setApiVersion", String.class);
		this.setKind = type.getMethod("setKind", String.class);
		this.apiVersion = resource.apiVersion();
		this.kind = resource.kind();
	}

	/**
	 * Returns a decoder for an informer's objects, or {@code null} if they are decoded
	 * from trees: dynamic objects, metadata-only informers, and types that cannot be
	 * given their apiVersion and kind.
	 * @param <T> the Java type of the objects
	 * @param spec the informer's spec
	 * @param resource the informer's resource
	 * @param clientGson the client's Gson
	 * @return the decoder, or {@code null}
	 */
	static <T extends KubernetesObject> ModelDecoder<T> of(InformerSpec<T> spec, ResourceKind resource,
			Gson clientGson) {
		if (spec.metadataOnly() || !isModel(spec.type()) || !decodesAsTheClient(clientGson, spec.type())) {
			return null;
		}
		try {
			return new ModelDecoder<>(spec.type(), spec.standardTransforms(), clientGson, resource);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

	/**
	 * Returns whether the client's Gson decodes the type with the model's own adapter or
	 * Gson's reflective one, as this decoder does: an adapter the application registered
	 * for it is followed by decoding from trees with the client's Gson.
	 */
	static boolean decodesAsTheClient(Gson clientGson, Class<?> type) {
		// the adapter is wrapped to be null-safe, and only its description names it
		String adapter = clientGson.getAdapter(type).toString();
		return adapter.contains(type.getName() + "$CustomTypeAdapterFactory")
				|| adapter.contains("com.google.gson.internal.bind.ReflectiveTypeAdapterFactory");
	}

	private static boolean isModel(Class<?> type) {
		return !DynamicKubernetesObject.class.isAssignableFrom(type)
				&& !PartialObjectMetadata.class.isAssignableFrom(type);
	}

	/**
	 * Returns a builder with what the client's Gson decodes other than through the
	 * models' validating adapters: its adapters for dates and bytes (the models' own
	 * {@code IntOrString} adapter is an annotation on it), timestamps and quantities
	 * shared, and its exclusion of {@code managedFields}. The shared quantities wrap the
	 * client's adapter, the {@code @JsonAdapter} annotation on {@link Quantity}, and take
	 * its place: Gson asks adapters registered on the builder before annotations.
	 */
	private static GsonBuilder builder(Gson clientGson, boolean clientKeepsManagedFields,
			TypeAdapter<OffsetDateTime> timestamps, TypeAdapter<Quantity> quantities) {
		GsonBuilder builder = new GsonBuilder().registerTypeAdapter(OffsetDateTime.class, timestamps)
			.registerTypeAdapter(Quantity.class, quantities);
		for (Class<?> type : List.of(LocalDate.class, Date.class, java.sql.Date.class, byte[].class)) {
			builder.registerTypeAdapter(type, clientGson.getAdapter(type));
		}
		if (!clientKeepsManagedFields) {
			builder.addDeserializationExclusionStrategy(new ManagedFieldsExclusion());
		}
		return builder;
	}

	/**
	 * Returns whether the client's Gson decodes {@code managedFields}: client-java drops
	 * them unless the system property {@code kubernetes.client.includeManagedFields} is
	 * set; asked of the Gson itself, so that a Gson the application configured is
	 * followed too.
	 */
	static boolean keepsManagedFields(Gson clientGson) {
		V1ObjectMeta metadata = clientGson.fromJson("{\"managedFields\":[{\"manager\":\"probe\"}]}",
				V1ObjectMeta.class);
		// a dropped field keeps the model's default, an empty list
		return metadata.getManagedFields() != null && !metadata.getManagedFields().isEmpty();
	}

	/**
	 * Decodes an item of a list, whose apiVersion and kind the API server leaves out.
	 * @param reader the list's reader, before the item
	 * @return the object, before user transforms
	 * @throws IOException if the stream cannot be read
	 * @throws RuntimeException if the object's JSON does not fit its Java type: then
	 * {@link #skipRest(JsonReader, String, RuntimeException)} skips past it
	 */
	T readListItem(JsonReader reader) throws IOException {
		T object = read(reader);
		try {
			this.setApiVersion.invoke(object, this.apiVersion);
			this.setKind.invoke(object, this.kind);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot set the apiVersion and kind of " + object.getClass(), ex);
		}
		return object;
	}

	/**
	 * Decodes the object of a watch event that adds, changes or deletes an object.
	 * @param line the event's JSON
	 * @return the event, or {@code null} for another event, or one whose type does not
	 * come before its object, which are read as trees
	 * @throws IOException if the line is not JSON
	 * @throws RuntimeException if the object's JSON does not fit its Java type
	 */
	DecodedEvent<T> readEvent(String line) throws IOException {
		JsonReader reader = new JsonReader(new StringReader(line));
		reader.beginObject();
		if (!reader.hasNext() || !"type".equals(reader.nextName()) || reader.peek() != JsonToken.STRING) {
			return null;
		}
		String type = reader.nextString();
		if (!type.equals("ADDED") && !type.equals("MODIFIED") && !type.equals("DELETED")) {
			return null;
		}
		if (!reader.hasNext() || !"object".equals(reader.nextName())) {
			return null;
		}
		T object = read(reader);
		return new DecodedEvent<>(type, object, this.key, this.resourceVersion);
	}

	private T read(JsonReader reader) throws IOException {
		String path = reader.getPath();
		this.metadataPath = path + ".metadata";
		this.key = null;
		this.resourceVersion = null;
		T object = this.adapter.read(reader);
		if (object == null) {
			throw new JsonSyntaxException("Expected an object at " + path + " but was null");
		}
		if (this.key == null) {
			throw new JsonSyntaxException("The object at " + path + " has no metadata");
		}
		return object;
	}

	/**
	 * Returns the key of the object last decoded.
	 * @return the key, namespace/name
	 */
	String key() {
		return this.key;
	}

	/**
	 * Skips the rest of a list item that failed to decode, so that the list goes on with
	 * the next, and returns its key.
	 * @param reader the list's reader, somewhere inside the item
	 * @param itemPath where the item is, as {@link JsonReader#getPath()} said before it
	 * was read
	 * @param failure why it failed
	 * @return the item's key
	 * @throws IOException if the stream cannot be read
	 * @throws RuntimeException the failure, if the item has no readable metadata to tell
	 * its key
	 */
	String skipRest(JsonReader reader, String itemPath, RuntimeException failure) throws IOException {
		String key = this.key;
		while (true) {
			String path = reader.getPath();
			boolean inItem = path.equals(itemPath) || (path.startsWith(itemPath) && path.length() > itemPath.length()
					&& (path.charAt(itemPath.length()) == '.' || path.charAt(itemPath.length()) == '['));
			if (!inItem) {
				break;
			}
			JsonToken token = reader.peek();
			if (token == JsonToken.END_OBJECT) {
				reader.endObject();
			}
			else if (token == JsonToken.END_ARRAY) {
				reader.endArray();
			}
			else if (token == JsonToken.NAME) {
				String suffix = path.substring(itemPath.length());
				boolean topLevel = suffix.lastIndexOf('.') == 0 && suffix.indexOf('[') < 0;
				String name = reader.nextName();
				if (topLevel && "metadata".equals(name) && key == null && reader.peek() == JsonToken.BEGIN_OBJECT) {
					key = ListWatch.key(readMetadata(reader));
				}
			}
			else if (token == JsonToken.END_DOCUMENT) {
				break;
			}
			else {
				reader.skipValue();
			}
		}
		if (key == null) {
			throw failure;
		}
		return key;
	}

	/**
	 * Reads an object's metadata as a tree, without its {@code managedFields} when they
	 * are dropped anyway.
	 */
	private JsonObject readMetadata(JsonReader reader) throws IOException {
		JsonObject metadata = new JsonObject();
		reader.beginObject();
		while (reader.hasNext()) {
			String name = reader.nextName();
			if (this.skipManagedFields && "managedFields".equals(name)) {
				reader.skipValue();
			}
			else {
				metadata.add(name, this.treeAdapter.read(reader));
			}
		}
		reader.endObject();
		return metadata;
	}

	/**
	 * An object of a watch event, decoded.
	 *
	 * @param <T> the Java type of the object
	 * @param type the event's type
	 * @param object the object, before user transforms
	 * @param key the object's key
	 * @param resourceVersion the object's resourceVersion, or {@code null}
	 */
	record DecodedEvent<T>(String type, T object, String key, String resourceVersion) {

	}

	/**
	 * Reads an object's metadata the way the ready-made transforms want it: the metadata
	 * of the object itself as a tree that the transforms change as before and that tells
	 * its key; nested metadata (such as a pod template's) as is, pooled with
	 * {@link StandardTransform#DEDUPLICATE_STRINGS} as before.
	 */
	private final class MetadataAdapterFactory implements TypeAdapterFactory {

		@Override
		@SuppressWarnings("unchecked")
		public <A> TypeAdapter<A> create(Gson gson, TypeToken<A> type) {
			if (type.getRawType() != V1ObjectMeta.class) {
				return null;
			}
			return (TypeAdapter<A>) new TypeAdapter<V1ObjectMeta>() {

				@Override
				public void write(JsonWriter out, V1ObjectMeta value) throws IOException {
					ModelDecoder.this.metadataAdapter.write(out, value);
				}

				@Override
				public V1ObjectMeta read(JsonReader in) throws IOException {
					return readMetadata(in);
				}

			};
		}

		private V1ObjectMeta readMetadata(JsonReader in) throws IOException {
			boolean topLevel = in.getPath().equals(ModelDecoder.this.metadataPath);
			if (in.peek() != JsonToken.BEGIN_OBJECT || (!topLevel && !ModelDecoder.this.deduplicate)) {
				return ModelDecoder.this.metadataAdapter.read(in);
			}
			if (topLevel && ModelDecoder.this.streamedMetadataAdapter != null) {
				return readStreamed(in);
			}
			JsonObject object = new JsonObject();
			if (topLevel) {
				JsonObject metadata = ModelDecoder.this.readMetadata(in);
				ModelDecoder.this.key = ListWatch.key(metadata);
				JsonElement resourceVersion = metadata.get("resourceVersion");
				ModelDecoder.this.resourceVersion = (resourceVersion != null && resourceVersion.isJsonPrimitive())
						? resourceVersion.getAsString() : null;
				object.add("metadata", metadata);
				for (StandardTransform transform : ModelDecoder.this.standardTransforms) {
					transform.apply(object);
				}
			}
			else {
				object.add("metadata", ModelDecoder.this.treeAdapter.read(in));
				StandardTransform.DEDUPLICATE_STRINGS.apply(object);
			}
			return ModelDecoder.this.metadataAdapter.fromJsonTree(object.get("metadata"));
		}

		/**
		 * Reads the object's own metadata without a tree, when its {@code managedFields}
		 * are skipped: the ready-made transforms then change only its annotations and its
		 * strings, which are changed on the model as they are on the tree.
		 */
		private V1ObjectMeta readStreamed(JsonReader in) throws IOException {
			V1ObjectMeta metadata = ModelDecoder.this.streamedMetadataAdapter.read(in);
			String name = (metadata.getName() != null) ? metadata.getName() : "";
			ModelDecoder.this.key = (metadata.getNamespace() != null) ? metadata.getNamespace() + "/" + name : name;
			ModelDecoder.this.resourceVersion = metadata.getResourceVersion();
			if (ModelDecoder.this.stripLastApplied && metadata.getAnnotations() != null) {
				metadata.getAnnotations().remove(StandardTransform.LAST_APPLIED_CONFIGURATION);
			}
			if (ModelDecoder.this.deduplicate) {
				StringDeduplication.deduplicate(metadata);
			}
			return metadata;
		}

	}

	/**
	 * Pools short strings as {@link StringDeduplication} does in a tree.
	 */
	private static final class PooledStringAdapter extends TypeAdapter<String> {

		@Override
		public void write(JsonWriter out, String value) throws IOException {
			out.value(value);
		}

		@Override
		public String read(JsonReader in) throws IOException {
			JsonToken token = in.peek();
			if (token == JsonToken.BOOLEAN) {
				return Boolean.toString(in.nextBoolean());
			}
			String value = in.nextString();
			// a number read as a string is not pooled, as in a tree
			return (token == JsonToken.STRING && value.length() <= StringDeduplication.MAX_LENGTH)
					? StringPool.pooled(value) : value;
		}

	}

	/**
	 * Parses immutable values, timestamps and quantities, with the client's adapter once
	 * per distinct text. An informer's objects repeat them (an object's creation time in
	 * every event about it, the Pods a controller creates in the same second, the
	 * transition times of their conditions, the same resource requests and limits in
	 * every Pod of a workload), and an {@link OffsetDateTime} or a {@link Quantity} is
	 * immutable, so the cached objects share one instance for each, as they share pooled
	 * strings. Parsing timestamps was a seventh of a watch's decoding time without it,
	 * and {@link Quantity#fromString} compiles a regular expression on every call. The
	 * texts last seen are kept, a few thousand at most.
	 *
	 * @param <V> the type of the values
	 */
	private static final class SharedValues<V> extends TypeAdapter<V> {

		private static final int CAPACITY = 4096;

		private final TypeAdapter<V> client;

		private final Map<String, V> recent = new HashMap<>();

		SharedValues(TypeAdapter<V> client) {
			this.client = client;
		}

		@Override
		public void write(JsonWriter out, V value) throws IOException {
			this.client.write(out, value);
		}

		@Override
		public V read(JsonReader in) throws IOException {
			if (in.peek() == JsonToken.NULL) {
				in.nextNull();
				return null;
			}
			String text = in.nextString();
			V parsed = this.recent.get(text);
			if (parsed == null) {
				// the client's adapters read a number (a quantity may be one) as its text
				parsed = this.client.fromJsonTree(new JsonPrimitive(text));
				if (this.recent.size() == CAPACITY) {
					this.recent.clear();
				}
				this.recent.put(text, parsed);
			}
			return parsed;
		}

	}

	/**
	 * Skips {@code managedFields}, as the client's Gson does by default.
	 */
	private static final class ManagedFieldsExclusion implements ExclusionStrategy {

		@Override
		public boolean shouldSkipField(FieldAttributes field) {
			return field.getDeclaringClass() == V1ObjectMeta.class && "managedFields".equals(field.getName());
		}

		@Override
		public boolean shouldSkipClass(Class<?> type) {
			return false;
		}

	}

	/**
	 * Skips a field of the decoded type itself (or a class it extends), not of the
	 * objects nested in it.
	 */
	private record TopLevelFieldExclusion(Class<?> type, String name) implements ExclusionStrategy {

		@Override
		public boolean shouldSkipField(FieldAttributes field) {
			return this.name.equals(field.getName()) && field.getDeclaringClass() != Object.class
					&& field.getDeclaringClass().isAssignableFrom(this.type);
		}

		@Override
		public boolean shouldSkipClass(Class<?> type) {
			return false;
		}

	}

}
