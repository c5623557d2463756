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

package io.github.kubeop.sample;

// tag::imports[]
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.handler.HandlerContext;
import io.github.kubeop.handler.Trigger;
import io.github.kubeop.informer.DynamicObjects;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapVolumeSource;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.custom.IntOrString;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;
// end::imports[]

/**
 * Reconciles each {@link StaticSite} into a ConfigMap of its pages, an nginx Deployment
 * and a Service, all owned by the site; repairs drift in them (a deleted or edited
 * Deployment comes back); reports {@code observedGeneration} and a {@code Ready}
 * condition in the status, {@code True} only once the Deployment reports as many
 * available replicas as the site asks for (its status changes reach the site through
 * {@code @Owns}); and, through a finalizer, withdraws the site from the
 * {@link SiteDirectory} and deletes what it created before the site goes away. Reads come
 * from the informers' typed Listers, never from the API server.
 *
 * @author Kubeop authors
 */
// tag::handlers[]
@Component
@Owns(value = V1Deployment.class, informer = "deployments")
@Owns(value = V1Service.class, informer = "services")
@Owns(value = V1ConfigMap.class, informer = "configMaps")
class StaticSiteReconciler {

	static final String FINALIZER = "sample.kubeop.io/cleanup";

	static final String MANAGED_BY = "app.kubernetes.io/managed-by";

	static final String OPERATOR = "kubeop-sample-operator";

	static final String SITE_LABEL = "sample.kubeop.io/site";

	private static final Log logger = LogFactory.getLog(StaticSiteReconciler.class);

	private final Lister<V1Deployment> deployments;

	private final Lister<V1Service> services;

	private final Lister<V1ConfigMap> configMaps;

	private final SiteDirectory directory;

	private final AppsV1Api apps;

	private final CoreV1Api core;

	private final DynamicKubernetesApi sites;

	StaticSiteReconciler(ApiClient client, Lister<V1Deployment> deployments, Lister<V1Service> services,
			Lister<V1ConfigMap> configMaps, SiteDirectory directory) {
		this.deployments = deployments;
		this.services = services;
		this.configMaps = configMaps;
		this.directory = directory;
		this.apps = new AppsV1Api(client);
		this.core = new CoreV1Api(client);
		this.sites = new DynamicKubernetesApi("sample.kubeop.io", "v1alpha1", "staticsites", client);
	}

	@OnAdd(informer = "staticSites")
	Duration added(DynamicKubernetesObject site) throws ApiException {
		return reconcileOrRetrySoon(site);
	}

	@OnUpdate(informer = "staticSites")
	Duration changed(DynamicKubernetesObject site, HandlerContext context) throws ApiException {
		if (context.trigger() == Trigger.OWNER) {
			logger.info("An object owned by site " + context.key() + " changed; checking for drift");
		}
		return reconcileOrRetrySoon(site);
	}

