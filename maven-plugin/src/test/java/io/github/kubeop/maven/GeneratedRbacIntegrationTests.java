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

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.JsonParser;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.References;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopProperties;
import io.github.kubeop.handler.HandlerContext;
import io.github.kubeop.handler.Trigger;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ClusterRole {@link RbacGenerator} writes for an operator, bound to a user that has
 * no other permission: a Kubeop context running as that user starts its informers, wins
 * its Lease and handles objects; without one of the generated rules it cannot start.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class GeneratedRbacIntegrationTests {

	private static List<KubeopProperties> configuration;

	@BeforeAll
	static void installDefinition(ApiClient admin) throws Exception {
		new Manifests(admin).apply(new CrdGenerator().yaml(Gateway.class), null);
		Path operator = new ClassPathResource("io/github/kubeop/maven/operator/application.yaml").getFile()
			.toPath()
			.getParent();
		configuration = OperatorClasses.properties(operator, GeneratedRbacIntegrationTests.class.getClassLoader());
	}

	@Test
	void generatedRoleLetsTheOperatorSyncLeadAndHandle(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) {
		String user = "generated-rbac-operator";
		bind(admin, generatedRole(), user);
		GatewayHandler handler = new GatewayHandler();
		runner(controlPlane.apiClientFor(user), namespace).withBean(GatewayHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(admin, namespace, "served");
				await().atMost(Duration.ofSeconds(30)).until(() -> handler.added.contains("served"));
			});
	}

	@Test
	void generatedRoleLetsAReferencedOnlyCacheLoadTheSecretAGatewayNames(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) throws Exception {
		String user = "generated-rbac-referencing-operator";
		bind(admin, generatedRole(ReferencingGatewayHandler.class), user);
		ReferencingGatewayHandler handler = new ReferencingGatewayHandler();
		runner(controlPlane.apiClientFor(user), namespace).withBean(ReferencingGatewayHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(admin, namespace, "referencing");
				await().atMost(Duration.ofSeconds(30)).until(() -> handler.added.contains("referencing"));
				// named by spec.host, created after the Gateway: loaded and mapped as the
				// generated role allows
				new CoreV1Api(admin)
					.createNamespacedSecret(namespace.name(),
							new V1Secret().metadata(new V1ObjectMeta().name("a.example")).stringData(Map.of("k", "v")))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> handler.referenced.contains("referencing"));
			});
	}

	@Test
	void roleWithoutTheInformerRuleKeepsTheOperatorFromStarting(ControlPlane controlPlane, ApiClient admin,
			TestNamespace namespace) {
		String user = "generated-rbac-operator-without-deployments";
		ObjectNode role = generatedRole();
		ArrayNode rules = (ArrayNode) role.get("rules");
		for (int i = rules.size() - 1; i >= 0; i--) {
			if (text(rules.get(i).get("resources")).contains("deployments")) {
				rules.remove(i);
			}
		}
		bind(admin, role, user);
		runner(controlPlane.apiClientFor(user), namespace).withBean(GatewayHandler.class, GatewayHandler::new)
			.run((context) -> assertThat(context).getFailure()
				// list or watch: the first request is a watch-list where the server
				// offers it
				.hasStackTraceContaining("is forbidden")
				.hasStackTraceContaining("resource \"deployments\" in API group \"apps\""));
	}

	private static ObjectNode generatedRole() {
		return generatedRole(GatewayHandler.class);
	}

	private static ObjectNode generatedRole(Class<?> handlerClass) {
		RbacGenerator generator = new RbacGenerator(List.of(Gateway.class));
		generator.handler(handlerClass);
		configuration.forEach(generator::properties);
		return generator.clusterRole("unused");
	}

	private static ApplicationContextRunner runner(ApiClient client, TestNamespace namespace) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
					KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.informers.sync-timeout=20s",
					"kubeop.informers.resources.deployments.api-version=apps/v1",
					"kubeop.informers.resources.deployments.kind=Deployment", "kubeop.leader-election.enabled=true",
					"kubeop.leader-election.lease-name=generated-rbac",
					"kubeop.leader-election.lease-namespace=" + namespace.name());
	}

	// the role as generated, named and bound for one user
	private static void bind(ApiClient admin, ObjectNode role, String user) {
		((ObjectNode) role.get("metadata")).put("name", user);
		String binding = """
				apiVersion: rbac.authorization.k8s.io/v1
				kind: ClusterRoleBinding
				metadata:
				  name: %1$s
				roleRef:
				  apiGroup: rbac.authorization.k8s.io
				  kind: ClusterRole
				  name: %1$s
				subjects:
				- apiGroup: rbac.authorization.k8s.io
				  kind: User
				  name: %1$s
				""".formatted(user);
		new Manifests(admin).apply(role.toString() + "\n---\n" + binding, null);
	}

	private static void create(ApiClient admin, TestNamespace namespace, String name) {
		DynamicKubernetesObject gateway = new DynamicKubernetesObject();
		gateway.setApiVersion("crdgen.kubeop.test/v1");
		gateway.setKind("Gateway");
		gateway.setMetadata(new V1ObjectMeta().name(name).namespace(namespace.name()));
		gateway.getRaw().add("spec", JsonParser.parseString("{\"host\":\"a.example\"}"));
		assertThat(new DynamicKubernetesApi("crdgen.kubeop.test", "v1", "gateways", admin).create(gateway).isSuccess())
			.isTrue();
	}

	private static Set<String> text(JsonNode array) {
		Set<String> values = new HashSet<>();
		array.forEach((value) -> values.add(value.asText()));
		return values;
	}

	/**
	 * A handler of gateways that owns config maps.
	 */
	@Owns(V1ConfigMap.class)
	static class GatewayHandler {

		final List<String> added = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(Gateway gateway) {
			this.added.add(gateway.getMetadata().getName());
		}

	}

	/**
	 * A handler of gateways that reference a Secret by their host, caching referenced
	 * Secrets only.
	 */
	@References(value = V1Secret.class, path = "spec.host", referencedOnly = true)
	static class ReferencingGatewayHandler {

		final List<String> added = new CopyOnWriteArrayList<>();

		final List<String> referenced = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(Gateway gateway) {
			this.added.add(gateway.getMetadata().getName());
		}

		@OnUpdate
		void changed(Gateway gateway, HandlerContext context) {
			if (context.trigger() == Trigger.REFERENCE) {
				this.referenced.add(gateway.getMetadata().getName());
			}
		}

	}

}
