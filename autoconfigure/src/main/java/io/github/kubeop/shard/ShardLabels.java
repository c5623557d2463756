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

package io.github.kubeop.shard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.PartialObjectMetadata;
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
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The shard labels of objects, for sharding that splits caches as well as work: every
 * object of a sharded informer carries {@code shard.kubeop.io/<group>=<member>}, and each
 * replica's informers watch only objects with its own label.
 * <p>
 * Labels follow the ring, never lead it: a member relabels the cached objects the ring no
 * longer gives it only after it acknowledged that generation (it has stopped handling
 * them), and the new owner handles them only once every member acknowledged it. The
 * member that sorts first in the ring also labels objects that carry no live member's
 * label: new objects, which it watches, and those of members that left, which it lists
 * page by page after the ring's members changed. An object goes to the shard of its shard
 * key, the one the handlers' gates test: an object with a controller owner of a handled
 * kind goes to its owner's shard, so owned objects follow their owner.
 *
 * @author Kubeop authors
 */
public final class ShardLabels {

	private static final Log logger = LogFactory.getLog(ShardLabels.class);

	private static final int LABEL_WRITERS = 8;

	private static final int PAGE_SIZE = 500;

	private final ApiClient client;

	private final String labelKey;

	private final Supplier<Collection<ResourceInformer<?>>> informers;

	private final Function<KubernetesObject, String> shardKeys;

	private final InformerRegistry registry;

	/**
	 * Metadata-only informers of the sharded resources' objects that carry no shard
	 * label, one per sharded informer, on the member that adopts: their caches are what
	 * there is to adopt, without a list.
	 */
	private final List<ResourceInformer<PartialObjectMetadata>> unlabelled = new CopyOnWriteArrayList<>();

	/**
	 * The ring members of the last complete pass over objects labelled for members that
	 * are gone, {@code null} before the first.
	 */
	private volatile List<String> adoptedFor;

	private volatile int pageSize = PAGE_SIZE;

