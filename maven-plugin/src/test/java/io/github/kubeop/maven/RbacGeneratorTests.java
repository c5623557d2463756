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
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.autoconfigure.KubeopProperties;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Endpoints;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the rules {@link RbacGenerator} collects.
 *
 * @author Kubeop authors
 */
class RbacGeneratorTests {

	@Test
	void typedResourceGetsItsResourceStatusAndFinalizersAndEventsAreAlwaysWritable() {
		Map<String, List<String>> rules = rules(new RbacGenerator(List.of(Gateway.class)));
		assertThat(rules)
			.containsEntry("crdgen.kubeop.test/gateways", List.of("get", "list", "patch", "update", "watch"))
			.containsEntry("crdgen.kubeop.test/gateways/status", List.of("get", "patch", "update"))
			.containsEntry("crdgen.kubeop.test/gateways/finalizers", List.of("update"))
			.containsEntry("events.k8s.io/events", List.of("create", "patch"))
			.hasSize(4);
	}

	@Test
	void handlerReadsWhatItTakesAndManagesWhatItOwnsInTheirApiGroups() {
		RbacGenerator generator = new RbacGenerator(List.of());
		generator.handler(PodHandler.class);
		Map<String, List<String>> rules = rules(generator);
		assertThat(rules).containsEntry("/pods", List.of("get", "list", "watch"))
			.containsEntry("apps/deployments", List.of("create", "delete", "get", "list", "patch", "update", "watch"))
			.containsEntry("/configmaps", List.of("create", "delete", "get", "list", "patch", "update", "watch"))
			.containsEntry("networking.k8s.io/ingresses",
					List.of("create", "delete", "get", "list", "patch", "update", "watch"))
			.containsEntry("/endpoints", List.of("create", "delete", "get", "list", "patch", "update", "watch"));
	}

	@Test
	void informerPropertiesAreReadableByKindOrPluralAndElectionAddsLeases() {
		KubeopProperties properties = new KubeopProperties();
		properties.getInformers().getResources().put("sites", resource("crdgen.kubeop.test/v1", "Gateway"));
		properties.getInformers().getResources().put("secrets", resource("v1", "secrets"));
		properties.getInformers().getResources().put("jobs", resource("batch/v1", "Job"));
		properties.getLeaderElection().setEnabled(true);
		RbacGenerator generator = new RbacGenerator(List.of(Gateway.class));
		generator.properties(properties);
		Map<String, List<String>> rules = rules(generator);
		assertThat(rules)
			.containsEntry("crdgen.kubeop.test/gateways", List.of("get", "list", "patch", "update", "watch"))
			.containsEntry("/secrets", List.of("get", "list", "watch"))
			.containsEntry("batch/jobs", List.of("get", "list", "watch"))
			.containsEntry("coordination.k8s.io/leases", List.of("create", "get", "update"));
	}

	@Test
	void shardingAddsLeaseListingAndDeletion() {
		KubeopProperties properties = new KubeopProperties();
		properties.getSharding().setEnabled(true);
		RbacGenerator generator = new RbacGenerator(List.of());
		generator.properties(properties);
		assertThat(rules(generator)).containsEntry("coordination.k8s.io/leases",
				List.of("create", "delete", "get", "list", "update"));
	}

	@Test
	void shardingByLabelsPatchesTheObjectsOfItsInformers() {
		KubeopProperties properties = new KubeopProperties();
		properties.getInformers().getResources().put("settings", resource("v1", "ConfigMap"));
		properties.getInformers().getResources().put("secrets", resource("v1", "Secret"));
		properties.getSharding().setEnabled(true);
		properties.getSharding().setMode(KubeopProperties.Sharding.Mode.LABELS);
		properties.getSharding().setInformers(List.of("settings"));
		RbacGenerator generator = new RbacGenerator(List.of());
		generator.properties(properties);
		assertThat(rules(generator)).containsEntry("/configmaps", List.of("get", "list", "patch", "watch"))
			.containsEntry("/secrets", List.of("get", "list", "watch"));
	}

	@Test
	void resourcesOfAGroupWithTheSameVerbsShareARule() {
		RbacGenerator generator = new RbacGenerator(List.of());
		generator.rule("", "services", List.of("get", "list"));
		generator.rule("", "configmaps", List.of("list", "get"));
		generator.rule("", "secrets", List.of("get"));
		JsonNode rules = generator.clusterRole("operator").get("rules");
		assertThat(rules.toString()).contains(
				"{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\",\"services\"],\"verbs\":[\"get\",\"list\"]}",
				"{\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],\"verbs\":[\"get\"]}");
		assertThat(generator.yaml("operator"))
			.startsWith("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n");
	}

	private static KubeopProperties.Resource resource(String apiVersion, String kind) {
		KubeopProperties.Resource resource = new KubeopProperties.Resource();
		resource.setApiVersion(apiVersion);
		resource.setKind(kind);
		return resource;
	}

	// "group/resource" -> verbs
	private static Map<String, List<String>> rules(RbacGenerator generator) {
		Map<String, List<String>> rules = new java.util.LinkedHashMap<>();
		for (JsonNode rule : generator.clusterRole("operator").get("rules")) {
			List<String> verbs = new ArrayList<>();
			rule.get("verbs").forEach((verb) -> verbs.add(verb.asText()));
			for (JsonNode group : rule.get("apiGroups")) {
				for (JsonNode resource : rule.get("resources")) {
					rules.put(group.asText() + "/" + resource.asText(), verbs);
				}
			}
		}
		return rules;
	}

	@Owns(V1Deployment.class)
	@Owns(V1ConfigMap.class)
	@Owns(V1Ingress.class)
	@Owns(V1Endpoints.class)
	static class PodHandler {

		@OnUpdate
		void updated(V1Pod oldPod, V1Pod newPod) {
		}

	}

}
