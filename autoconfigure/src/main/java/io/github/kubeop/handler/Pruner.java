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
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.DeleteOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Pruning for one handler: after a reconcile call returned normally, deletes the objects
 * the handled object owns that the call did not apply. An object is deleted only if its
 * type is one the handler declares with {@code @Owns}, its controller owner reference
 * names the handled object by UID, the operator's field manager manages some of its
 * fields, and the call did not apply it (as {@code KubernetesTemplate} records, a write
 * it did not have to send included). Candidates come from the owned types' informers,
 * indexed by controller UID; each is read from the API server (the cache keeps no
 * {@code managedFields}) and deleted in the background with preconditions on the UID and
 * resourceVersion read, so an object replaced or changed meanwhile is kept until the next
 * reconcile looks at it again.
 *
 * @author Kubeop authors
 */
final class Pruner {

	private static final Log logger = LogFactory.getLog(Pruner.class);

	/**
	 * The index of owned objects by the UID of their controller.
	 */
	static final String CONTROLLER_UID_INDEX = "kubeop.io/controller-uid";

	private final String handler;

	private final ApiClient client;

	private final Supplier<String> fieldManager;

	private final List<Owned> owned = new CopyOnWriteArrayList<>();

	/**
	 * Creates the pruning of a handler.
	 * @param handler the handler name
	 * @param client the client to read and delete with
	 * @param fieldManager the field manager of the operator's applies
	 */
	Pruner(String handler, ApiClient client, Supplier<String> fieldManager) {
		this.handler = handler;
		this.client = client;
		this.fieldManager = fieldManager;
	}

	/**
	 * Adds an owned type whose objects are pruned.
	 * @param <O> the owned type
	 * @param informer the informer of the owned objects
	 */
	<O extends KubernetesObject> void owns(ResourceInformer<O> informer) {
		informer.addIndexer(CONTROLLER_UID_INDEX, (object) -> {
			V1OwnerReference controller = controllerOf(object.getMetadata());
			return (controller != null && controller.getUid() != null) ? List.of(controller.getUid()) : List.of();
		});
		ResourceKind resource = informer.resource();
		this.owned.add(new Owned(informer,
				new DynamicKubernetesApi(resource.group(), resource.version(), resource.plural(), this.client)));
	}

	/**
	 * Deletes what the handled object owns and the call did not apply.
	 * @param primary the handled object
	 * @param call the call that returned normally
	 * @return the deleted objects, as {@code kind namespace/name}
	 * @throws ApiException if a read or delete failed other than for an object gone or
	 * changed: the call is retried
	 */
	List<String> prune(KubernetesObject primary, HandlerCall call) throws ApiException {
		String uid = primary.getMetadata().getUid();
		String manager = this.fieldManager.get();
		List<String> pruned = new ArrayList<>();
		if (uid == null || manager == null) {
			return pruned;
		}
		for (Owned type : this.owned) {
			ResourceKind resource = type.informer().resource();
			for (KubernetesObject candidate : type.informer().indexer().byIndex(CONTROLLER_UID_INDEX, uid)) {
				if (!call.hasApplied(resource, ResourceInformer.key(candidate))
						&& delete(type, candidate, uid, manager)) {
					pruned.add(resource.kind() + " " + ResourceInformer.key(candidate));
				}
			}
		}
		if (!pruned.isEmpty()) {
			logger.info("Handler " + this.handler + " pruned what " + ResourceInformer.key(primary)
					+ " owns and its reconcile no longer applies: " + String.join(", ", pruned));
		}
		return pruned;
	}

	private boolean delete(Owned type, KubernetesObject candidate, String ownerUid, String manager)
			throws ApiException {
		V1ObjectMeta cached = candidate.getMetadata();
		boolean namespaced = type.informer().resource().namespaced();
		KubernetesApiResponse<DynamicKubernetesObject> read = namespaced
				? type.api().get(cached.getNamespace(), cached.getName()) : type.api().get(cached.getName());
		if (read.getHttpStatusCode() == 404) {
			return false;
		}
		V1ObjectMeta live = read.throwsApiException().getObject().getMetadata();
		V1OwnerReference controller = controllerOf(live);
		if (!Objects.equals(live.getUid(), cached.getUid()) || controller == null
				|| !ownerUid.equals(controller.getUid()) || live.getDeletionTimestamp() != null
				|| !managedBy(live, manager)) {
			return false;
		}
		DeleteOptions options = new DeleteOptions();
		options.setPropagationPolicy("Background");
		options.setPreconditions(new V1Preconditions().uid(live.getUid()).resourceVersion(live.getResourceVersion()));
		KubernetesApiResponse<DynamicKubernetesObject> deleted = namespaced
				? type.api().delete(live.getNamespace(), live.getName(), options)
				: type.api().delete(live.getName(), options);
		// gone already, or changed since it was read (a failed precondition): the next
		// reconcile looks again
		if (deleted.getHttpStatusCode() == 404 || deleted.getHttpStatusCode() == 409) {
			return false;
		}
		deleted.throwsApiException();
		return true;
	}

	private static boolean managedBy(V1ObjectMeta metadata, String manager) {
		List<V1ManagedFieldsEntry> entries = metadata.getManagedFields();
		return entries != null && entries.stream().anyMatch((entry) -> manager.equals(entry.getManager()));
	}

	private static V1OwnerReference controllerOf(V1ObjectMeta metadata) {
		List<V1OwnerReference> references = (metadata != null) ? metadata.getOwnerReferences() : null;
		if (references != null) {
			for (V1OwnerReference reference : references) {
				if (Boolean.TRUE.equals(reference.getController())) {
					return reference;
				}
			}
		}
		return null;
	}

	/**
	 * An owned type.
	 *
	 * @param informer its informer
	 * @param api reads and deletes its objects
	 */
	private record Owned(ResourceInformer<?> informer, DynamicKubernetesApi api) {

	}

}
