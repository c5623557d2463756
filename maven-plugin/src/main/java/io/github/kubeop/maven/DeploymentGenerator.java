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

package io.github.kubeop.maven;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Writes what runs the operator in a cluster, beside its CRDs and RBAC: its Namespace, a
 * Deployment of the operator's image under its service account, with the actuator's
 * liveness and readiness probes (and a startup probe on liveness, so that a slow JVM
 * start is not taken for a dead one), resource requests and a memory limit, and, when
 * leader election is on, the environment that turns it on and a Role with the Lease
 * permissions it needs in the operator's namespace.
 *
 * @author Kubeop authors
 */
final class DeploymentGenerator {

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	static final String LIVENESS = "/actuator/health/liveness";

	static final String READINESS = "/actuator/health/readiness";

	private final String name;

	private final String namespace;

	private final String serviceAccount;

	private final String image;

	private final int replicas;

	private final boolean leaderElection;

	private final int managementPort;

	private final String cpuRequest;

	private final String memory;

	/**
	 * Creates a new instance.
	 * @param name the Deployment's name, a DNS label
	 * @param serviceAccount {@code <namespace>/<name>} of the service account it runs as,
	 * whose namespace is the operator's
	 * @param image the container image
	 * @param replicas the number of replicas
	 * @param leaderElection whether to turn leader election on and grant its Lease
	 * permissions
	 * @param managementPort the port the actuator's health endpoints are served on
	 * @param cpuRequest the CPU request, such as {@code 100m}
	 * @param memory the memory request, which is also the limit, such as {@code 512Mi}
	 */
	DeploymentGenerator(String name, String serviceAccount, String image, int replicas, boolean leaderElection,
			int managementPort, String cpuRequest, String memory) {
		String[] account = serviceAccount.trim().split("/");
		if (account.length != 2 || !DNS_LABEL.matcher(name).matches()) {
			throw new IllegalArgumentException("The Deployment needs <serviceAccount> as <namespace>/<name> and a "
					+ "DNS label as <deploymentName>: got '" + serviceAccount + "' and '" + name + "'");
		}
		if (image == null || image.isBlank()) {
			throw new IllegalArgumentException("The Deployment needs an <image>");
		}
		this.name = name;
		this.namespace = account[0];
		this.serviceAccount = account[1];
		this.image = image.trim();
		this.replicas = replicas;
		this.leaderElection = leaderElection;
		this.managementPort = managementPort;
		this.cpuRequest = cpuRequest;
		this.memory = memory;
	}

	/**
	 * Returns the objects as one YAML stream: the Namespace, the Deployment and, with
	 * leader election, its Role and RoleBinding.
	 * @return the YAML
	 */
	String yaml() {
		List<Map<String, Object>> objects = new ArrayList<>();
		objects.add(object("v1", "Namespace", this.namespace, null));
		objects.add(deployment());
		if (this.leaderElection) {
			Map<String, Object> role = object("rbac.authorization.k8s.io/v1", "Role", this.name + "-leader-election",
					this.namespace);
			role.put("rules", List.of(map("apiGroups", List.of("coordination.k8s.io"), "resources", List.of("leases"),
					"verbs", List.of("get", "create", "update"))));
			objects.add(role);
			Map<String, Object> binding = object("rbac.authorization.k8s.io/v1", "RoleBinding",
					this.name + "-leader-election", this.namespace);
			binding.put("roleRef", map("apiGroup", "rbac.authorization.k8s.io", "kind", "Role", "name",
					this.name + "-leader-election"));
			binding.put("subjects",
					List.of(map("kind", "ServiceAccount", "name", this.serviceAccount, "namespace", this.namespace)));
			objects.add(binding);
		}
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		options.setIndicatorIndent(0);
		return new Yaml(options).dumpAll(objects.iterator());
	}

	private Map<String, Object> deployment() {
		Map<String, Object> container = new LinkedHashMap<>();
		container.put("name", "operator");
		container.put("image", this.image);
		if (this.leaderElection) {
			// the Lease lives in the operator's own namespace, which the Role covers
			container.put("env",
					List.of(map("name", "KUBEOP_LEADER_ELECTION_ENABLED", "value", "true"),
							map("name", "KUBEOP_LEADER_ELECTION_LEASE_NAMESPACE", "valueFrom",
									map("fieldRef", map("fieldPath", "metadata.namespace")))));
		}
		container.put("ports", List.of(map("name", "management", "containerPort", this.managementPort)));
		container.put("startupProbe", probe(LIVENESS, 2, 90));
		container.put("livenessProbe", probe(LIVENESS, 10, 3));
		container.put("readinessProbe", probe(READINESS, 5, 3));
		container.put("resources", map("requests", map("cpu", this.cpuRequest, "memory", this.memory), "limits",
				map("memory", this.memory)));
		container.put("securityContext",
				map("allowPrivilegeEscalation", false, "capabilities", map("drop", List.of("ALL"))));
		Map<String, Object> podSpec = new LinkedHashMap<>();
		podSpec.put("serviceAccountName", this.serviceAccount);
		podSpec.put("securityContext", map("seccompProfile", map("type", "RuntimeDefault")));
		podSpec.put("containers", List.of(container));
		Map<String, Object> deployment = object("apps/v1", "Deployment", this.name, this.namespace);
		deployment.put("metadata", map("name", this.name, "namespace", this.namespace, "labels", labels()));
		deployment.put("spec", map("replicas", this.replicas, "selector", map("matchLabels", labels()), "template",
				map("metadata", map("labels", labels()), "spec", podSpec)));
		return deployment;
	}

	// a new map each time: a shared one would be written as a YAML anchor and aliases
	private Map<String, Object> labels() {
		return map("app.kubernetes.io/name", this.name);
	}

	private static Map<String, Object> probe(String path, int periodSeconds, int failureThreshold) {
		return map("httpGet", map("path", path, "port", "management"), "periodSeconds", periodSeconds,
				"failureThreshold", failureThreshold);
	}

	private static Map<String, Object> object(String apiVersion, String kind, String name, String namespace) {
		Map<String, Object> metadata = map("name", name);
		if (namespace != null) {
			metadata.put("namespace", namespace);
		}
		return map("apiVersion", apiVersion, "kind", kind, "metadata", metadata);
	}

	private static Map<String, Object> map(Object... keysAndValues) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			map.put((String) keysAndValues[i], keysAndValues[i + 1]);
		}
		return map;
	}

}
