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

package io.github.kubeop.webhook;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.ModelMapper;

/**
 * The group, version, kind and plural resource name of the Java type a webhook reads: a
 * typed custom resource (from its {@code @KubernetesResource}) or a generated model (from
 * the client's model mapping, such as {@code V1Pod} for {@code v1 Pod}).
 *
 * @param group the API group, empty for the core group
 * @param version the version
 * @param kind the kind
 * @param plural the plural resource name
 * @author Kubeop authors
 */
public record WebhookResource(String group, String version, String kind, String plural) {

	private static final Map<String, String> BUILT_IN_GROUPS = builtInGroups();

	/**
	 * Returns the resource of a type.
	 * @param type the type
	 * @return the resource, or {@code null} if the type names none
	 */
	public static WebhookResource of(Class<?> type) {
		if (!KubernetesObject.class.isAssignableFrom(type)) {
			return null;
		}
		if (ResourceType.isCustomResource(type)) {
			ResourceType resource = ResourceType.of(type);
			return new WebhookResource(resource.group(), resource.version(), resource.kind(), resource.plural());
		}
		GroupVersionKind gvk = ModelMapper.preBuiltGetGroupVersionKindByClass(type).orElse(null);
		if (gvk == null || gvk.getKind() == null) {
			return null;
		}
		// generated model names carry no group (V1Deployment), and a webhook's rule is
		// written at build time, without a server to ask: the built-in kinds operators
		// admit are listed here
		String group = BUILT_IN_GROUPS.get(gvk.getKind());
		if (group == null) {
			return null;
		}
		String plural = "Endpoints".equals(gvk.getKind()) ? "endpoints"
				: ResourceType.plural(gvk.getKind().toLowerCase(Locale.ROOT));
		return new WebhookResource(group, gvk.getVersion(), gvk.getKind(), plural);
	}

	private static Map<String, String> builtInGroups() {
		Map<String, String> groups = new HashMap<>();
		for (String kind : List.of("Pod", "Service", "ConfigMap", "Secret", "Namespace", "ServiceAccount",
				"PersistentVolumeClaim", "PersistentVolume", "Endpoints", "Node", "LimitRange", "ResourceQuota")) {
			groups.put(kind, "");
		}
		for (String kind : List.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision")) {
			groups.put(kind, "apps");
		}
		groups.put("Job", "batch");
		groups.put("CronJob", "batch");
		groups.put("Ingress", "networking.k8s.io");
		groups.put("NetworkPolicy", "networking.k8s.io");
		groups.put("PodDisruptionBudget", "policy");
		groups.put("HorizontalPodAutoscaler", "autoscaling");
		for (String kind : List.of("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")) {
			groups.put(kind, "rbac.authorization.k8s.io");
		}
		return groups;
	}

	/**
	 * Returns the API version, such as {@code apps/v1}.
	 * @return the API version
	 */
	public String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

}