	/**
	 * Reconciles, and treats a write conflict (the cache was a step behind) as routine:
	 * the call is simply repeated once the cache has caught up, instead of counting as a
	 * failure.
	 */
	private Duration reconcileOrRetrySoon(DynamicKubernetesObject site) throws ApiException {
		try {
			reconcile(site);
			return null;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 409) {
				return Duration.ofMillis(200);
			}
			throw ex;
		}
	}

	@OnDelete(informer = "staticSites")
	void deleted(DynamicKubernetesObject site) {
		logger.info("Site " + key(site.getMetadata()) + " is gone");
	}
	// end::handlers[]

	void reconcile(DynamicKubernetesObject object) throws ApiException {
		StaticSite site = DynamicObjects.convert(object, StaticSite.class);
		V1ObjectMeta meta = site.metadata();
		List<String> finalizers = (meta.getFinalizers() != null) ? meta.getFinalizers() : List.of();
		if (meta.getDeletionTimestamp() != null) {
			if (finalizers.contains(FINALIZER)) {
				cleanUp(meta);
				setFinalizers(object, finalizers.stream().filter((f) -> !f.equals(FINALIZER)).toList());
			}
			return;
		}
		if (!finalizers.contains(FINALIZER)) {
			List<String> withOurs = new ArrayList<>(finalizers);
			withOurs.add(FINALIZER);
			setFinalizers(object, withOurs);
			return;
		}
		V1OwnerReference owner = new V1OwnerReference().apiVersion(StaticSite.API_VERSION)
			.kind("StaticSite")
			.name(meta.getName())
			.uid(meta.getUid())
			.controller(true)
			.blockOwnerDeletion(true);
		Map<String, String> pages = (site.spec().pages() != null) ? new TreeMap<>(site.spec().pages()) : Map.of();
		ensureConfigMap(meta, owner, pages);
		V1Deployment deployment = ensureDeployment(meta, owner, site.spec(), hash(pages));
		ensureService(meta, owner);
		String url = "http://" + meta.getName() + "." + meta.getNamespace() + ".svc";
		this.directory.publish(key(meta), url);
		updateStatus(object, site, url, readiness(desiredReplicas(site.spec()), deployment));
	}

	/**
	 * Tells from the Deployment, as last seen by the informer, whether the site serves:
	 * the Deployment controller must have observed the current template and reported the
	 * desired number of available replicas.
	 */
	static Readiness readiness(int desired, V1Deployment deployment) {
		if (deployment == null || deployment.getStatus() == null) {
			return new Readiness(false, "DeploymentPending", "0 of " + desired + " replicas available");
		}
		V1DeploymentStatus status = deployment.getStatus();
		int available = (status.getAvailableReplicas() != null) ? status.getAvailableReplicas() : 0;
		boolean observed = status.getObservedGeneration() != null
				&& status.getObservedGeneration() >= deployment.getMetadata().getGeneration();
		boolean updated = ((status.getUpdatedReplicas() != null) ? status.getUpdatedReplicas() : 0) >= desired;
		String message = available + " of " + desired + " replicas available";
		if (observed && updated && available >= desired) {
			return new Readiness(true, "ReplicasAvailable", message);
		}
		return new Readiness(false, "ReplicasUnavailable", message);
	}

	private static int desiredReplicas(StaticSite.Spec spec) {
		return (spec.replicas() != null) ? spec.replicas() : 1;
	}

	private void ensureConfigMap(V1ObjectMeta site, V1OwnerReference owner, Map<String, String> pages)
			throws ApiException {
		String name = site.getName() + "-pages";
		V1ConfigMap existing = this.configMaps.namespace(site.getNamespace()).get(name);
		V1ConfigMap desired = new V1ConfigMap().metadata(owned(site, name, owner)).data(pages);
		if (existing == null) {
			this.core.createNamespacedConfigMap(site.getNamespace(), desired).execute();
			logger.info("Created ConfigMap " + site.getNamespace() + "/" + name);
		}
		else if (!Objects.equals(existing.getData(), pages)) {
			desired.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
			this.core.replaceNamespacedConfigMap(name, site.getNamespace(), desired).execute();
			logger.info("Updated the pages of " + site.getNamespace() + "/" + name);
		}
	}

	private V1Deployment ensureDeployment(V1ObjectMeta site, V1OwnerReference owner, StaticSite.Spec spec,
			String pagesHash) throws ApiException {
		String name = site.getName();
		int replicas = desiredReplicas(spec);
		String image = (spec.image() != null) ? spec.image() : "nginx:1.27-alpine";
		V1Deployment existing = this.deployments.namespace(site.getNamespace()).get(name);
		if (existing != null && existing.getSpec().getReplicas() == replicas
				&& image.equals(existing.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
				&& pagesHash.equals(
						existing.getSpec().getTemplate().getMetadata().getAnnotations().get(SITE_LABEL + "-pages"))) {
			return existing;
		}
		Map<String, String> selector = Map.of(SITE_LABEL, name);
		V1PodSpec pod = new V1PodSpec()
			.addContainersItem(new V1Container().name("nginx")
				.image(image)
				.addPortsItem(new V1ContainerPort().name("http").containerPort(80))
				.addVolumeMountsItem(new V1VolumeMount().name("pages").mountPath("/usr/share/nginx/html")))
			.addVolumesItem(new V1Volume().name("pages").configMap(new V1ConfigMapVolumeSource().name(name + "-pages")))
			// the generated model sends an empty overhead map, which the API server
			// rejects for
			// pods without a RuntimeClass: the Deployment would never get its pods
			.overhead(null);
		V1Deployment desired = new V1Deployment().metadata(owned(site, name, owner))
			.spec(new V1DeploymentSpec().replicas(replicas)
				.selector(new V1LabelSelector().matchLabels(selector))
				.template(new V1PodTemplateSpec()
					.metadata(new V1ObjectMeta().labels(selector).annotations(Map.of(SITE_LABEL + "-pages", pagesHash)))
					.spec(pod)));
		if (existing == null) {
			V1Deployment created = this.apps.createNamespacedDeployment(site.getNamespace(), desired).execute();
			logger.info("Created Deployment " + site.getNamespace() + "/" + name + " with " + replicas + " replicas");
			return created;
		}
		desired.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
		V1Deployment rolled = this.apps.replaceNamespacedDeployment(name, site.getNamespace(), desired).execute();
		logger.info("Rolled Deployment " + site.getNamespace() + "/" + name + " to " + replicas + " replicas");
		return rolled;
	}

	private void ensureService(V1ObjectMeta site, V1OwnerReference owner) throws ApiException {
		String name = site.getName();
		if (this.services.namespace(site.getNamespace()).get(name) != null) {
			return;
		}
		V1Service desired = new V1Service().metadata(owned(site, name, owner))
			.spec(new V1ServiceSpec().selector(Map.of(SITE_LABEL, name))
				.addPortsItem(new V1ServicePort().name("http").port(80).targetPort(new IntOrString("http"))));
		this.core.createNamespacedService(site.getNamespace(), desired).execute();
		logger.info("Created Service " + site.getNamespace() + "/" + name);
	}

	private void cleanUp(V1ObjectMeta site) throws ApiException {
		this.directory.withdraw(key(site));
		String namespace = site.getNamespace();
		// the garbage collector would delete owned objects too; deleting them here makes
		// the cleanup complete even where none runs, and before the finalizer is released
		deleteIgnoringMissing(() -> this.apps.deleteNamespacedDeployment(site.getName(), namespace).execute());
		deleteIgnoringMissing(() -> this.core.deleteNamespacedService(site.getName(), namespace).execute());
		deleteIgnoringMissing(
				() -> this.core.deleteNamespacedConfigMap(site.getName() + "-pages", namespace).execute());
		logger.info("Cleaned up after site " + key(site) + ": withdrawn from the directory, owned objects deleted");
	}

	private void setFinalizers(DynamicKubernetesObject object, List<String> finalizers) throws ApiException {
		JsonObject raw = object.getRaw().deepCopy();
		raw.getAsJsonObject("metadata").add("finalizers", new Gson().toJsonTree(finalizers));
		this.sites.update(new DynamicKubernetesObject(raw)).throwsApiException();
	}

	private void updateStatus(DynamicKubernetesObject object, StaticSite site, String url, Readiness readiness)
			throws ApiException {
		long generation = site.metadata().getGeneration();
		StaticSite.Status current = site.status();
		StaticSite.Condition currentReady = readyCondition(current);
		String conditionStatus = readiness.ready() ? "True" : "False";
		if (current != null && Objects.equals(current.observedGeneration(), generation) && url.equals(current.url())
				&& currentReady != null && conditionStatus.equals(currentReady.status())
				&& readiness.reason().equals(currentReady.reason())
				&& readiness.message().equals(currentReady.message())) {
			return;
		}
		JsonObject status = new JsonObject();
		status.addProperty("observedGeneration", generation);
		status.addProperty("url", url);
		JsonObject ready = new JsonObject();
		ready.addProperty("type", "Ready");
		ready.addProperty("status", conditionStatus);
		ready.addProperty("reason", readiness.reason());
		ready.addProperty("message", readiness.message());
		ready.addProperty("observedGeneration", generation);
		// Kubernetes' rule: the transition time moves only when the status does
		boolean transition = currentReady == null || !conditionStatus.equals(currentReady.status())
				|| currentReady.lastTransitionTime() == null;
		ready.addProperty("lastTransitionTime",
				transition ? OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString()
						: currentReady.lastTransitionTime());
		JsonArray conditions = new JsonArray();
		conditions.add(ready);
		status.add("conditions", conditions);
		JsonObject raw = object.getRaw().deepCopy();
		raw.add("status", status);
		KubernetesApiResponse<DynamicKubernetesObject> response = this.sites
			.updateStatus(new DynamicKubernetesObject(raw), (o) -> o.getRaw().get("status"));
		response.throwsApiException();
		logger.info("Site " + key(site.metadata()) + (readiness.ready() ? " is Ready" : " is not Ready yet")
				+ " at generation " + generation + ": " + readiness.message());
	}

	private static StaticSite.Condition readyCondition(StaticSite.Status status) {
		if (status == null || status.conditions() == null) {
			return null;
		}
		return status.conditions().stream().filter((c) -> "Ready".equals(c.type())).findFirst().orElse(null);
	}

	private static V1ObjectMeta owned(V1ObjectMeta site, String name, V1OwnerReference owner) {
		return new V1ObjectMeta().name(name)
			.namespace(site.getNamespace())
			.labels(Map.of(MANAGED_BY, OPERATOR, SITE_LABEL, site.getName()))
			.ownerReferences(List.of(owner));
	}

	private static String hash(Map<String, String> pages) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			pages.forEach((file, content) -> {
				digest.update(file.getBytes(StandardCharsets.UTF_8));
				digest.update(content.getBytes(StandardCharsets.UTF_8));
			});
			return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String key(V1ObjectMeta metadata) {
		return metadata.getNamespace() + "/" + metadata.getName();
	}

	private static void deleteIgnoringMissing(Deletion deletion) throws ApiException {
		try {
			deletion.delete();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
		}
	}

	/**
	 * Whether a site serves, with the reason and message of its {@code Ready} condition.
	 *
	 * @param ready whether the desired replicas are available
	 * @param reason a machine-readable reason
	 * @param message a human-readable message
	 */
	record Readiness(boolean ready, String reason, String message) {

	}

	@FunctionalInterface
	private interface Deletion {

		void delete() throws ApiException;

	}

}
