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

package io.github.kubeop.write;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.github.kubeop.handler.HandlerCall;
import io.github.kubeop.handler.InformerView;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceDiscovery;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Writes objects to the API server the way controllers are expected to, for generated
 * models ({@code V1Deployment}), typed custom resources ({@link ResourceType}) and
 * {@link DynamicKubernetesObject}s. Thread-safe: one instance serves every handler.
 * <ul>
 * <li>{@link #apply} server-side applies the desired state under the template's field
 * manager: the server merges it with what other managers own, and repairs drift in the
 * fields this manager owns. Only the desired fields are sent: {@code null}s are never
 * serialised, and the fields the server owns ({@code resourceVersion},
 * {@code managedFields}, {@code uid}, {@code status}, ...) are dropped, since an apply
 * that carried a read object's {@code resourceVersion} would turn into an optimistic lock
 * and one that carried its {@code status} would claim fields it does not mean to own. An
 * object read back from the server or a cache is reduced to the fields this manager owns
 * and those nobody owns: applied whole, it would claim every field other managers
 * own.</li>
 * <li>{@link #applyStatus} applies a status through the status subresource, keeps
 * {@code observedGeneration}, and sends nothing when the status is unchanged.</li>
 * <li>{@link #update} replaces an object under optimistic concurrency, as
 * controller-runtime's {@code client.Update}.</li>
 * </ul>
 * Inside a handler call:
 * <ul>
 * <li>in an add, update or reconcile call (never a delete or a cleanup call, see
 * {@link HandlerCall#owner()}), an applied object gets the handled object as its
 * controller owner (as controller-runtime's {@code SetControllerReference}), unless the
 * desired object names a controller or is the handled object itself; deleting the owner
 * then lets the garbage collector delete it. The live object is checked first: if another
 * object controls it, the apply fails with an {@link AlreadyOwnedException}. An apply
 * that adds the reference is conditional on the state checked (its
 * {@code resourceVersion}, or that no object existed): a reference another handler wrote
 * meanwhile makes it a routine {@code 409 Conflict}, and the call made again is
 * refused;</li>
 * <li>a written object that no informer of its resource caches, although the resource has
 * informers, is logged as a warning, once per set of informers;</li>
 * <li>every write is remembered with the resourceVersion the server answered, and the
 * next call for the same key waits until the informers caching the written objects show
 * that state or a newer one: a handler never reads an older state of what it wrote (see
 * {@link HandlerCall});</li>
 * <li>an optimistic-concurrency {@code 409 Conflict} from a write (a stale
 * {@code resourceVersion}) ends the call and calls it again, rate-limited, without
 * counting it as a failure; any other rejection, an apply's conflict with another field
 * manager and {@code AlreadyExists} included, is a handler failure carrying the server's
 * message, retried with back-off.</li>
 * </ul>
 *
 * @author Kubeop authors
 */
public class KubernetesTemplate {

	private static final Log logger = LogFactory.getLog(KubernetesTemplate.class);

	private static final MediaType APPLY_PATCH = MediaType.get("application/apply-patch+yaml");

	private static final MediaType JSON = MediaType.get("application/json");

	private static final String GENERATED_MODELS = "io.kubernetes.client.openapi.models";

	private static final String[] AUTH_NAMES = { "BearerToken" };

	private static final Pattern GENERATED_MODEL = Pattern.compile("V(\\d+(?:alpha\\d+|beta\\d+)?)([A-Z].*)");

	private static final List<String> SERVER_OWNED_METADATA = List.of("resourceVersion", "managedFields",
			"creationTimestamp", "generation", "uid", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");

	/**
	 * The largest resourceVersion the API server parses: an etcd revision no object
	 * reaches. As an apply's precondition it means "the object does not exist": an apply
	 * that creates the object ignores it, one that meets an object fails with
	 * {@code 409 Conflict}.
	 */
	private static final String NO_OBJECT_HAS_THIS_RESOURCE_VERSION = "18446744073709551615";

	private static final String SHARD_LABEL_PREFIX = "shard.kubeop.io/";

	private final ApiClient client;

	private final Gson gson;

	/**
	 * Serialises the generated models, which start with empty lists and maps, without
	 * them; a class of the user's is serialised as it is, empty lists included.
	 */
	private final Gson modelGson;

	private final InformerRegistry informers;

	private final ResourceDiscovery discovery;

	private final String fieldManager;

	private final boolean forceConflicts;

	private final Map<String, ResourceKind> kinds = new ConcurrentHashMap<>();

	/**
	 * The informers already named in a warning about a written object none of them
	 * caches, with the resource.
	 */
	private final Set<String> warnedOutsideView = ConcurrentHashMap.newKeySet();

	/**
	 * Creates a new template.
	 * @param client the client to write with
	 * @param informers the informers whose caches must show a handler's writes before its
	 * next call; their discovery maps kinds to resources
	 * @param fieldManager the field manager of every apply
	 * @param forceConflicts whether applies take over fields other managers own
	 */
	public KubernetesTemplate(ApiClient client, InformerRegistry informers, String fieldManager,
			boolean forceConflicts) {
		this.client = client;
		this.gson = client.getJSON().getGson();
		this.modelGson = this.gson.newBuilder().registerTypeAdapterFactory(new EmptyContainersAsAbsent()).create();
		this.informers = informers;
		this.discovery = informers.discovery();
		this.fieldManager = fieldManager;
		this.forceConflicts = forceConflicts;
	}

	/**
	 * Returns the field manager of this template's applies.
	 * @return the field manager
	 */
	public String getFieldManager() {
		return this.fieldManager;
	}

	/**
	 * Server-side applies the desired state of an object (never its status) and returns
	 * the object as the server stored it. Inside an add, update or reconcile call the
	 * handled object becomes the controller owner of the applied one, unless the desired
	 * object names a controller or is the handled object itself.
	 * @param <T> the object type
	 * @param desired the fields the caller wants to own; needs a name, and a namespace if
	 * the kind is namespaced
	 * @return the object the server answered with
	 * @throws ApiException if the server rejects the apply; its message carries the
	 * server's message
	 * @throws IllegalArgumentException if the handled object cannot own the applied one
	 * (an object of another namespace, or a cluster-scoped object for a namespaced owner)
	 * @throws AlreadyOwnedException if the handled object would own the applied one but
	 * another object controls it
	 */
	public <T> T apply(T desired) throws ApiException {
		JsonObject body = toJson(desired);
		body.remove("status");
		ResourceKind kind = kindOf(desired, body);
		JsonObject metadata = metadataOf(body, kind);
		// for pruning: before anything decides whether a request is sent
		AppliedObjects.record(kind, metadata);
		keepOnlyOwnFieldsOfReadObject(kind, body, metadata, desired);
		SERVER_OWNED_METADATA.forEach(metadata::remove);
		addControllerReference(kind, metadata);
		String answer = send(kind, metadata, "", "PATCH", applyQuery(),
				RequestBody.create(body.toString(), APPLY_PATCH));
		return written(kind, decode(answer, desired));
	}

	/**
	 * Server-side applies a status to the status subresource of an object, unless the
	 * object already has that status, in which case no request is made. When the status
	 * type has an {@code observedGeneration} property it is set to the object's
	 * {@code metadata.generation}.
	 * <p>
	 * "Already has": every field the new status sets has that value in the current one,
	 * where {@code null}, zero, {@code false} and empty values count as unset (the API
	 * server omits them in its own types); fields that only the current status has, such
	 * as those of other managers, are not compared. A field the operator stops setting is
	 * therefore removed by the next status write that changes something.
	 * <p>
	 * Apply rather than a merge patch: a status field or condition the operator no longer
	 * sets is removed, while status fields other managers own are kept.
	 * @param <T> the object type
	 * @param current the object as last read, whose status is compared with the new one
	 * @param status the new status
	 * @return the object the server answered with, or {@code current} if nothing changed
	 * @throws ApiException if the server rejects the write; its message carries the
	 * server's message
	 */
	public <T> T applyStatus(T current, Object status) throws ApiException {
		JsonObject currentJson = toJson(current);
		ResourceKind kind = kindOf(current, currentJson);
		JsonObject currentMetadata = metadataOf(currentJson, kind);
		JsonObject newStatus = (status.getClass().getPackageName().equals(GENERATED_MODELS) ? this.modelGson
				: this.gson)
			.toJsonTree(status)
			.getAsJsonObject();
		if (currentMetadata.has("generation") && hasProperty(status.getClass(), "observedGeneration")) {
			newStatus.add("observedGeneration", currentMetadata.get("generation"));
		}
		if (contains(currentJson.get("status"), newStatus)) {
			logRequest("PATCH", kind, currentMetadata, "/status", "none (unchanged, not sent)");
			return current;
		}
		JsonObject metadata = new JsonObject();
		metadata.add("name", currentMetadata.get("name"));
		if (currentMetadata.has("namespace")) {
			metadata.add("namespace", currentMetadata.get("namespace"));
		}
		JsonObject body = new JsonObject();
		body.addProperty("apiVersion", kind.apiVersion());
		body.addProperty("kind", kind.kind());
		body.add("metadata", metadata);
		body.add("status", newStatus);
		String answer = send(kind, metadata, "/status", "PATCH", applyQuery(),
				RequestBody.create(body.toString(), APPLY_PATCH));
		return written(kind, decode(answer, current));
	}

	/**
	 * Replaces an object, its status excepted, under optimistic concurrency: the write
	 * fails with {@code 409 Conflict} if the object changed since the
	 * {@code resourceVersion} it carries. For what apply cannot express, such as removing
	 * an entry another manager added.
	 * @param <T> the object type
	 * @param object the object, with the {@code resourceVersion} it was read at
	 * @return the object the server answered with
	 * @throws ApiException if the server rejects the write, {@code 409} among others
	 */
	public <T> T update(T object) throws ApiException {
		JsonObject body = toJson(object);
		ResourceKind kind = kindOf(object, body);
		JsonObject metadata = metadataOf(body, kind);
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		String answer = send(kind, metadata, "", "PUT", query, RequestBody.create(body.toString(), JSON));
		return written(kind, decode(answer, object));
	}

	private List<Pair> applyQuery() {
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		query.add(new Pair("force", Boolean.toString(this.forceConflicts)));
		return query;
	}

	/**
	 * Makes the object handled by the current call the controller owner of an applied
	 * object, as controller-runtime's {@code SetControllerReference}, after checking the
	 * live object (not the desired one): an object that another object controls is never
	 * taken from it.
	 */
	private void addControllerReference(ResourceKind kind, JsonObject metadata) throws ApiException {
		HandlerCall call = HandlerCall.current();
		KubernetesObject handled = (call != null) ? call.object() : null;
		if (handled == null || handled.getMetadata().getUid() == null) {
			return;
		}
		ResourceKind ownerKind = call.resource();
		String namespace = string(metadata, "namespace");
		boolean self = ownerKind.group().equals(kind.group()) && ownerKind.plural().equals(kind.plural())
				&& handled.getMetadata().getName().equals(string(metadata, "name"));
		JsonArray references = metadata.has("ownerReferences") ? metadata.getAsJsonArray("ownerReferences")
				: new JsonArray();
		boolean controlled = references.asList()
			.stream()
			.anyMatch((reference) -> reference.isJsonObject() && reference.getAsJsonObject().has("controller")
					&& reference.getAsJsonObject().get("controller").getAsBoolean());
		if (self || controlled) {
			return;
		}
		KubernetesObject owner = call.owner();
		if (owner == null) {
			keepControllerReference(kind, metadata, handled, references);
			return;
		}
		if (ownerKind.namespaced() && (!kind.namespaced() || !owner.getMetadata().getNamespace().equals(namespace))) {
			throw new IllegalArgumentException(
					ownerKind.kind() + " " + "'" + ResourceInformer.key(owner) + "'" + " cannot own " + kind.kind()
							+ " '" + name(metadata) + "': a namespaced owner only owns objects of its own namespace");
		}
		LiveState live = liveState(kind, metadata);
		if (live.controller() != null && !owner.getMetadata().getUid().equals(live.controller().getUid())) {
			throw new AlreadyOwnedException(kind.kind(), name(metadata), live.controller(),
					ownerKind.kind() + " '" + ResourceInformer.key(owner) + "'");
		}
		if (live.controller() == null) {
			// The reference is new: the write must land on the state that was checked, or
			// another owner's reference written meanwhile under this same field manager
			// would be replaced without a word. A resourceVersion in an apply is a
			// precondition (a 409 Conflict if the object changed); one that no object can
			// have fails the apply if the object appeared since, and is ignored when the
			// apply creates it.
			metadata.addProperty("resourceVersion",
					(live.resourceVersion() != null) ? live.resourceVersion() : NO_OBJECT_HAS_THIS_RESOURCE_VERSION);
		}
		JsonObject reference = new JsonObject();
		reference.addProperty("apiVersion", ownerKind.apiVersion());
		reference.addProperty("kind", ownerKind.kind());
		reference.addProperty("name", owner.getMetadata().getName());
		reference.addProperty("uid", owner.getMetadata().getUid());
		reference.add("controller", new JsonPrimitive(true));
		reference.add("blockOwnerDeletion", new JsonPrimitive(true));
		references.add(reference);
		metadata.add("ownerReferences", references);
	}

	/**
	 * In a delete or cleanup call, which adds no owner reference: keeps the handled
	 * object's reference on an object it controls already. Left out of the apply, the
	 * reference would be released by this field manager and removed, and an object the
	 * handled object owned would outlive it.
	 */
	private void keepControllerReference(ResourceKind kind, JsonObject metadata, KubernetesObject handled,
			JsonArray references) throws ApiException {
		V1OwnerReference liveController = liveState(kind, metadata).controller();
		if (liveController != null && handled.getMetadata().getUid().equals(liveController.getUid())) {
			references.add(this.gson.toJsonTree(liveController));
			metadata.add("ownerReferences", references);
		}
	}

	/**
	 * The controller reference and resourceVersion of the live object: from the cache of
	 * an informer that holds it, else from the API server. A cache shows this handler's
	 * own earlier writes (the next call waits for them, see {@link HandlerCall}); a cache
	 * miss is not trusted, since the live object may lack the labels an informer selects
	 * on.
	 */
	private LiveState liveState(ResourceKind kind, JsonObject metadata) throws ApiException {
		String namespace = string(metadata, "namespace");
		String key = (namespace != null) ? namespace + "/" + string(metadata, "name") : string(metadata, "name");
		Map<String, String> labels = labelsOf(metadata);
		for (ResourceInformer<?> informer : this.informers.informers()) {
			if (InformerView.of(informer, kind, namespace, labels) == InformerView.CACHED) {
				KubernetesObject cached = informer.indexer().getByKey(key);
				if (cached != null) {
					return new LiveState(controllerOf(cached.getMetadata().getOwnerReferences()),
							cached.getMetadata().getResourceVersion());
				}
			}
		}
		JsonObject live = read(kind, metadata);
		if (live == null || !live.has("metadata")) {
			return LiveState.ABSENT;
		}
		JsonObject liveMetadata = live.getAsJsonObject("metadata");
		JsonElement references = liveMetadata.get("ownerReferences");
		List<V1OwnerReference> parsed = new ArrayList<>();
		if (references != null && references.isJsonArray()) {
			references.getAsJsonArray()
				.forEach((reference) -> parsed.add(this.gson.fromJson(reference, V1OwnerReference.class)));
		}
		return new LiveState(controllerOf(parsed), string(liveMetadata, "resourceVersion"));
	}

	private static V1OwnerReference controllerOf(List<V1OwnerReference> references) {
		if (references == null) {
			return null;
		}
		return references.stream()
			.filter((reference) -> Boolean.TRUE.equals(reference.getController()))
			.findFirst()
			.orElse(null);
	}

	/**
	 * Reduces an object that was read back from the API server (it carries a {@code uid}
	 * or a {@code resourceVersion}) to the fields an apply of this field manager should
	 * carry: a read object holds every field of the live one, and an apply with
	 * {@code force} would take each of them from the manager that owns it (another
	 * controller's labels and finalizers, an autoscaler's {@code replicas}). A field that
	 * another manager owns and this one does not is left out; the fields this manager
	 * owns, and those nobody owns (the caller's changes, defaults), stay. Ownership comes
	 * from the object's {@code managedFields}, or, when they were stripped (an informer's
	 * cache), from the live object's.
	 */
	private void keepOnlyOwnFieldsOfReadObject(ResourceKind kind, JsonObject body, JsonObject metadata, Object object)
			throws ApiException {
		if (!metadata.has("uid") && !metadata.has("resourceVersion")) {
			return;
		}
		// not from the body: a generated model's body leaves out empty maps, and in a
		// field set an empty map is a field
		JsonElement managedFields = (object instanceof KubernetesObject read
				&& !(object instanceof DynamicKubernetesObject) && read.getMetadata() != null
				&& read.getMetadata().getManagedFields() != null)
						? this.gson.toJsonTree(read.getMetadata().getManagedFields()) : metadata.get("managedFields");
		if (managedFields == null || !managedFields.isJsonArray() || managedFields.getAsJsonArray().isEmpty()) {
			JsonObject live = read(kind, metadata);
			managedFields = (live != null && live.has("metadata"))
					? live.getAsJsonObject("metadata").get("managedFields") : null;
		}
		if (managedFields == null || !managedFields.isJsonArray()) {
			return;
		}
		JsonObject ours = new JsonObject();
		JsonObject others = new JsonObject();
		for (JsonElement entry : managedFields.getAsJsonArray()) {
			JsonObject fields = entry.getAsJsonObject();
			String subresource = string(fields, "subresource");
			if (!(fields.get("fieldsV1") instanceof JsonObject fieldsV1)
					|| (subresource != null && !subresource.isEmpty())) {
				continue;
			}
			FieldSets.merge(this.fieldManager.equals(string(fields, "manager")) ? ours : others, fieldsV1);
		}
		FieldSets.removeOwnedByOthers(body, others, ours);
	}

	/**
	 * The object as the API server has it now.
	 * @return the object, or {@code null} if it does not exist
	 */
	private JsonObject read(ResourceKind kind, JsonObject metadata) throws ApiException {
		try {
			return JsonParser.parseString(send(kind, metadata, "", "GET", new ArrayList<>(), null)).getAsJsonObject();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private static Map<String, String> labelsOf(JsonObject metadata) {
		JsonElement labels = metadata.get("labels");
		if (labels == null || !labels.isJsonObject()) {
			return Map.of();
		}
		return labels.getAsJsonObject()
			.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().isJsonPrimitive())
			.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> entry.getValue().getAsString()));
	}

	private <T> T written(ResourceKind kind, T answer) {
		if (answer instanceof KubernetesObject object && object.getMetadata() != null) {
			warnIfNoInformerCaches(kind, object);
			HandlerCall call = HandlerCall.current();
			if (call != null) {
				call.wrote(this.informers, kind, object);
			}
		}
		return answer;
	}

	/**
	 * Warns, once per resource and set of informers, when an object was written whose
	 * resource has informers but none of them caches the object: their {@code Lister}s
	 * return {@code null} for it, and read-after-write cannot wait for it. The usual
	 * cause is a label that an informer's selector asks for and the written object lacks.
	 */
	private void warnIfNoInformerCaches(ResourceKind kind, KubernetesObject written) {
		List<ResourceInformer<?>> ofResource = new ArrayList<>();
		for (ResourceInformer<?> informer : this.informers.informers()) {
			if (InformerView.sameResource(informer, kind)) {
				InformerView view = InformerView.of(informer, kind, written.getMetadata().getNamespace(),
						written.getMetadata().getLabels());
				if (view != InformerView.NOT_CACHED || isShardedByLabel(informer)) {
					return;
				}
				ofResource.add(informer);
			}
		}
		if (ofResource.isEmpty()) {
			return;
		}
		String described = ofResource.stream()
			.map((informer) -> "informer '" + informer.spec().name() + "' (" + informer.spec().scope() + ")")
			.collect(Collectors.joining(", "));
		if (this.warnedOutsideView.add(kind.group() + "/" + kind.plural() + "|" + described)) {
			logger.warn(kind.kind() + " '" + ResourceInformer.key(written) + "' was written, but no informer of "
					+ kind.plural() + " caches it: " + described + ". Its Lister returns null for it and a handler's "
					+ "next call does not wait for the write; give the object the labels and namespace an informer "
					+ "selects, or widen an informer's scope. Logged once for these informers.");
		}
	}

	/**
	 * Whether an informer caches only the objects of a shard, selected by the label that
	 * sharding writes on new objects itself (see
	 * {@code io.github.kubeop.shard.ShardLabels}): a written object enters its view once
	 * labelled.
	 */
	private static boolean isShardedByLabel(ResourceInformer<?> informer) {
		String selector = informer.spec().labelSelector();
		return selector != null && selector.contains(SHARD_LABEL_PREFIX);
	}

	private JsonObject toJson(Object object) {
		if (object instanceof DynamicKubernetesObject dynamic) {
			return dynamic.getRaw().deepCopy();
		}
		Gson serializer = object.getClass().getPackageName().equals(GENERATED_MODELS) ? this.modelGson : this.gson;
		return serializer.toJsonTree(object).getAsJsonObject();
	}

	private ResourceKind kindOf(Object object, JsonObject json) {
		ResourceKind kind = this.kinds.computeIfAbsent(cacheKey(object, json), (key) -> resolve(object, json));
		json.addProperty("apiVersion", kind.apiVersion());
		json.addProperty("kind", kind.kind());
		return kind;
	}

	private String cacheKey(Object object, JsonObject json) {
		if (object instanceof DynamicKubernetesObject) {
			return string(json, "apiVersion") + "|" + string(json, "kind");
		}
		return object.getClass().getName();
	}

	private ResourceKind resolve(Object object, JsonObject json) {
		Class<?> type = object.getClass();
		if (ResourceType.isCustomResource(type)) {
			ResourceType resourceType = ResourceType.of(type);
			return this.discovery.resolve(resourceType.apiVersion(), resourceType.plural());
		}
		String apiVersion = string(json, "apiVersion");
		String kind = string(json, "kind");
		if (apiVersion != null && kind != null && object instanceof DynamicKubernetesObject) {
			return this.discovery.resolve(apiVersion, kind);
		}
		Matcher model = GENERATED_MODEL.matcher(type.getSimpleName());
		if (!model.matches()) {
			throw new IllegalArgumentException("Cannot tell the kind of " + type.getName()
					+ ": use a generated model, a @KubernetesResource class or a DynamicKubernetesObject");
		}
		String version = "v" + model.group(1);
		return this.discovery.resolve(this.discovery.apiVersionOf(version, model.group(2)), model.group(2));
	}

	private static JsonObject metadataOf(JsonObject json, ResourceKind kind) {
		JsonObject metadata = json.getAsJsonObject("metadata");
		if (metadata == null || string(metadata, "name") == null) {
			throw new IllegalArgumentException("A " + kind.kind() + " to write needs metadata.name");
		}
		if (kind.namespaced() && string(metadata, "namespace") == null) {
			throw new IllegalArgumentException("A " + kind.kind() + " is namespaced: set metadata.namespace of '"
					+ string(metadata, "name") + "'");
		}
		return metadata;
	}

	private String send(ResourceKind kind, JsonObject metadata, String subresource, String method, List<Pair> query,
			RequestBody body) throws ApiException {
		String path = kind.collectionPath(string(metadata, "namespace")) + "/" + string(metadata, "name") + subresource;
		// The generated client cannot serialise an apply patch body, so the call is
		// built for its URL and authentication and then given the body.
		Request request = this.client
			.buildCall(this.client.getBasePath(), path, "GET", query, new ArrayList<>(), null, new HashMap<>(),
					new HashMap<>(), new HashMap<>(), AUTH_NAMES, null)
			.request()
			.newBuilder()
			.method(method, body)
			.build();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			logRequest(method, kind, metadata, subresource, Integer.toString(response.code()));
			String answer = (response.body() != null) ? response.body().string() : "";
			if (!response.isSuccessful()) {
				String verb = switch (method) {
					case "PUT" -> "Update";
					case "GET" -> "Read";
					default -> "Apply";
				};
				throw new ApiException(
						verb + " of " + kind.kind() + " '" + name(metadata) + "'" + subresource + " failed ("
								+ response.code() + "): " + serverMessage(answer),
						response.code(), response.headers().toMultimap(), answer);
			}
			return answer;
		}
		catch (IOException ex) {
			logRequest(method, kind, metadata, subresource, "none (" + ex + ")");
			throw new ApiException(ex);
		}
	}

	/**
	 * Logs a request at DEBUG: its verb, resource, object and the answer's status code,
	 * with the handler call it was made in; never the object's contents (a Secret's data
	 * included).
	 */
	private static void logRequest(String method, ResourceKind kind, JsonObject metadata, String subresource,
			String code) {
		if (logger.isDebugEnabled()) {
			String verb = switch (method) {
				case "PUT" -> "update";
				case "GET" -> "get";
				default -> "apply";
			};
			HandlerCall call = HandlerCall.current();
			logger.debug(("GET".equals(method) ? "Read" : "Write") + ": verb=" + verb + " resource=" + kind.plural()
					+ (kind.group().isEmpty() ? "" : "." + kind.group()) + subresource + " object=" + name(metadata)
					+ " code=" + code + ((call != null) ? " handler=" + call.handler() + " key=" + call.key() : ""));
		}
	}

	@SuppressWarnings("unchecked")
	private <T> T decode(String answer, T like) {
		JsonObject json = JsonParser.parseString(answer).getAsJsonObject();
		if (like instanceof DynamicKubernetesObject) {
			return (T) new DynamicKubernetesObject(json);
		}
		return (T) this.gson.fromJson(json, like.getClass());
	}

	/**
	 * Whether every field set in {@code wanted} has the same value in {@code actual},
	 * unset values ({@code null}, zero, {@code false}, empty) matching absent ones. Lists
	 * are compared whole, except lists of entries with a {@code type} (conditions), whose
	 * wanted entries are compared with the current entries of their type.
	 */
	static boolean contains(JsonElement actual, JsonElement wanted) {
		if (isUnset(wanted)) {
			return isUnset(actual);
		}
		if (wanted.isJsonObject()) {
			if (actual == null || !actual.isJsonObject()) {
				return false;
			}
			JsonObject actualObject = actual.getAsJsonObject();
			return wanted.getAsJsonObject()
				.entrySet()
				.stream()
				.allMatch((entry) -> contains(actualObject.get(entry.getKey()), entry.getValue()));
		}
		if (wanted.isJsonArray()) {
			if (actual != null && actual.isJsonArray() && isKeyedByType(wanted.getAsJsonArray())) {
				// a list keyed by type, such as conditions: other managers' entries are
				// theirs, so only the wanted entries are compared
				return wanted.getAsJsonArray().asList().stream().allMatch((item) -> {
					JsonElement type = item.getAsJsonObject().get("type");
					return actual.getAsJsonArray()
						.asList()
						.stream()
						.filter((candidate) -> candidate.isJsonObject()
								&& type.equals(candidate.getAsJsonObject().get("type")))
						.anyMatch((candidate) -> contains(candidate, item) && contains(item, candidate));
				});
			}
			if (actual == null || !actual.isJsonArray()
					|| actual.getAsJsonArray().size() != wanted.getAsJsonArray().size()) {
				return false;
			}
			for (int i = 0; i < wanted.getAsJsonArray().size(); i++) {
				JsonElement wantedItem = wanted.getAsJsonArray().get(i);
				JsonElement actualItem = actual.getAsJsonArray().get(i);
				if (!contains(actualItem, wantedItem) || !contains(wantedItem, actualItem)) {
					return false;
				}
			}
			return true;
		}
		return wanted.equals(actual) || (actual != null && actual.isJsonPrimitive()
				&& wanted.getAsJsonPrimitive().isNumber() && actual.getAsJsonPrimitive().isNumber()
				&& actual.getAsBigDecimal().compareTo(wanted.getAsBigDecimal()) == 0);
	}

	private static boolean isKeyedByType(JsonArray list) {
		return list.asList()
			.stream()
			.allMatch((item) -> item.isJsonObject() && item.getAsJsonObject().get("type") instanceof JsonPrimitive);
	}

	private static boolean isUnset(JsonElement element) {
		if (element == null || element.isJsonNull()) {
			return true;
		}
		if (element.isJsonPrimitive()) {
			JsonPrimitive primitive = element.getAsJsonPrimitive();
			return (primitive.isBoolean() && !primitive.getAsBoolean())
					|| (primitive.isNumber() && primitive.getAsBigDecimal().signum() == 0)
					|| (primitive.isString() && primitive.getAsString().isEmpty());
		}
		if (element.isJsonArray()) {
			return element.getAsJsonArray().isEmpty();
		}
		return element.getAsJsonObject().entrySet().stream().allMatch((entry) -> isUnset(entry.getValue()));
	}

	private static String serverMessage(String answer) {
		try {
			JsonElement message = JsonParser.parseString(answer).getAsJsonObject().get("message");
			if (message != null && message.isJsonPrimitive()) {
				return message.getAsString();
			}
		}
		catch (JsonParseException | IllegalStateException ex) {
			// not a Status: fall through to the shortened body
		}
		return (answer.length() > 500) ? answer.substring(0, 500) + "..." : answer;
	}

	private static boolean hasProperty(Class<?> type, String name) {
		for (Class<?> candidate = type; candidate != null
				&& candidate != Object.class; candidate = candidate.getSuperclass()) {
			for (Field field : candidate.getDeclaredFields()) {
				if (field.getName().equals(name)) {
					return true;
				}
			}
		}
		return false;
	}

	private static String name(JsonObject metadata) {
		String namespace = string(metadata, "namespace");
		return (namespace != null) ? namespace + "/" + string(metadata, "name") : string(metadata, "name");
	}

	private static String string(JsonObject json, String member) {
		JsonElement element = json.get(member);
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : null;
	}

	/**
	 * What the ownership check saw of the live object.
	 *
	 * @param controller its controller reference, {@code null} if none
	 * @param resourceVersion the resourceVersion it was seen at, {@code null} if the
	 * object did not exist
	 */
	private record LiveState(V1OwnerReference controller, String resourceVersion) {

		static final LiveState ABSENT = new LiveState(null, null);

	}

	/**
	 * Writes empty lists and maps as absent: the generated models initialise every list
	 * and map, and an apply must carry only what the caller set.
	 */
	private static final class EmptyContainersAsAbsent implements TypeAdapterFactory {

		@Override
		public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
			Class<? super T> raw = type.getRawType();
			if (!Collection.class.isAssignableFrom(raw) && !Map.class.isAssignableFrom(raw)) {
				return null;
			}
			TypeAdapter<T> delegate = gson.getDelegateAdapter(this, type);
			return new TypeAdapter<>() {

				@Override
				public void write(JsonWriter out, T value) throws IOException {
					boolean empty = (value instanceof Collection<?> collection) ? collection.isEmpty()
							: (value instanceof Map<?, ?> map) && map.isEmpty();
					if (empty) {
						out.nullValue();
					}
					else {
						delegate.write(out, value);
					}
				}

				@Override
				public T read(JsonReader in) throws IOException {
					return delegate.read(in);
				}

			};
		}

	}

}
