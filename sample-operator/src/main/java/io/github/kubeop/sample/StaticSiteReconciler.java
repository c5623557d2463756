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
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.annotation.References;
import io.github.kubeop.event.EventRecorder;
import io.github.kubeop.write.Conditions;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.*;

import org.springframework.stereotype.Component;
// end::imports[]

/**
 * Serves each {@link StaticSite} from a ConfigMap of its pages, an nginx Deployment and a
 * Service, applied and owned by the site; reports a {@code Ready} condition; withdraws
 * the site from the {@link SiteDirectory} before it goes.
 *
 * @param kubernetes writes to the API server
 * @param deployments the cached Deployments
 * @param events records Kubernetes Events
 * @param directory the system outside the cluster that lists the sites
 * @author Kubeop authors
 */
// tag::reconciler[]
@Component
@Owns(V1Deployment.class)
@Owns(V1Service.class)
@Owns(value = V1ConfigMap.class, informer = "configMaps")
@References(value = V1ConfigMap.class, path = "spec.pagesFrom", informer = "pageSources", referencedOnly = true)
record StaticSiteReconciler(KubernetesTemplate kubernetes, Lister<V1Deployment> deployments, EventRecorder events,
		SiteDirectory directory, Lister<V1ConfigMap> pageSourcesLister) {

	@Reconcile
	void reconcile(StaticSite site) throws ApiException {
		String name = site.getMetadata().getName();
		String namespace = site.getMetadata().getNamespace();
		int replicas = Objects.requireNonNullElse(site.getSpec().replicas(), 1);
		Map<String, String> selector = Map.of("sample.kubeop.io/site", name);
		Map<String, String> pages = new TreeMap<>(site.getSpec().pages());
		String pagesFrom = site.getSpec().pagesFrom();
		V1ConfigMap extra = (pagesFrom != null) ? pageSourcesLister().namespace(namespace).get(pagesFrom) : null;
		if (extra != null && extra.getData() != null) {
			extra.getData().forEach(pages::putIfAbsent); // called again when it appears
															// or changes
		}
		kubernetes().apply(new V1ConfigMap().metadata(meta(site, name + "-pages")).data(pages));
		V1Deployment before = deployments().namespace(namespace).get(name);
		V1Deployment deployment = kubernetes().apply(new V1Deployment().metadata(meta(site, name))
			.spec(new V1DeploymentSpec().replicas(replicas)
				.selector(new V1LabelSelector().matchLabels(selector))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(selector)).spec(pod(site)))));
		if (before == null || !before.getMetadata().getGeneration().equals(deployment.getMetadata().getGeneration())) {
			events().normal(site, "RolledOut", "Rollout", "Deployment " + name + " rolled out with " + replicas
					+ " replicas (generation " + deployment.getMetadata().getGeneration() + ")");
		}
		kubernetes().apply(new V1Service().metadata(meta(site, name))
			.spec(new V1ServiceSpec().selector(selector)
				.addPortsItem(new V1ServicePort().name("http").port(80).targetPort(new IntOrString("http")))));
		String url = "http://" + name + "." + namespace + ".svc";
		directory().publish(namespace + "/" + name, url);
		StaticSite.Status status = site.getStatus();
		kubernetes().applyStatus(site, new StaticSite.Status(null, url,
				Conditions.toApply((status != null) ? status.conditions() : null, ready(replicas, deployment))));
	}

	@Cleanup(finalizer = "sample.kubeop.io/cleanup")
	void cleanup(StaticSite site) {
		directory().withdraw(site.getMetadata().getNamespace() + "/" + site.getMetadata().getName());
	}

	/**
	 * The {@code Ready} condition: {@code True} once the Deployment controller has seen
	 * the current template and reports the desired replicas available.
	 */
	static V1Condition ready(int desired, V1Deployment deployment) {
		V1DeploymentStatus status = deployment.getStatus();
		int available = (status != null) ? Objects.requireNonNullElse(status.getAvailableReplicas(), 0) : 0;
		boolean current = status != null && status.getObservedGeneration() != null
				&& status.getObservedGeneration() >= deployment.getMetadata().getGeneration()
				&& Objects.requireNonNullElse(status.getUpdatedReplicas(), 0) >= desired;
		boolean ready = current && available >= desired;
		return new V1Condition().type("Ready")
			.status(ready ? "True" : "False")
			.reason(ready ? "ReplicasAvailable" : "ReplicasUnavailable")
			.message(available + " of " + desired + " replicas available")
			.observedGeneration(deployment.getMetadata().getGeneration());
	}

	private static V1PodSpec pod(StaticSite site) {
		V1Container nginx = new V1Container().name("nginx")
			.image(Objects.requireNonNullElse(site.getSpec().image(), "nginx:1.27-alpine"))
			.addPortsItem(new V1ContainerPort().name("http").containerPort(80))
			.addVolumeMountsItem(new V1VolumeMount().name("pages").mountPath("/usr/share/nginx/html"));
		return new V1PodSpec().addContainersItem(nginx)
			.addVolumesItem(new V1Volume().name("pages")
				.configMap(new V1ConfigMapVolumeSource().name(site.getMetadata().getName() + "-pages")));
	}

	private static V1ObjectMeta meta(StaticSite site, String name) {
		return new V1ObjectMeta().name(name)
			.namespace(site.getMetadata().getNamespace())
			.labels(Map.of("app.kubernetes.io/managed-by", "kubeop-sample-operator"));
	}

}
// end::reconciler[]
