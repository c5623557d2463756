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

package io.github.kubeop.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.actuate.InformersEndpoint;
import io.github.kubeop.autoconfigure.actuate.KubeopEndpointAutoConfiguration;
import io.github.kubeop.autoconfigure.health.KubeopHealthContributorAutoConfiguration;
import io.github.kubeop.autoconfigure.metrics.KubeopMetricsAutoConfiguration;
import io.github.kubeop.health.ShardingHealthIndicator;
import io.github.kubeop.shard.ShardingException;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.kubeop.autoconfigure.InformerConfigurationFailureTests.rootCause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the sharding configuration against a real API server: what cannot work fails
 * startup naming the property or permission, and a working replica reports its shard in
 * health and meters.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ShardingConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
						KubeopHandlersAutoConfiguration.class, KubeopMetricsAutoConfiguration.class,
						KubeopHealthContributorAutoConfiguration.class, KubeopEndpointAutoConfiguration.class))
		.withBean(Handler.class);

	@Test
	void leaseNamespaceThatDoesNotExistNamesTheProperty(ControlPlane controlPlane, TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.sharding.enabled=true",
					"kubeop.sharding.lease-namespace=no-such-namespace")
			.run((context) -> {
				ShardingException failure = rootCause(context.getStartupFailure(), ShardingException.class);
				assertThat(failure.getMessage()).contains("'no-such-namespace'")
					.contains("kubeop.sharding.lease-namespace");
				FailureAnalysis analysis = new ShardingFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).contains("kubeop.sharding.lease-namespace");
			});
	}

	@Test
	void shardingBesideLeaderElectionNamesBothProperties(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.sharding.enabled=true", "kubeop.leader-election.enabled=true")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.sharding.enabled");
				assertThat(failure.getReason()).contains("kubeop.leader-election.enabled");
			});
	}

	@Test
	void timingsThatLetOthersTakeTheKeysOfACutOffMemberTooSoonNameTheProperty(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.sharding.enabled=true", "kubeop.sharding.lease-duration=15s",
					"kubeop.sharding.renew-deadline=14s", "kubeop.sharding.retry-period=10s")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.sharding.lease-duration");
				assertThat(failure.getReason()).contains("kubeop.sharding.renew-deadline")
					.contains("kubeop.sharding.retry-period")
					.contains("24s");
			});
	}

	@Test
	void labelsModeWithoutInformersNamesTheProperty(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.sharding.enabled=true", "kubeop.sharding.mode=labels",
					"kubeop.sharding.identity=replica-1")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.sharding.informers");
			});
	}

	@Test
	void labelsModeWithoutPermissionToLabelNamesThePermission(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		String user = "sharder-without-patch";
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(controlPlane.apiClient());
		rbac.createNamespacedRole(namespace.name(),
				new V1Role().metadata(new V1ObjectMeta().name(user))
					.rules(List.of(
							new V1PolicyRule().apiGroups(List.of(""))
								.resources(List.of("configmaps"))
								.verbs(List.of("get", "list", "watch")),
							new V1PolicyRule().apiGroups(List.of("coordination.k8s.io"))
								.resources(List.of("leases"))
								.verbs(List.of("get", "list", "create", "update", "delete")))))
			.execute();
		rbac.createNamespacedRoleBinding(namespace.name(),
				new V1RoleBinding().metadata(new V1ObjectMeta().name(user))
					.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(user))
					.subjects(List.of(new RbacV1Subject().kind("User").name(user))))
			.execute();
		this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientFor(user))
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.configMaps.api-version=v1",
					"kubeop.informers.resources.configMaps.kind=ConfigMap", "kubeop.sharding.enabled=true",
					"kubeop.sharding.mode=labels", "kubeop.sharding.informers=configMaps",
					"kubeop.sharding.identity=replica-1", "kubeop.sharding.lease-namespace=" + namespace.name())
			.run((context) -> {
				ShardingException failure = rootCause(context.getStartupFailure(), ShardingException.class);
				assertThat(failure.getMessage())
					.contains("'patch' verb on configmaps in namespace " + namespace.name());
			});
	}

	@Test
	void healthMetersAndTheEndpointShowTheReplicasShard(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		for (int i = 0; i < 3; i++) {
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("shard-" + i)).data(Map.of("k", "v")))
				.execute();
		}
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.sharding.enabled=true",
					"kubeop.sharding.name=observed", "kubeop.sharding.identity=only",
					"kubeop.sharding.lease-namespace=" + namespace.name(), "kubeop.sharding.lease-duration=4s",
					"kubeop.sharding.renew-deadline=3s", "kubeop.sharding.retry-period=500ms",
					"management.endpoints.web.exposure.include=informers")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ShardingHealthIndicator health = context.getBean(ShardingHealthIndicator.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> health.health(true).getStatus() == Status.UP);
				Health up = health.health(true);
				assertThat(up.getDetails()).containsEntry("identity", "only")
					.containsEntry("members", List.of("only"))
					.containsEntry("keys", 3)
					.containsEntry("movedIn", 3L);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				assertThat(meters.get("kubeop.sharding.keys").tag("name", "observed").gauge().value()).isEqualTo(3);
				assertThat(meters.get("kubeop.sharding.members").gauge().value()).isEqualTo(1);
				assertThat(meters.get("kubeop.sharding.moves").tag("direction", "in").functionCounter().count())
					.isEqualTo(3);
				Map<String, Object> endpoint = context.getBean(InformersEndpoint.class).informers();
				assertThat(endpoint).containsKey("sharding");
				@SuppressWarnings("unchecked")
				Map<String, Object> ring = (Map<String, Object>) endpoint.get("sharding");
				assertThat(ring).containsEntry("group", "observed")
					.containsEntry("members", List.of("only"))
					.containsEntry("acknowledged", Map.of("only", ring.get("generation")));
			});
	}

	/**
	 * A handler, so that there are keys to shard.
	 */
	static class Handler {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

	}

}
