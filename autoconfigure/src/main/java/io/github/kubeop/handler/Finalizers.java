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

package io.github.kubeop.handler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Adds and removes one finalizer on the objects of one informer: the only two writes
 * behind {@link io.github.kubeop.annotation.Cleanup}. Each is a JSON merge patch that
 * carries the object's {@code resourceVersion} as a precondition and the whole finalizer
 * list, as controller-runtime's {@code MergeFromWithOptimisticLock} does: a finalizer
 * someone else added or removed meanwhile makes the API server answer 409 instead of
 * being lost. The removal after a cleanup meets such a 409 whenever the cleanup wrote the
 * object itself (a "Terminating" status, say): it then reads the live object and removes
 * the finalizer from that, a bounded number of times, without calling the cleanup again,
 * as the Java Operator SDK's conflict-retrying finalizer removal does. The objects go
 * through the informer's resource with the client's dynamic API and are read back as the
 * informer reads them, so generated models, typed custom resources and dynamic objects
 * all work.
 *
 * @param <T> the resource type
 * @author Kubeop authors
 */
final class Finalizers<T extends KubernetesObject> {

	private static final Log logger = LogFactory.getLog(Finalizers.class);

	/**
	 * How often the removal of the finalizer is tried on the live object before the
	 * conflict is given back to the worker.
	 */
	static final int REMOVE_ATTEMPTS = 5;

	private final ApiClient client;

	private final ResourceInformer<T> informer;

	private final String finalizer;

	private final DynamicKubernetesApi api;

	Finalizers(ApiClient client, ResourceInformer<T> informer, String finalizer) {
		this.client = client;
		this.informer = informer;
		this.finalizer = finalizer;
		ResourceKind resource = informer.resource();
		this.api = new DynamicKubernetesApi(resource.group(), resource.version(), resource.plural(), client);
	}

	/**
	 * Returns the finalizer.
	 * @return the finalizer
	 */
	String finalizer() {
		return this.finalizer;
	}

	/**
	 * Returns whether an object holds the finalizer.
	 * @param object the object
	 * @return whether the finalizer is in its {@code metadata.finalizers}
	 */
	boolean isHeldBy(KubernetesObject object) {
		List<String> finalizers = object.getMetadata().getFinalizers();
		return finalizers != null && finalizers.contains(this.finalizer);
	}

	/**
	 * Returns whether an object is being deleted.
	 * @param object the object
	 * @return whether its {@code deletionTimestamp} is set
	 */
	static boolean isBeingDeleted(KubernetesObject object) {
		return object.getMetadata().getDeletionTimestamp() != null;
	}

	/**
	 * Adds the finalizer to an object, unless it changed since the state given.
	 * @param object the object as last read
	 * @return the object as the API server returned it
	 * @throws ConflictException if the object changed or is gone meanwhile
	 * @throws ApiException if the API server refused, with its message
	 */
	T add(T object) throws ConflictException, ApiException {
		List<String> finalizers = new ArrayList<>(finalizersOf(object));
		finalizers.add(this.finalizer);
		return patch(object, finalizers, "add");
	}

	/**
	 * Removes the finalizer from an object. If the object changed since the state given
	 * (the cleanup wrote it, say), the finalizer is removed from the live object instead,
	 * up to {@link #REMOVE_ATTEMPTS} times: the cleanup has run, and runs once per
	 * removal, however it writes. Removing the last finalizer of an object being deleted
	 * lets the API server complete the delete.
	 * @param object the object as last read
	 * @return the object as the API server returned it, the live object if someone else
	 * removed the finalizer, or the object given if it is gone already
	 * @throws ConflictException if the object kept changing
	 * @throws ApiException if the API server refused, with its message
	 */
	T remove(T object) throws ConflictException, ApiException {
		T live = object;
		for (int attempt = 1;; attempt++) {
			List<String> finalizers = new ArrayList<>(finalizersOf(live));
			finalizers.removeIf(this.finalizer::equals);
			try {
				return patch(live, finalizers, "remove");
			}
			catch (ConflictException ex) {
				if (ex.gone) {
					// someone else let the object go: its delete reaches the handler
					// anyway
					return object;
				}
				if (attempt >= REMOVE_ATTEMPTS) {
					throw ex;
				}
			}
			live = read(object);
			if (live == null || !Objects.equals(live.getMetadata().getUid(), object.getMetadata().getUid())) {
				// gone, or another object of that name now: the one cleaned up is gone
				return object;
			}
			if (!isHeldBy(live)) {
				return live;
			}
		}
	}

