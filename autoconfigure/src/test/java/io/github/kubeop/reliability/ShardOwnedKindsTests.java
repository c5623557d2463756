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

package io.github.kubeop.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.ShardingLifecycle;
import io.github.kubeop.shard.ShardMember;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.ResolvableType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sharding in the labels mode when a handled kind is owned by another handled kind: the
 * owned object is labelled with its owner's shard, and the handler of its own kind on
 * that replica handles it: the label and every handler's gate go by one key.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ShardOwnedKindsTests {

	private static final String LABEL = "shard.kubeop.io/owned-kinds";

	private static final List<String> REPLICAS = List.of("a", "b", "c");

	@Test
	void anOwnedObjectOfAHandledKindIsHandledByTheReplicaOfItsOwner(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace) throws Exception {
		Map<String, Set<String>> handledBy = new ConcurrentHashMap<>();
		List<ConfigurableApplicationContext> replicas = new ArrayList<>();
		try {
			for (String identity : REPLICAS) {
				replicas.add(start(controlPlane.apiClient(), namespace, handledBy, identity));
			}
			awaitWorkingTogether(replicas);
			CoreV1Api api = new CoreV1Api(client);
			int count = 12;
			for (int i = 0; i < count; i++) {
				V1ConfigMap owner = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name("owner-" + i)))
					.execute();
				api.createNamespacedSecret(namespace.name(),
						new V1Secret().metadata(new V1ObjectMeta().name("owned-" + i)
							.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
								.kind("ConfigMap")
								.name(owner.getMetadata().getName())
								.uid(owner.getMetadata().getUid())
								.controller(true)))))
					.execute();
			}
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(handledBy.keySet()).as("owned Secrets handled").hasSize(count));
			for (int i = 0; i < count; i++) {
				String ownerShard = api.readNamespacedConfigMap("owner-" + i, namespace.name())
					.execute()
					.getMetadata()
					.getLabels()
					.get(LABEL);
				V1Secret owned = api.readNamespacedSecret("owned-" + i, namespace.name()).execute();
				assertThat(owned.getMetadata().getLabels()).as("labels of owned-%d", i)
					.containsEntry(LABEL, ownerShard);
				assertThat(handledBy.get("owned-" + i)).as("replicas that handled owned-%d", i)
					.containsExactly(ownerShard);
				// the others do not even cache it
				for (int r = 0; r < replicas.size(); r++) {
					String name = "owned-" + i;
					boolean cached = secrets(replicas.get(r)).list()
						.stream()
						.anyMatch((secret) -> secret.getMetadata().getName().equals(name));
					assertThat(cached).as("owned-%d cached by %s", i, REPLICAS.get(r))
						.isEqualTo(REPLICAS.get(r).equals(ownerShard));
				}
			}
		}
		finally {
			replicas.forEach(ConfigurableApplicationContext::close);
		}
	}

	@SuppressWarnings("unchecked")
	private static Lister<V1Secret> secrets(ConfigurableApplicationContext context) {
		return (Lister<V1Secret>) context
			.getBeanProvider(ResolvableType.forClassWithGenerics(Lister.class, V1Secret.class))
			.getObject();
	}

	private static ConfigurableApplicationContext start(ApiClient client, TestNamespace namespace,
			Map<String, Set<String>> handledBy, String identity) {
		return new SpringApplicationBuilder(ShardedApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("apiClient", client);
				((GenericApplicationContext) context).registerBean("ownerHandler", OwnerHandler.class,
						() -> new OwnerHandler(identity, handledBy));
			})
			.run("--kubeop.informers.namespaces=" + namespace.name(),
					"--kubeop.informers.resources.configMaps.api-version=v1",
					"--kubeop.informers.resources.configMaps.kind=ConfigMap",
					"--kubeop.informers.resources.secrets.api-version=v1",
					"--kubeop.informers.resources.secrets.kind=Secret", "--kubeop.sharding.enabled=true",
					"--kubeop.sharding.mode=labels", "--kubeop.sharding.informers=configMaps,secrets",
					"--kubeop.sharding.name=owned-kinds", "--kubeop.sharding.lease-namespace=" + namespace.name(),
					"--kubeop.sharding.identity=" + identity, "--kubeop.sharding.lease-duration=4s",
					"--kubeop.sharding.renew-deadline=3s", "--kubeop.sharding.retry-period=500ms",
					"--kubeop.handlers.shutdown-timeout=2s");
	}

	private static void awaitWorkingTogether(List<ConfigurableApplicationContext> replicas) {
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			List<ShardMember.State> states = replicas.stream()
				.map((replica) -> replica.getBean(ShardingLifecycle.class).member().state())
				.toList();
			long generation = states.get(0).generation();
			return states.stream()
				.allMatch((state) -> state.generation() == generation && state.active() == generation
						&& state.members().size() == replicas.size());
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class,
			KubeopHandlersAutoConfiguration.class })
	static class ShardedApplication {

	}

	/**
	 * Handles ConfigMaps, and the Secrets they own as a kind of its own.
	 */
	@Owns(value = V1Secret.class, informer = "secrets")
	static class OwnerHandler {

		private final String replica;

		private final Map<String, Set<String>> handledBy;

		OwnerHandler(String replica, Map<String, Set<String>> handledBy) {
			this.replica = replica;
			this.handledBy = handledBy;
		}

		@OnAdd(informer = "configMaps")
		void owner(V1ConfigMap configMap) {
		}

		@OnAdd(informer = "secrets")
		void owned(V1Secret secret) {
			this.handledBy.computeIfAbsent(secret.getMetadata().getName(), (name) -> ConcurrentHashMap.newKeySet())
				.add(this.replica);
		}

	}

}
