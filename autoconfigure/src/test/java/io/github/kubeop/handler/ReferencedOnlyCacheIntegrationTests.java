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

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.github.kubeop.annotation.References;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.WatchState;
import io.github.kubeop.reliability.CompactingControlPlane;
import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * An informer that keeps only the Secrets some Deployment references, against a real API
 * server: exactly the referenced objects, through references that appear, move and go,
 * objects created late, and a relist after {@code 410 Gone}.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ReferencedOnlyCacheIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void cacheHoldsExactlyTheReferencedSecretsThroughReferenceChanges(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ReferencesIntegrationTests.client(controlPlane.apiClient());
		for (int i = 0; i < 20; i++) {
			ReferencesIntegrationTests.createSecret(namespace, "s-" + i, Map.of());
		}
		ReferencesIntegrationTests.createDeployment(namespace, "web", "s-1");
		ReferencesIntegrationTests.createDeployment(namespace, "api", "s-2", "s-3");
		ReferencedOnlyHandler handler = new ReferencedOnlyHandler();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(ReferencedOnlyHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> secrets = referencedSecrets(context);
				String ns = namespace.name() + "/";
				await().atMost(TIMEOUT).until(() -> keys(secrets).equals(Set.of(ns + "s-1", ns + "s-2", ns + "s-3")));
				// an unreferenced change, then a referenced one that must arrive after it
				ReferencesIntegrationTests.updateSecret(namespace, "s-10", "2");
				ReferencesIntegrationTests.updateSecret(namespace, "s-2", "2");
				await().atMost(TIMEOUT).until(() -> "2".equals(version(secrets, ns + "s-2")));
				assertThat(keys(secrets)).as("after an unreferenced Secret changed")
					.isEqualTo(Set.of(ns + "s-1", ns + "s-2", ns + "s-3"));
				// the reference moves to a Secret that never changed since the cache
				// synced: only a load brings it
				ReferencesIntegrationTests.referenceSecrets(namespace, "web", "s-4");
				await().atMost(TIMEOUT).until(() -> keys(secrets).equals(Set.of(ns + "s-2", ns + "s-3", ns + "s-4")));
				int before = handler.references("web");
				ReferencesIntegrationTests.updateSecret(namespace, "s-4", "2");
				await().atMost(TIMEOUT).until(() -> handler.references("web") > before);
				assertThat(version(secrets, ns + "s-4")).isEqualTo("2");
				// a reference to a Secret that does not exist yet
				ReferencesIntegrationTests.createDeployment(namespace, "db", "late");
				await().atMost(TIMEOUT).until(() -> handler.adds.contains("db"));
				ReferencesIntegrationTests.createSecret(namespace, "late", Map.of());
				await().atMost(TIMEOUT).until(() -> handler.references("db") == 1);
				assertThat(keys(secrets)).isEqualTo(Set.of(ns + "s-2", ns + "s-3", ns + "s-4", ns + "late"));
				new AppsV1Api(controlPlane.apiClient()).deleteNamespacedDeployment("api", namespace.name()).execute();
				await().atMost(TIMEOUT).until(() -> keys(secrets).equals(Set.of(ns + "s-4", ns + "late")));
				new CoreV1Api(controlPlane.apiClient()).deleteNamespacedSecret("late", namespace.name()).execute();
				await().atMost(TIMEOUT).until(() -> keys(secrets).equals(Set.of(ns + "s-4")));
				await().atMost(TIMEOUT).until(() -> handler.references("db") == 2);
			});
	}

	@Test
	void relistAfterGoneKeepsExactlyTheReferencedSecretsInTheirLatestState(ControlPlane shared) throws Exception {
		assumeThat(shared).isInstanceOf(LocalControlPlane.class);
		// a control plane of its own: no watch cache, so a resumed watch reaches etcd,
		// which has compacted the old resourceVersion away (410 Gone, then a relist)
		try (LocalControlPlane controlPlane = CompactingControlPlane.start();
				FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			TestNamespace namespace = new TestNamespace("referenced-relist");
			CoreV1Api core = new CoreV1Api(controlPlane.apiClient());
			core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace.name()))).execute();
			ReferencesIntegrationTests.client(controlPlane.apiClient());
			for (int i = 0; i < 10; i++) {
				ReferencesIntegrationTests.createSecret(namespace, "s-" + i, Map.of());
			}
			ReferencesIntegrationTests.createDeployment(namespace, "web", "s-1", "s-2");
			ReferencedOnlyHandler handler = new ReferencedOnlyHandler();
			this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientVia(proxy.url()))
				.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
				.withBean(ReferencedOnlyHandler.class, () -> handler)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					ResourceInformer<?> secrets = referencedSecrets(context);
					String ns = namespace.name() + "/";
					await().atMost(TIMEOUT).until(() -> keys(secrets).equals(Set.of(ns + "s-1", ns + "s-2")));
					long relists = secrets.status().relists();
					proxy.cut();
					// while the operator cannot see: a referenced Secret changes, one
					// goes,
					// an unreferenced one changes, and the reference moves to another
					ReferencesIntegrationTests.updateSecret(namespace, "s-1", "2");
					core.deleteNamespacedSecret("s-2", namespace.name()).execute();
					ReferencesIntegrationTests.updateSecret(namespace, "s-7", "2");
					ReferencesIntegrationTests.referenceSecrets(namespace, "web", "s-1", "s-2", "s-5");
					String changed = core.readNamespacedSecret("s-7", namespace.name())
						.execute()
						.getMetadata()
						.getResourceVersion();
					await().atMost(TIMEOUT)
						.until(() -> CompactingControlPlane.isCompacted(controlPlane.apiClient(), namespace.name(),
								changed));
					proxy.restore();
					await().atMost(Duration.ofSeconds(120))
						.until(() -> secrets.status().relists() > relists
								&& secrets.status().state() == WatchState.WATCHING
								&& keys(secrets).equals(Set.of(ns + "s-1", ns + "s-5"))
								&& "2".equals(version(secrets, ns + "s-1")));
					// a later change that must arrive: the cache watches on
					ReferencesIntegrationTests.updateSecret(namespace, "s-5", "2");
					await().atMost(TIMEOUT).until(() -> "2".equals(version(secrets, ns + "s-5")));
					assertThat(keys(secrets)).isEqualTo(Set.of(ns + "s-1", ns + "s-5"));
				});
		}
	}

	static ResourceInformer<?> referencedSecrets(ApplicationContext context) {
		return context.getBean(InformerRegistry.class)
			.informers()
			.stream()
			.filter((informer) -> informer.spec().name().equals("v1Secret-referenced"))
			.findFirst()
			.orElseThrow();
	}

	static Set<String> keys(ResourceInformer<?> informer) {
		return new TreeSet<>(informer.indexer().listKeys());
	}

	static String version(ResourceInformer<?> informer, String key) {
		KubernetesObject object = informer.indexer().getByKey(key);
		if (!(object instanceof V1Secret secret) || secret.getData() == null || !secret.getData().containsKey("v")) {
			return null;
		}
		return new String(secret.getData().get("v"));
	}

	@References(value = V1Secret.class, path = ReferencesIntegrationTests.VOLUME_SECRETS, referencedOnly = true)
	static class ReferencedOnlyHandler extends ReferencesIntegrationTests.PathHandler {

	}

}