	/**
	 * Reads the live object.
	 * @return the object, or {@code null} if it is gone
	 */
	private T read(T object) throws ApiException {
		V1ObjectMeta metadata = object.getMetadata();
		KubernetesApiResponse<DynamicKubernetesObject> response = (this.informer.resource().namespaced())
				? this.api.get(metadata.getNamespace(), metadata.getName()) : this.api.get(metadata.getName());
		HandlerCallLog.request("get", this.informer.resource(), metadata.getNamespace(), metadata.getName(),
				response.getHttpStatusCode());
		if (response.isSuccess()) {
			return this.informer.convert(response.getObject().getRaw());
		}
		if (response.getHttpStatusCode() == 404) {
			return null;
		}
		V1Status status = response.getStatus();
		throw new ApiException(
				"Could not read " + this.informer.resource().plural() + " " + ResourceInformer.key(object)
						+ " to remove finalizer " + this.finalizer + ": HTTP " + response.getHttpStatusCode()
						+ ((status != null && status.getMessage() != null) ? ": " + status.getMessage() : ""),
				response.getHttpStatusCode(), Collections.emptyMap(), null);
	}

	private T patch(T object, List<String> finalizers, String action) throws ConflictException, ApiException {
		V1ObjectMeta metadata = object.getMetadata();
		JsonArray list = new JsonArray();
		finalizers.forEach(list::add);
		JsonObject meta = new JsonObject();
		// the precondition: the API server answers 409 if the object changed since
		meta.addProperty("resourceVersion", metadata.getResourceVersion());
		meta.add("finalizers", list);
		JsonObject body = new JsonObject();
		body.add("metadata", meta);
		V1Patch patch = new V1Patch(body.toString());
		KubernetesApiResponse<DynamicKubernetesObject> response = (this.informer.resource().namespaced()) ? this.api
			.patch(metadata.getNamespace(), metadata.getName(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, patch)
				: this.api.patch(metadata.getName(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, patch);
		int code = response.getHttpStatusCode();
		HandlerCallLog.request("patch", this.informer.resource(), metadata.getNamespace(), metadata.getName(), code);
		if (response.isSuccess()) {
			HandlerCallLog.finalizer(this.finalizer, "add".equals(action));
			return this.informer.convert(response.getObject().getRaw());
		}
		V1Status status = response.getStatus();
		if (code == 404 || (code == 409 && WriteConflict.of(status).isRoutine())) {
			throw new ConflictException(code == 404);
		}
		String message = "Could not " + action + " finalizer " + this.finalizer + " on "
				+ this.informer.resource().plural() + " " + ResourceInformer.key(object) + ": HTTP " + code
				+ ((status != null && status.getMessage() != null) ? ": " + status.getMessage() : "") + ((code == 403)
						? " (the operator needs the 'patch' verb on " + describe(this.informer.resource()) + ")" : "");
		throw new ApiException(message, code, Collections.emptyMap(), null);
	}

	/**
	 * Checks that the operator may patch the informer's objects, in each namespace the
	 * informer watches or cluster-wide, with a {@code SelfSubjectAccessReview}.
	 * @param method the cleanup method, named in the failure
	 * @throws FinalizerPermissionException if the API server says it may not
	 */
	void checkPermission(HandlerMethod method) {
		AuthorizationV1Api authorization = new AuthorizationV1Api(this.client);
		ResourceKind resource = this.informer.resource();
		List<String> namespaces = (!resource.namespaced() || this.informer.spec().namespaces().isEmpty())
				? Collections.singletonList(null) : this.informer.spec().namespaces();
		for (String namespace : namespaces) {
			V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview()
				.spec(new V1SelfSubjectAccessReviewSpec().resourceAttributes(new V1ResourceAttributes().verb("patch")
					.group(resource.group())
					.resource(resource.plural())
					.namespace(namespace)));
			V1SelfSubjectAccessReview answer;
			try {
				answer = authorization.createSelfSubjectAccessReview(review).execute();
			}
			catch (ApiException ex) {
				// the first finalizer write then tells, with the server's message
				logger.warn("Could not check whether the operator may patch " + describe(resource)
						+ " for the finalizer of " + method + ": HTTP " + ex.getCode());
				return;
			}
			if (answer.getStatus() == null || !Boolean.TRUE.equals(answer.getStatus().getAllowed())) {
				throw new FinalizerPermissionException("patch", resource.plural(), resource.group(), namespace,
						method.toString(), this.finalizer);
			}
		}
	}

	private static List<String> finalizersOf(KubernetesObject object) {
		List<String> finalizers = object.getMetadata().getFinalizers();
		return (finalizers != null) ? finalizers : List.of();
	}

	private static String describe(ResourceKind resource) {
		return resource.plural() + (resource.group().isEmpty() ? "" : "." + resource.group());
	}

	/**
	 * The object changed (HTTP 409) or is gone (HTTP 404) since the state a finalizer
	 * write started from: the key is handled again, without counting a failure.
	 */
	static final class ConflictException extends Exception {

		private final boolean gone;

		ConflictException(boolean gone) {
			super(gone ? "the object is gone" : "the object changed", null, false, false);
			this.gone = gone;
		}

	}

}
