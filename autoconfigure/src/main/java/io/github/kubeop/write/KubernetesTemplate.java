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
import io.github.kubeop.handler.TraceContextAnnotation;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceDiscovery;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Scale;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.StringUtils;

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
 * <li>{@link #apply(Object, ApplyOptions)} with {@link ApplyOptions#notOwned()} applies
 * an object the handled object must not own (another namespace, cluster-scoped,
 * shared).</li>
 * <li>{@link #get}, {@link #read} and {@link #list} read from an informer's cache when
 * one holds what is asked for and has caught up with this template's writes, else from
 * the API server ({@link ReadResult#source()} says which); {@link #create},
 * {@link #patch} ({@link Patch}: merge, JSON, strategic merge, apply; status too),
 * {@link #updateStatus}, {@link #delete} ({@link DeleteOptions}: uid and resourceVersion
 * preconditions, propagation) and {@link #scale} complete the writes.</li>
 * <li>An apply whose state the live object already has, for this field manager, is not
 * sent (see {@link #apply(Object, ApplyOptions)}).</li>
 * </ul>
 * Every request is counted through a {@link WriteListener} ({@code kubeop.writes},
 * {@code kubeop.reads} with Micrometer), and a refused one throws an {@link ApiException}
 * whose message carries the server's reason and message. Inside a handler call:
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

	private static final MediaType MERGE_PATCH = MediaType.get("application/merge-patch+json");

	private static final int LIST_PAGE_SIZE = 500;

	/**
	 * How API servers word a failed uid precondition: "UID in precondition: ..." (the
	 * registry's) and "the UID in the precondition (...) does not match" (the storage's).
	 */
	private static final Pattern UID_PRECONDITION_FAILED = Pattern.compile("UID in (the )?precondition",
			Pattern.CASE_INSENSITIVE);

	private static final WriteListener NO_LISTENER = new WriteListener() {

		@Override
		public void requested(ResourceKind resource, String verb, int code) {
		}

		@Override
		public void unchanged(ResourceKind resource, String verb) {
		}

	};

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
	 * What this template last wrote of each object: for reads, whether a cache has caught
	 * up with it; for applies, whether the desired state is the one last applied.
	 */
	private final WrittenObjects writtenObjects = new WrittenObjects();

	private volatile WriteListener listener = NO_LISTENER;

	private volatile WriteTracing tracing = WriteTracing.NONE;

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
		return apply(desired, ApplyOptions.owned());
	}

	/**
	 * Server-side applies the desired state of an object (never its status) as
	 * {@link #apply(Object)} does, with options: {@link ApplyOptions#notOwned()} for an
	 * object that the handled object must not own (a shared object in another namespace,
	 * a cluster-scoped one).
	 * <p>
	 * Nothing is sent when the live object already has the desired state for this field
	 * manager: the desired state is the one this template last applied to that object,
	 * and the live object (from an informer's cache when one holds it, else read from the
	 * API server) has every value it states, as the server normalises values (see
	 * {@code LiveComparison}). The live object is returned then.
	 * @param <T> the object type
	 * @param desired the fields the caller wants to own; needs a name, and a namespace if
	 * the kind is namespaced
	 * @param options whether the handled object owns the applied one, and conflicts
	 * @return the object the server answered with, or the live object if nothing was sent
	 * @throws ApiException if the server rejects the apply; its message carries the
	 * server's reason and message
	 * @throws IllegalArgumentException if the handled object cannot own the applied one
	 * @throws AlreadyOwnedException if the handled object would own the applied one but
	 * another object controls it
	 */
	public <T> T apply(T desired, ApplyOptions options) throws ApiException {
		JsonObject body = toJson(desired);
		body.remove("status");
		ResourceKind kind = kindOf(desired, body);
		JsonObject metadata = metadataOf(body, kind);
		// for pruning: before anything decides whether a request is sent
		AppliedObjects.record(kind, metadata);
		keepOnlyOwnFieldsOfReadObject(kind, body, metadata, desired);
		SERVER_OWNED_METADATA.forEach(metadata::remove);
		// never part of the desired state: a trace context copied from a read object
		// would make every apply differ from the last; the write's own is added as it
		// is sent
		withoutTraceContext(metadata);
		if (options.isOwned()) {
			addControllerReference(kind, metadata);
		}
		T unchanged = unchangedLiveObject(kind, metadata, body, desired);
		if (unchanged != null) {
			return written(kind, unchanged, appliedState(body), false, false);
		}
		String answer = request(kind, "apply", "PATCH", string(metadata, "namespace"), string(metadata, "name"), "",
				applyQuery(options), body, APPLY_PATCH);
		return written(kind, decode(answer, desired), appliedState(body));
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
	 * <p>
	 * A traced status write is a span of the handler call like any write, but carries no
	 * trace context on the object: the API server drops metadata written through the
	 * status of a custom resource, so the object keeps the trace context of its last
	 * object write.
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
			this.listener.unchanged(kind, "apply-status");
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
		String answer = send(kind, metadata, "/status", "PATCH", applyQuery(ApplyOptions.owned()),
				RequestBody.create(body.toString(), APPLY_PATCH));
		return statusWritten(kind, decode(answer, current));
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
		String answer = request(kind, "update", "PUT", string(metadata, "namespace"), string(metadata, "name"), "",
				query, body, JSON);
		return written(kind, decode(answer, object));
	}

	/**
	 * Replaces the status of an object through its status subresource, under optimistic
	 * concurrency, as controller-runtime's {@code client.Status().Update}.
	 * @param <T> the object type
	 * @param object the object with its new status, with the {@code resourceVersion} it
	 * was read at
	 * @return the object the server answered with
	 * @throws ApiException if the server rejects the write, {@code 409} among others
	 */
	public <T> T updateStatus(T object) throws ApiException {
		JsonObject body = toJson(object);
		ResourceKind kind = kindOf(object, body);
		JsonObject metadata = metadataOf(body, kind);
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		String answer = send(kind, metadata, "/status", "PUT", query, RequestBody.create(body.toString(), JSON));
		return statusWritten(kind, decode(answer, object));
	}

	/**
	 * Creates an object, as it is: no owner reference is added (see {@link #apply} for
	 * objects the handled object owns), and an object of that name that exists already
	 * makes it fail with {@code 409 AlreadyExists}.
	 * @param <T> the object type
	 * @param object the object; needs a name (or {@code generateName}), and a namespace
	 * if the kind is namespaced
	 * @return the object the server answered with
	 * @throws ApiException if the server rejects the create
	 */
	public <T> T create(T object) throws ApiException {
		JsonObject body = toJson(object);
		ResourceKind kind = kindOf(object, body);
		JsonObject metadata = body.getAsJsonObject("metadata");
		String namespace = (metadata != null) ? string(metadata, "namespace") : null;
		if (kind.namespaced() && namespace == null) {
			throw new IllegalArgumentException("A " + kind.kind() + " is namespaced: set metadata.namespace");
		}
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		String answer = request(kind, "create", "POST", namespace, null, "", query, body, JSON);
		return written(kind, decode(answer, object));
	}

	/**
	 * Patches an object, named by the object given (its kind, namespace and name; the
	 * rest of it is not sent).
	 * @param <T> the object type
	 * @param object the object to patch
	 * @param patch the patch, for the object or its {@code status}
	 * @return the object the server answered with
	 * @throws ApiException if the server rejects the patch, such as a JSON patch whose
	 * {@code test} fails ({@code 422})
	 */
	public <T> T patch(T object, Patch patch) throws ApiException {
		JsonObject json = toJson(object);
		ResourceKind kind = kindOf(object, json);
		JsonObject metadata = metadataOf(json, kind);
		String answer = patch(kind, string(metadata, "namespace"), string(metadata, "name"), patch);
		return written(kind, decode(answer, object), null, "status".equals(patch.getSubresource()));
	}

	/**
	 * Patches an object of a generated model or a {@code @KubernetesResource} class.
	 * @param <T> the object type
	 * @param type the class of the object
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @param patch the patch
	 * @return the object the server answered with
	 * @throws ApiException if the server rejects the patch
	 */
	public <T> T patch(Class<T> type, String namespace, String name, Patch patch) throws ApiException {
		ResourceKind kind = kindOf(type);
		String answer = patch(kind, scoped(kind, namespace), name, patch);
		return written(kind, decode(JsonParser.parseString(answer).getAsJsonObject(), type, kind), null,
				"status".equals(patch.getSubresource()));
	}

	private String patch(ResourceKind kind, String namespace, String name, Patch patch) throws ApiException {
		if ("scale".equals(patch.getSubresource())) {
			throw new IllegalArgumentException("A scale subresource answers with a Scale: use scale(...)");
		}
		Object body = patch.getBody();
		String text = (body instanceof String string) ? string
				: (body.getClass().getPackageName().equals(GENERATED_MODELS) ? this.modelGson : this.gson).toJson(body);
		List<Pair> query = (patch.getType() == Patch.Type.APPLY) ? applyQuery(ApplyOptions.notOwned())
				: new ArrayList<>(List.of(new Pair("fieldManager", this.fieldManager)));
		String subresource = (patch.getSubresource() != null) ? "/" + patch.getSubresource() : "";
		MediaType type = MediaType.get(patch.getType().contentType());
		JsonObject carrying = (this.tracing != WriteTracing.NONE) ? traceContextCarrier(patch, text) : null;
		if (carrying != null) {
			return request(kind, "patch", "PATCH", namespace, name, subresource, query, carrying, type);
		}
		return request(kind, "patch", "PATCH", namespace, name, subresource, query, RequestBody.create(text, type));
	}

	/**
	 * Deletes an object, named by the object given, with the resource's default
	 * propagation and no precondition.
	 * @param object the object to delete
	 * @return whether it existed
	 * @throws ApiException if the server rejects the delete
	 */
	public boolean delete(Object object) throws ApiException {
		return delete(object, DeleteOptions.defaults());
	}

	/**
	 * Deletes an object, named by the object given, with preconditions and a propagation
	 * policy.
	 * @param object the object to delete
	 * @param options preconditions and propagation, such as
	 * {@link DeleteOptions#ifUnchanged}
	 * @return whether it existed
	 * @throws ObjectReplacedException if the uid precondition failed: the object of that
	 * name is another one now
	 * @throws ApiException if the server rejects the delete, {@code 409} when the
	 * resourceVersion precondition fails
	 */
	public boolean delete(Object object, DeleteOptions options) throws ApiException {
		JsonObject json = toJson(object);
		ResourceKind kind = kindOf(object, json);
		JsonObject metadata = metadataOf(json, kind);
		return delete(kind, string(metadata, "namespace"), string(metadata, "name"), options);
	}

	/**
	 * Deletes an object of a generated model or a {@code @KubernetesResource} class.
	 * @param type the class of the object
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @param options preconditions and propagation
	 * @return whether it existed
	 * @throws ObjectReplacedException if the uid precondition failed
	 * @throws ApiException if the server rejects the delete
	 */
	public boolean delete(Class<?> type, String namespace, String name, DeleteOptions options) throws ApiException {
		ResourceKind kind = kindOf(type);
		return delete(kind, scoped(kind, namespace), name, options);
	}

	private boolean delete(ResourceKind kind, String namespace, String name, DeleteOptions options)
			throws ApiException {
		JsonObject body = new JsonObject();
		body.addProperty("apiVersion", "v1");
		body.addProperty("kind", "DeleteOptions");
		if (options.getUid() != null || options.getResourceVersion() != null) {
			JsonObject preconditions = new JsonObject();
			if (options.getUid() != null) {
				preconditions.addProperty("uid", options.getUid());
			}
			if (options.getResourceVersion() != null) {
				preconditions.addProperty("resourceVersion", options.getResourceVersion());
			}
			body.add("preconditions", preconditions);
		}
		if (options.getPropagation() != null) {
			body.addProperty("propagationPolicy", options.getPropagation().value());
		}
		String key = (namespace != null) ? namespace + "/" + name : name;
		String answer;
		try {
			answer = request(kind, "delete", "DELETE", namespace, name, "", new ArrayList<>(),
					RequestBody.create(body.toString(), JSON));
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
		JsonObject deleted = JsonParser.parseString(answer).getAsJsonObject();
		JsonObject deletedMetadata = ("Status".equals(string(deleted, "kind")) || !deleted.has("metadata")) ? null
				: deleted.getAsJsonObject("metadata");
		this.writtenObjects.deleted(kind, key, (deletedMetadata != null) ? string(deletedMetadata, "uid") : null,
				(deletedMetadata != null) ? string(deletedMetadata, "resourceVersion") : null);
		HandlerCall call = HandlerCall.current();
		if (call != null && deletedMetadata != null) {
			// an object with finalizers stays, being deleted: the next call waits for it
			call.wrote(this.informers, kind, new DynamicKubernetesObject(deleted));
		}
		return true;
	}

	/**
	 * Reads the scale subresource of an object (a Deployment, a StatefulSet, a custom
	 * resource with a scale subresource).
	 * @param object the object, named by its kind, namespace and name
	 * @return the scale
	 * @throws ApiException if the server rejects the read
	 */
	public V1Scale getScale(Object object) throws ApiException {
		JsonObject json = toJson(object);
		ResourceKind kind = kindOf(object, json);
		JsonObject metadata = metadataOf(json, kind);
		String answer = request(kind, "get", "GET", string(metadata, "namespace"), string(metadata, "name"), "/scale",
				new ArrayList<>(), null);
		return this.gson.fromJson(answer, V1Scale.class);
	}

	/**
	 * Sets the replicas of an object through its scale subresource, as
	 * {@code kubectl scale} does: for an object whose replicas an operator sets without
	 * owning the rest of its spec.
	 * @param object the object, named by its kind, namespace and name
	 * @param replicas the replicas
	 * @return the scale the server answered with
	 * @throws ApiException if the server rejects the write
	 */
	public V1Scale scale(Object object, int replicas) throws ApiException {
		JsonObject json = toJson(object);
		ResourceKind kind = kindOf(object, json);
		JsonObject metadata = metadataOf(json, kind);
		JsonObject spec = new JsonObject();
		spec.addProperty("replicas", replicas);
		JsonObject body = new JsonObject();
		body.add("spec", spec);
		List<Pair> query = new ArrayList<>(List.of(new Pair("fieldManager", this.fieldManager)));
		String answer = request(kind, "patch", "PATCH", string(metadata, "namespace"), string(metadata, "name"),
				"/scale", query, RequestBody.create(body.toString(), MERGE_PATCH));
		return written(kind, this.gson.fromJson(answer, V1Scale.class));
	}

	/**
	 * Reads an object of a generated model or a {@code @KubernetesResource} class: from
	 * an informer's cache when one holds it and has caught up with this template's writes
	 * of it, else from the API server.
	 * @param <T> the object type
	 * @param type the class of the object
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @return the object, a copy the caller may change, or {@code null} if it does not
	 * exist
	 * @throws ApiException if the server rejects the read
	 * @see #read(Class, String, String)
	 */
	public <T> T get(Class<T> type, String namespace, String name) throws ApiException {
		return read(type, namespace, name).object();
	}

	/**
	 * Reads a dynamic object as {@link #get(Class, String, String)} does.
	 * @param apiVersion the API version, such as {@code example.com/v1}
	 * @param kind the kind
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @return the object, or {@code null} if it does not exist
	 * @throws ApiException if the server rejects the read
	 */
	public DynamicKubernetesObject get(String apiVersion, String kind, String namespace, String name)
			throws ApiException {
		return read(apiVersion, kind, namespace, name).object();
	}

	/**
	 * Reads an object as {@link #get(Class, String, String)} does, and says where from.
	 * @param <T> the object type
	 * @param type the class of the object
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @return the object, or none, and where it was read
	 * @throws ApiException if the server rejects the read
	 */
	public <T> ReadResult<T> read(Class<T> type, String namespace, String name) throws ApiException {
		return read(kindOf(type), type, namespace, name);
	}

	/**
	 * Reads a dynamic object as {@link #read(Class, String, String)} does.
	 * @param apiVersion the API version
	 * @param kind the kind
	 * @param namespace the namespace, {@code null} for a cluster-scoped kind
	 * @param name the name
	 * @return the object, or none, and where it was read
	 * @throws ApiException if the server rejects the read
	 */
	public ReadResult<DynamicKubernetesObject> read(String apiVersion, String kind, String namespace, String name)
			throws ApiException {
		return read(kindOf(apiVersion, kind), DynamicKubernetesObject.class, namespace, name);
	}

	private <T> ReadResult<T> read(ResourceKind kind, Class<T> type, String namespace, String name)
			throws ApiException {
		String scoped = scoped(kind, namespace);
		if (kind.namespaced() && scoped == null) {
			throw new IllegalArgumentException(
					"A " + kind.kind() + " is namespaced: give the namespace of '" + name + "'");
		}
		String key = (scoped != null) ? scoped + "/" + name : name;
		CacheLookup cached = fromCache(kind, scoped, key);
		if (cached.answered()) {
			return new ReadResult<>((cached.object() != null) ? decode(toLiveJson(cached.object()), type, kind) : null,
					ReadResult.Source.CACHE);
		}
		try {
			String answer = request(kind, "get", "GET", scoped, name, "", new ArrayList<>(), null);
			return new ReadResult<>(decode(JsonParser.parseString(answer).getAsJsonObject(), type, kind),
					ReadResult.Source.API_SERVER);
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return new ReadResult<>(null, ReadResult.Source.API_SERVER);
			}
			throw ex;
		}
	}

	/**
	 * Lists objects of a generated model or a {@code @KubernetesResource} class: from an
	 * informer's cache when one holds every object of the resource in that scope (no
	 * selector of its own) and has caught up with this template's writes, and the label
	 * selector is equality-based; else from the API server, page by page.
	 * @param <T> the object type
	 * @param type the class of the objects
	 * @param namespace the namespace, {@code null} for all namespaces
	 * @param labelSelector a label selector, such as {@code app=web,tier!=cache}, or
	 * {@code null}
	 * @return the objects, copies the caller may change
	 * @throws ApiException if the server rejects the list
	 */
	public <T> List<T> list(Class<T> type, String namespace, String labelSelector) throws ApiException {
		return list(type, namespace, labelSelector, null);
	}

	/**
	 * Lists objects as {@link #list(Class, String, String)} does, with a field selector
	 * too, which only the API server evaluates.
	 * @param <T> the object type
	 * @param type the class of the objects
	 * @param namespace the namespace, {@code null} for all namespaces
	 * @param labelSelector a label selector, or {@code null}
	 * @param fieldSelector a field selector, such as {@code spec.nodeName=node-1}, or
	 * {@code null}
	 * @return the objects
	 * @throws ApiException if the server rejects the list
	 */
	public <T> List<T> list(Class<T> type, String namespace, String labelSelector, String fieldSelector)
			throws ApiException {
		return list(kindOf(type), type, namespace, labelSelector, fieldSelector);
	}

	/**
	 * Lists dynamic objects as {@link #list(Class, String, String, String)} does.
	 * @param apiVersion the API version
	 * @param kind the kind
	 * @param namespace the namespace, {@code null} for all namespaces
	 * @param labelSelector a label selector, or {@code null}
	 * @param fieldSelector a field selector, or {@code null}
	 * @return the objects
	 * @throws ApiException if the server rejects the list
	 */
	public List<DynamicKubernetesObject> list(String apiVersion, String kind, String namespace, String labelSelector,
			String fieldSelector) throws ApiException {
		return list(kindOf(apiVersion, kind), DynamicKubernetesObject.class, namespace, labelSelector, fieldSelector);
	}

	private <T> List<T> list(ResourceKind kind, Class<T> type, String namespace, String labelSelector,
			String fieldSelector) throws ApiException {
		String scoped = scoped(kind, namespace);
		EqualityLabelSelector selector = EqualityLabelSelector.parse(labelSelector);
		if (selector != null && (fieldSelector == null || fieldSelector.isBlank())) {
			ResourceInformer<?> informer = completeInformer(kind, scoped);
			if (informer != null && caughtUpWithWrites(informer, kind, scoped)) {
				List<T> objects = new ArrayList<>();
				for (KubernetesObject object : informer.indexer().list()) {
					if ((scoped == null || scoped.equals(object.getMetadata().getNamespace()))
							&& selector.test(object.getMetadata().getLabels())) {
						objects.add(decode(toLiveJson(object), type, kind));
					}
				}
				logRequest("list", kind, (scoped != null) ? scoped + "/*" : "*", "", "none (from the cache)");
				return objects;
			}
		}
		List<T> objects = new ArrayList<>();
		String continueToken = null;
		do {
			List<Pair> query = new ArrayList<>();
			query.add(new Pair("limit", Integer.toString(LIST_PAGE_SIZE)));
			if (labelSelector != null && !labelSelector.isBlank()) {
				query.add(new Pair("labelSelector", labelSelector));
			}
			if (fieldSelector != null && !fieldSelector.isBlank()) {
				query.add(new Pair("fieldSelector", fieldSelector));
			}
			if (continueToken != null) {
				query.add(new Pair("continue", continueToken));
			}
			JsonObject page = JsonParser.parseString(request(kind, "list", "GET", scoped, null, "", query, null))
				.getAsJsonObject();
			if (page.get("items") instanceof JsonArray items) {
				for (JsonElement item : items) {
					objects.add(decode(item.getAsJsonObject(), type, kind));
				}
			}
			JsonObject listMetadata = page.getAsJsonObject("metadata");
			continueToken = (listMetadata != null) ? string(listMetadata, "continue") : null;
		}
		while (continueToken != null && !continueToken.isEmpty());
		return objects;
	}

	/**
	 * Sets who is told of every request, for meters.
	 * @param listener the listener, {@code null} for none
	 */
	public void setWriteListener(WriteListener listener) {
		this.listener = (listener != null) ? listener : NO_LISTENER;
	}

	/**
	 * Sets the tracing told of every write request, such as the Micrometer Observation
	 * tracing the auto-configuration sets when the application has an
	 * {@code ObservationRegistry}. Reads are not traced.
	 * @param tracing the tracing, {@code null} for none
	 */
	public void setWriteTracing(WriteTracing tracing) {
		this.tracing = (tracing != null) ? tracing : WriteTracing.NONE;
	}

	/**
	 * An informer's cache answer for one object: whether it can answer, and with what.
	 */
	private CacheLookup fromCache(ResourceKind kind, String namespace, String key) {
		WrittenObjects.Written last = this.writtenObjects.lastWrite(kind, key);
		ResourceInformer<?> complete = null;
		for (ResourceInformer<?> informer : this.informers.informers()) {
			if (!covers(informer, kind, namespace)) {
				continue;
			}
			KubernetesObject cached = informer.indexer().getByKey(key);
			if (cached != null) {
				return caughtUp(cached, last) ? new CacheLookup(true, cached) : CacheLookup.NOT_ANSWERED;
			}
			if (holdsEveryObject(informer)) {
				complete = informer;
			}
		}
		// no informer holds it: gone, if one would hold it whatever its labels, and any
		// write of it is behind that informer
		if (complete != null
				&& (last == null || last.deleted() || complete.hasSeenAfter(namespace, last.resourceVersion()))) {
			return new CacheLookup(true, null);
		}
		return CacheLookup.NOT_ANSWERED;
	}

	/**
	 * Whether an informer holds every object of its scope, whatever its labels: none with
	 * a label selector, nor one that keeps only referenced objects, can say that an
	 * object it does not hold is gone.
	 */
	private static boolean holdsEveryObject(ResourceInformer<?> informer) {
		return !StringUtils.hasText(informer.spec().labelSelector()) && !informer.keepsOnlySome();
	}

	/**
	 * Whether a cached object is not older than this template's last write of it.
	 */
	private static boolean caughtUp(KubernetesObject cached, WrittenObjects.Written last) {
		if (last == null || last.resourceVersion() == null) {
			return last == null || !last.deleted();
		}
		int order = ResourceInformer.compareResourceVersions(cached.getMetadata().getResourceVersion(),
				last.resourceVersion());
		if (last.deleted()) {
			// an object deleted at once is answered with its state before the delete
			return order > 0 || (order == 0 && cached.getMetadata().getDeletionTimestamp() != null);
		}
		return order >= 0;
	}

	/**
	 * An informer that holds every object of a resource in a scope, and has synced.
	 */
	private ResourceInformer<?> completeInformer(ResourceKind kind, String namespace) {
		for (ResourceInformer<?> informer : this.informers.informers()) {
			if (covers(informer, kind, namespace) && holdsEveryObject(informer)
					&& (namespace != null || !kind.namespaced() || informer.spec().namespaces().isEmpty())) {
				return informer;
			}
		}
		return null;
	}

	private boolean caughtUpWithWrites(ResourceInformer<?> informer, ResourceKind kind, String namespace) {
		for (Map.Entry<String, WrittenObjects.Written> entry : this.writtenObjects.lastWrites(kind)) {
			String key = entry.getKey();
			if (namespace != null && !key.startsWith(namespace + "/")) {
				continue;
			}
			KubernetesObject cached = informer.indexer().getByKey(key);
			WrittenObjects.Written last = entry.getValue();
			boolean seen = (cached != null) ? caughtUp(cached, last)
					: last.deleted() || informer.hasSeenAfter(namespaceOf(key), last.resourceVersion());
			if (!seen) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether an informer caches full objects of a resource in a namespace, has synced,
	 * and has no field selector (which this side cannot evaluate).
	 */
	private static boolean covers(ResourceInformer<?> informer, ResourceKind kind, String namespace) {
		InformerSpec<?> spec = informer.spec();
		return InformerView.sameResource(informer, kind)
				&& !spec.metadataOnly() && !StringUtils.hasText(spec.fieldSelector()) && (!kind.namespaced()
						|| spec.namespaces().isEmpty() || (namespace != null && spec.namespaces().contains(namespace)))
				&& informer.hasSynced();
	}

	private static String namespaceOf(String key) {
		int slash = key.indexOf('/');
		return (slash >= 0) ? key.substring(0, slash) : null;
	}

	private static String scoped(ResourceKind kind, String namespace) {
		return kind.namespaced() ? namespace : null;
	}

	private List<Pair> applyQuery(ApplyOptions options) {
		boolean force = (options.getForceConflicts() != null) ? options.getForceConflicts() : this.forceConflicts;
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		query.add(new Pair("force", Boolean.toString(force)));
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
		return written(kind, answer, null);
	}

	/**
	 * Records a write: for the handler call's read-after-write, and for this template's
	 * reads and applies.
	 * @param appliedState the state an apply stated (see {@link #appliedState}), or
	 * {@code null} if the write was no apply
	 */
	private <T> T written(ResourceKind kind, T answer, String appliedState) {
		return written(kind, answer, appliedState, false);
	}

	/**
	 * Records a write of a status, which leaves what was applied to the object as it was.
	 */
	private <T> T statusWritten(ResourceKind kind, T answer) {
		return written(kind, answer, null, true);
	}

	private <T> T written(ResourceKind kind, T answer, String appliedState, boolean status) {
		return written(kind, answer, appliedState, status, true);
	}

	/**
	 * @param sent whether a request made the state: an apply that sent nothing returns
	 * the live state, which may hold someone else's change, never a write of the call's
	 */
	private <T> T written(ResourceKind kind, T answer, String appliedState, boolean status, boolean sent) {
		if (answer instanceof KubernetesObject object && object.getMetadata() != null) {
			warnIfNoInformerCaches(kind, object);
			if (status) {
				this.writtenObjects.wroteStatus(kind, ResourceInformer.key(object), object.getMetadata().getUid(),
						object.getMetadata().getResourceVersion());
			}
			else {
				this.writtenObjects.wrote(kind, ResourceInformer.key(object), object.getMetadata().getUid(),
						object.getMetadata().getResourceVersion(), appliedState);
			}
			HandlerCall call = HandlerCall.current();
			if (call != null) {
				call.wrote(this.informers, kind, object, sent);
			}
		}
		return answer;
	}

	/**
	 * The live object, if it already has the state an apply would write for this field
	 * manager: this template applied that very state to it last (an informer's cache
	 * keeps no {@code managedFields} to tell which fields this manager owns: a field
	 * removed from the desired state makes it another state), and the live object still
	 * has every value it states. Read from an informer's cache when one holds the object
	 * and has caught up with this template's writes, else from the API server; never read
	 * when the desired state is not the last applied one, since it is sent anyway.
	 * @return the live object, or {@code null} if the apply is to be sent
	 */
	private <T> T unchangedLiveObject(ResourceKind kind, JsonObject metadata, JsonObject body, T desired)
			throws ApiException {
		String key = name(metadata);
		WrittenObjects.Written last = this.writtenObjects.lastWrite(kind, key);
		if (last == null || last.deleted() || last.appliedDigest() == null) {
			return null;
		}
		String state = appliedState(body);
		JsonObject live;
		CacheLookup cached = fromCache(kind, string(metadata, "namespace"), key);
		if (cached.answered()) {
			live = (cached.object() != null) ? toLiveJson(cached.object()) : null;
		}
		else {
			live = read(kind, metadata);
		}
		boolean managedFieldsKept = !cached.answered();
		if (live == null || !live.has("metadata")) {
			return null;
		}
		String uid = string(live.getAsJsonObject("metadata"), "uid");
		if (!this.writtenObjects.lastApplied(kind, key, uid, state) || !appliedByThisManager(live, managedFieldsKept)
				|| !LiveComparison.hasDesiredState(live, JsonParser.parseString(state))) {
			return null;
		}
		logRequest("PATCH", kind, metadata, "", "none (unchanged, not sent)");
		this.listener.unchanged(kind, "apply");
		return decode(live.toString(), desired);
	}

	/**
	 * Whether the live object's {@code managedFields} still name this field manager's
	 * apply: fields it no longer owns (its entry removed, by a reset of
	 * {@code managedFields} say) would not be repaired by a skipped apply. An object read
	 * from the API server always carries them; one from a cache may not (they are
	 * stripped by default), and then the memory of the last apply decides alone.
	 * @param managedFieldsKept whether the object was read with its managedFields
	 */
	private boolean appliedByThisManager(JsonObject live, boolean managedFieldsKept) {
		JsonElement managedFields = live.getAsJsonObject("metadata").get("managedFields");
		if (!(managedFields instanceof JsonArray entries) || entries.isEmpty()) {
			return !managedFieldsKept;
		}
		for (JsonElement entry : entries) {
			if (entry instanceof JsonObject fields && this.fieldManager.equals(string(fields, "manager"))
					&& "Apply".equals(string(fields, "operation"))
					&& (string(fields, "subresource") == null || string(fields, "subresource").isEmpty())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The state an apply body states, as compared and remembered: without
	 * {@code apiVersion} and {@code kind} (a cached object may lack them) and without the
	 * resourceVersion an apply that adds an owner reference carries as a precondition.
	 */
	private static String appliedState(JsonObject body) {
		JsonObject state = body.deepCopy();
		state.remove("apiVersion");
		state.remove("kind");
		if (state.get("metadata") instanceof JsonObject metadata) {
			metadata.remove("resourceVersion");
		}
		return state.toString();
	}

	private JsonObject toLiveJson(KubernetesObject object) {
		if (object instanceof DynamicKubernetesObject dynamic) {
			return dynamic.getRaw().deepCopy();
		}
		return this.gson.toJsonTree(object).getAsJsonObject();
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
		String apiVersion = string(json, "apiVersion");
		String kind = string(json, "kind");
		if (apiVersion != null && kind != null && object instanceof DynamicKubernetesObject) {
			return this.discovery.resolve(apiVersion, kind);
		}
		return resolve(object.getClass());
	}

	private ResourceKind kindOf(Class<?> type) {
		if (type == DynamicKubernetesObject.class) {
			throw new IllegalArgumentException(
					"A DynamicKubernetesObject has no kind of its own: give its " + "apiVersion and kind");
		}
		return this.kinds.computeIfAbsent(type.getName(), (key) -> resolve(type));
	}

	private ResourceKind kindOf(String apiVersion, String kind) {
		return this.kinds.computeIfAbsent(apiVersion + "|" + kind, (key) -> this.discovery.resolve(apiVersion, kind));
	}

	private ResourceKind resolve(Class<?> type) {
		if (ResourceType.isCustomResource(type)) {
			ResourceType resourceType = ResourceType.of(type);
			return this.discovery.resolve(resourceType.apiVersion(), resourceType.plural());
		}
		Matcher model = GENERATED_MODEL.matcher(type.getSimpleName());
		if (!model.matches()) {
			throw new IllegalArgumentException("Cannot tell the kind of " + type.getName()
					+ ": use a generated model, a @KubernetesResource class or a DynamicKubernetesObject");
		}
		String version = "v" + model.group(1);
		return this.discovery.resolve(this.discovery.apiVersionOf(version, model.group(2)), model.group(2));
	}

	/**
	 * The object a patch's body is, if the write can carry a trace context in it: a
	 * merge, strategic merge or apply patch of the object itself (a JSON patch would fail
	 * on an object without annotations, and the API server drops metadata written through
	 * a subresource).
	 * @return the body as an object, or {@code null}
	 */
	private static JsonObject traceContextCarrier(Patch patch, String text) {
		if (patch.getSubresource() != null || patch.getType() == Patch.Type.JSON) {
			return null;
		}
		try {
			JsonElement parsed = JsonParser.parseString(text);
			return (parsed instanceof JsonObject object) ? object : null;
		}
		catch (JsonParseException ex) {
			// an apply patch written as YAML: sent as it is, carrying nothing
			return null;
		}
	}

	/**
	 * A copy of an object's body with the trace context of its write in its annotations;
	 * the body as it is if its annotations are not an object (a patch that sets them to
	 * {@code null}).
	 */
	private static JsonObject withTraceContext(JsonObject body, String traceContext) {
		JsonObject copy = body.deepCopy();
		JsonObject metadata = (copy.get("metadata") instanceof JsonObject existing) ? existing : new JsonObject();
		copy.add("metadata", metadata);
		JsonElement annotations = metadata.get("annotations");
		if (annotations == null) {
			annotations = new JsonObject();
			metadata.add("annotations", annotations);
		}
		if (!(annotations instanceof JsonObject carrier)) {
			return body;
		}
		carrier.addProperty(TraceContextAnnotation.NAME, traceContext);
		return copy;
	}

	private static void withoutTraceContext(JsonObject metadata) {
		if (metadata.get("annotations") instanceof JsonObject annotations
				&& annotations.remove(TraceContextAnnotation.NAME) != null && annotations.size() == 0) {
			metadata.remove("annotations");
		}
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
		String verb = switch (method) {
			case "PUT" -> "update";
			case "GET" -> "get";
			default -> "apply";
		};
		return request(kind, verb, method, string(metadata, "namespace"), string(metadata, "name"), subresource, query,
				body);
	}

	/**
	 * Makes a request, built by the {@link ApiClient} for its URL and authentication (the
	 * generated client cannot serialise an apply patch body), counts it, and turns a
	 * refusal into an {@link ApiException} whose message carries the server's reason and
	 * message.
	 * @param name the object's name, {@code null} for its collection
	 */
	private String request(ResourceKind kind, String verb, String method, String namespace, String name,
			String subresource, List<Pair> query, RequestBody body) throws ApiException {
		return request(kind, verb, method, namespace, name, subresource, query, body, null, null);
	}

	/**
	 * Makes a request whose body is an object that carries the trace context of the
	 * write, when the write is traced (see {@link WriteTracing.Traced#traceContext()}):
	 * in the request sent only, never in {@code body}, which callers keep as the state
	 * they asked for.
	 */
	private String request(ResourceKind kind, String verb, String method, String namespace, String name,
			String subresource, List<Pair> query, JsonObject body, MediaType type) throws ApiException {
		return request(kind, verb, method, namespace, name, subresource, query, null, body, type);
	}

	private String request(ResourceKind kind, String verb, String method, String namespace, String name,
			String subresource, List<Pair> query, RequestBody body, JsonObject carrying, MediaType type)
			throws ApiException {
		String path = kind.collectionPath(namespace) + ((name != null) ? "/" + name : "") + subresource;
		String object = (name == null) ? ((namespace != null) ? namespace + "/*" : "*")
				: (namespace != null) ? namespace + "/" + name : name;
		// reads are not traced: a span per cache miss would bury the writes
		WriteTracing.Traced traced = "get".equals(verb) || "list".equals(verb) ? WriteTracing.Traced.NONE
				: this.tracing.start(kind, verb, namespace, name, subresource);
		if (carrying != null) {
			// started first: the trace context carried is the one of this write's span
			String traceContext = traced.traceContext();
			body = RequestBody.create(
					((traceContext != null) ? withTraceContext(carrying, traceContext) : carrying).toString(), type);
		}
		Request request = this.client
			.buildCall(this.client.getBasePath(), path, "GET", query, new ArrayList<>(), null, new HashMap<>(),
					new HashMap<>(), new HashMap<>(), AUTH_NAMES, null)
			.request()
			.newBuilder()
			.method(method, body)
			.build();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			logRequest(verb, kind, object, subresource, Integer.toString(response.code()));
			this.listener.requested(kind, verb, response.code());
			String answer = (response.body() != null) ? response.body().string() : "";
			if (!response.isSuccessful()) {
				ApiException refused = refused(kind, verb, object, subresource, response.code(),
						response.headers().toMultimap(), answer);
				traced.end(response.code(), refused);
				throw refused;
			}
			traced.end(response.code(), null);
			return answer;
		}
		catch (IOException ex) {
			logRequest(verb, kind, object, subresource, "none (" + ex + ")");
			this.listener.requested(kind, verb, 0);
			traced.end(0, ex);
			throw new ApiException(ex);
		}
	}

	/**
	 * The exception for a refused request: its message names the verb, the object, the
	 * status code and the server's reason and message; a delete refused because the
	 * object's uid is not the one of its precondition says that the object was replaced.
	 */
	private static ApiException refused(ResourceKind kind, String verb, String object, String subresource, int code,
			Map<String, List<String>> headers, String answer) {
		String reason = serverReason(answer);
		String message = serverMessage(answer);
		String prefix = Character.toUpperCase(verb.charAt(0)) + verb.substring(1) + " of " + kind.kind() + " '" + object
				+ "'" + subresource + " failed (" + code + ((reason != null) ? " " + reason : "") + "): ";
		if ("delete".equals(verb) && code == 409 && UID_PRECONDITION_FAILED.matcher(message).find()) {
			return new ObjectReplacedException(
					prefix + "the object was replaced: the " + kind.kind()
							+ " of that name is another object now, and was left alone (" + message + ")",
					code, headers, answer);
		}
		return new ApiException(prefix + message, code, headers, answer);
	}

	/**
	 * Logs a request at DEBUG: its verb, resource, object and the answer's status code,
	 * with the handler call it was made in; never the object's contents (a Secret's data
	 * included).
	 */
	private static void logRequest(String method, ResourceKind kind, JsonObject metadata, String subresource,
			String code) {
		String verb = switch (method) {
			case "PUT" -> "update";
			case "GET" -> "get";
			default -> "apply";
		};
		logRequest(verb, kind, name(metadata), subresource, code);
	}

	private static void logRequest(String verb, ResourceKind kind, String object, String subresource, String code) {
		if (logger.isDebugEnabled()) {
			HandlerCall call = HandlerCall.current();
			logger.debug(("get".equals(verb) || "list".equals(verb) ? "Read" : "Write") + ": verb=" + verb
					+ " resource=" + kind.plural() + (kind.group().isEmpty() ? "" : "." + kind.group()) + subresource
					+ " object=" + object + " code=" + code
					+ ((call != null) ? " handler=" + call.handler() + " key=" + call.key() : ""));
		}
	}

	@SuppressWarnings("unchecked")
	private <T> T decode(JsonObject json, Class<T> type, ResourceKind kind) {
		if (type == DynamicKubernetesObject.class) {
			// the items of a list carry no apiVersion and kind
			json.addProperty("apiVersion", kind.apiVersion());
			json.addProperty("kind", kind.kind());
			return (T) new DynamicKubernetesObject(json);
		}
		return this.gson.fromJson(json, type);
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
		if (LiveComparison.isUnset(wanted)) {
			return LiveComparison.isUnset(actual);
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

	private static String serverReason(String answer) {
		try {
			JsonElement reason = JsonParser.parseString(answer).getAsJsonObject().get("reason");
			if (reason != null && reason.isJsonPrimitive() && !reason.getAsString().isEmpty()) {
				return reason.getAsString();
			}
		}
		catch (JsonParseException | IllegalStateException ex) {
			// not a Status
		}
		return null;
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
	 * What an informer's cache answers for one object.
	 *
	 * @param answered whether the cache can answer: it holds the object and has caught up
	 * with this template's writes of it, or holds every object that could be it
	 * @param object the cached object (not a copy), {@code null} if it does not exist
	 */
	private record CacheLookup(boolean answered, KubernetesObject object) {

		static final CacheLookup NOT_ANSWERED = new CacheLookup(false, null);

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