	private final ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "kubeop-sharding-labels");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Writes labels, several at a time: a first pass over thousands of unlabelled objects
	 * is bounded by the round trips of their patches.
	 */
	private final ExecutorService writers = Executors.newFixedThreadPool(LABEL_WRITERS, (task) -> {
		Thread thread = new Thread(task, "kubeop-sharding-label-writer");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicBoolean adopting = new AtomicBoolean();

	private final AtomicBoolean releasing = new AtomicBoolean();

	private final AtomicLong relabelled = new AtomicLong();

	/**
	 * Creates the labels of a shard group.
	 * @param client the client to label with
	 * @param group the shard group
	 * @param informers the sharded informers, each watching only this member's label
	 * @param shardKeys the key that decides an object's shard, the same the handlers'
	 * gates test (an owned object's is its controller owner's, when a handler handles the
	 * owner's kind)
	 * @param registry where the member that adopts creates the informers of unlabelled
	 * objects
	 */
	public ShardLabels(ApiClient client, String group, Supplier<Collection<ResourceInformer<?>>> informers,
			Function<KubernetesObject, String> shardKeys, InformerRegistry registry) {
		this.client = client;
		this.labelKey = labelKey(group);
		this.informers = informers;
		this.shardKeys = shardKeys;
		this.registry = registry;
	}

	/**
	 * Returns the label key of a shard group.
	 * @param group the group
	 * @return the label key, such as {@code shard.kubeop.io/my-operator}
	 */
	public static String labelKey(String group) {
		return "shard.kubeop.io/" + group;
	}

	/**
	 * Checks that the operator may label the objects of every sharded informer.
	 * @throws ShardingException naming the permission that is missing
	 */
	public void checkPermissions() {
		AuthorizationV1Api api = new AuthorizationV1Api(this.client);
		for (ResourceInformer<?> informer : this.informers.get()) {
			ResourceKind resource = informer.resource();
			List<String> namespaces = informer.spec().namespaces().isEmpty() ? java.util.Collections.singletonList(null)
					: informer.spec().namespaces();
			for (String namespace : namespaces) {
				V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview().spec(
						new V1SelfSubjectAccessReviewSpec().resourceAttributes(new V1ResourceAttributes().verb("patch")
							.group(resource.group())
							.resource(resource.plural())
							.namespace(namespace)));
				try {
					V1SelfSubjectAccessReview answer = api.createSelfSubjectAccessReview(review).execute();
					if (answer.getStatus() == null || !Boolean.TRUE.equals(answer.getStatus().getAllowed())) {
						throw new ShardingException("sharding with labels needs the 'patch' verb on "
								+ resource.plural() + (resource.group().isEmpty() ? "" : "." + resource.group())
								+ ((namespace != null) ? " in namespace " + namespace : " in all namespaces")
								+ " to label objects with their shard (informer '" + informer.spec().name() + "')",
								null);
					}
				}
				catch (ApiException ex) {
					throw new ShardingException(
							"could not check the permission to label " + resource.plural() + ": HTTP " + ex.getCode(),
							ex);
				}
			}
		}
	}

	/**
	 * Gives the cached objects this member no longer owns to their owners under the ring,
	 * in the background. Called only after the member acknowledged the ring's generation.
	 * @param ring the ring
	 * @param self this member
	 */
	void release(HashRing ring, String self) {
		if (!this.releasing.compareAndSet(false, true)) {
			return;
		}
		this.executor.execute(() -> {
			try {
				releaseNow(ring, self);
			}
			finally {
				this.releasing.set(false);
			}
		});
	}

	private void releaseNow(HashRing ring, String self) {
		List<Runnable> labels = new ArrayList<>();
		for (ResourceInformer<?> informer : this.informers.get()) {
			for (KubernetesObject object : informer.indexer().list()) {
				String owner = ring.owner(this.shardKeys.apply(object));
				if (owner != null && !owner.equals(self)) {
					labels.add(() -> label(informer.resource(), object.getMetadata(), owner));
				}
			}
		}
		writeAll(labels);
	}

	private void writeAll(List<Runnable> labels) {
		List<java.util.concurrent.Future<?>> written = new ArrayList<>();
		for (Runnable label : labels) {
			written.add(this.writers.submit(label));
		}
		for (java.util.concurrent.Future<?> future : written) {
			try {
				future.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (java.util.concurrent.ExecutionException ex) {
				logger.warn("Could not write a shard label: " + ex.getCause());
			}
		}
	}

	/**
	 * Labels, in the background, the objects of the sharded resources that carry no live
	 * member's label, when there can be some: objects without a shard label are watched
	 * (a metadata-only informer each, so none is missed and none is listed again), and
	 * objects labelled for members that are gone are listed, page by page, only when the
	 * ring's members differ from those of the last such pass. One pass runs at a time.
	 * @param ring the ring
	 */
	void adopt(HashRing ring) {
		watchUnlabelled();
		boolean membersChanged = !ring.members().equals(this.adoptedFor);
		boolean unlabelledSeen = this.unlabelled.stream()
			.anyMatch((informer) -> !informer.indexer().listKeys().isEmpty());
		if (!membersChanged && !unlabelledSeen) {
			return;
		}
		if (!this.adopting.compareAndSet(false, true)) {
			return;
		}
		this.executor.execute(() -> {
			try {
				if (unlabelledSeen) {
					labelUnlabelled(ring);
				}
				if (membersChanged && labelDeparted(ring)) {
					this.adoptedFor = ring.members();
				}
			}
			finally {
				this.adopting.set(false);
			}
		});
	}

	private synchronized void watchUnlabelled() {
		if (!this.unlabelled.isEmpty()) {
			return;
		}
		for (ResourceInformer<?> informer : this.informers.get()) {
			InformerSpec<?> sharded = informer.spec();
			InformerSpec<PartialObjectMetadata> spec = InformerSpec
				.of(sharded.name() + "-unlabelled", sharded.apiVersion(), sharded.kind(), PartialObjectMetadata.class)
				.withNamespaces(sharded.namespaces().toArray(String[]::new))
				.withLabelSelector(selector(sharded, "!" + this.labelKey));
			this.unlabelled.add(this.registry.informer(spec));
		}
	}

	private void labelUnlabelled(HashRing ring) {
		List<Runnable> labels = new ArrayList<>();
		List<ResourceInformer<?>> sharded = new ArrayList<>(this.informers.get());
		for (int i = 0; i < this.unlabelled.size() && i < sharded.size(); i++) {
			ResourceKind resource = sharded.get(i).resource();
			for (PartialObjectMetadata object : this.unlabelled.get(i).indexer().list()) {
				String owner = ring.owner(this.shardKeys.apply(object));
				if (owner != null) {
					labels.add(() -> label(resource, object.getMetadata(), owner));
				}
			}
		}
		writeAll(labels);
	}

	/**
	 * Labels the objects that carry the label of a member no longer in the ring, listed
	 * page by page.
	 * @return whether every page was listed
	 */
	private boolean labelDeparted(HashRing ring) {
		boolean complete = true;
		for (ResourceInformer<?> informer : this.informers.get()) {
			ResourceKind resource = informer.resource();
			String selector = selector(informer.spec(),
					this.labelKey + "," + this.labelKey + " notin (" + String.join(",", ring.members()) + ")");
			DynamicKubernetesApi api = new DynamicKubernetesApi(resource.group(), resource.version(), resource.plural(),
					this.client);
			List<String> namespaces = (informer.spec().namespaces().isEmpty() || !resource.namespaced())
					? java.util.Collections.singletonList(null) : informer.spec().namespaces();
			for (String namespace : namespaces) {
				String continueToken = null;
				do {
					ListOptions options = new ListOptions();
					options.setLabelSelector(selector);
					options.setLimit(this.pageSize);
					options.setContinue(continueToken);
					KubernetesApiResponse<DynamicKubernetesListObject> listed = (namespace != null)
							? api.list(namespace, options) : api.list(options);
					if (!listed.isSuccess()) {
						logger.warn("Could not list " + resource + " labelled for departed shard members: HTTP "
								+ listed.getHttpStatusCode());
						complete = false;
						break;
					}
					List<Runnable> labels = new ArrayList<>();
					for (DynamicKubernetesObject object : listed.getObject().getItems()) {
						String owner = ring.owner(this.shardKeys.apply(object));
						if (owner != null) {
							labels.add(() -> label(resource, object.getMetadata(), owner));
						}
					}
					writeAll(labels);
					continueToken = (listed.getObject().getMetadata() != null)
							? listed.getObject().getMetadata().getContinue() : null;
				}
				while (continueToken != null && !continueToken.isEmpty());
			}
		}
		return complete;
	}

	/**
	 * Returns a sharded informer's own label selector, without its shard label, and the
	 * given requirements.
	 */
	private String selector(InformerSpec<?> sharded, String requirements) {
		String own = sharded.labelSelector();
		if (own == null) {
			return requirements;
		}
		String kept = Arrays.stream(own.split(","))
			.filter((requirement) -> !requirement.trim().startsWith(this.labelKey + "="))
			.collect(Collectors.joining(","));
		return kept.isBlank() ? requirements : kept + "," + requirements;
	}

	/**
	 * Sets the page size of the lists of objects labelled for departed members, for
	 * tests.
	 */
	void pageSize(int pageSize) {
		this.pageSize = pageSize;
	}

	/**
	 * Returns how many objects this member labelled.
	 * @return the number of labels written
	 */
	public long relabelled() {
		return this.relabelled.get();
	}

	/**
	 * Stops labelling.
	 */
	void shutdown() {
		this.executor.shutdownNow();
		this.writers.shutdownNow();
		try {
			this.executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Sets an object's shard label, unless it changed since it was read: the
	 * resourceVersion in a merge patch is a precondition.
	 */
	private void label(ResourceKind resource, V1ObjectMeta metadata, String owner) {
		DynamicKubernetesApi api = new DynamicKubernetesApi(resource.group(), resource.version(), resource.plural(),
				this.client);
		String patch = "{\"metadata\":{\"resourceVersion\":\"" + metadata.getResourceVersion() + "\",\"labels\":{\""
				+ this.labelKey + "\":\"" + owner + "\"}}}";
		V1Patch body = new V1Patch(patch);
		KubernetesApiResponse<DynamicKubernetesObject> response = (metadata.getNamespace() != null)
				? api.patch(metadata.getNamespace(), metadata.getName(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, body)
				: api.patch(metadata.getName(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, body);
		if (response.isSuccess()) {
			this.relabelled.incrementAndGet();
		}
		else if (response.getHttpStatusCode() != 409 && response.getHttpStatusCode() != 404) {
			// a conflict or a delete: the object changed, the next pass sees it anew
			logger.warn("Could not label " + resource + " " + metadata.getNamespace() + "/" + metadata.getName()
					+ " for shard " + owner + ": HTTP " + response.getHttpStatusCode());
		}
	}

	@Override
	public String toString() {
		return "ShardLabels[" + this.labelKey + ", " + new ArrayList<>(this.informers.get()).size() + " informers]";
	}

}
