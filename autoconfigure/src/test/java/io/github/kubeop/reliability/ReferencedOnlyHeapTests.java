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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.References;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1Volume;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The heap of an operator whose primaries reference 10 of many Secrets
 * ({@code -Dkubeop.reliability.referenced-secrets}, 5,000 by default, 1 KB of data each):
 * an informer that keeps referenced objects only holds the 10, one that caches everything
 * holds them all. Each figure is the heap retained with the informer synced minus the
 * heap retained before the context started.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ReferencedOnlyHeapTests {

	private static final int SECRETS = Integer.getInteger("kubeop.reliability.referenced-secrets", 5_000);

	private static final int REFERENCED = 10;

	private static final String NAMESPACE = "referenced-heap";

	private static final String PATH = "spec.template.spec.volumes[].secret.secretName";

	@Test
	void referencedOnlyCacheKeepsTheTenReferencedSecretsAndAFractionOfTheHeap(ControlPlane controlPlane)
			throws Exception {
		CoreV1Api core = new CoreV1Api(controlPlane.apiClient());
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		createSecrets(core);
		createConsumer(controlPlane.apiClient());
		// the first context pays for what every context shares once (classes' caches,
		// connection pools): not counted
		retainedBy(controlPlane, ReferencedOnly.class, "v1Secret-referenced", REFERENCED);
		long referencedOnly = retainedBy(controlPlane, ReferencedOnly.class, "v1Secret-referenced", REFERENCED);
		long everything = retainedBy(controlPlane, Everything.class, "v1Secret", SECRETS);
		Figures.record("referenced-only cache",
				REFERENCED + " of " + SECRETS + " Secrets (1 KB of data each) referenced: the whole context retains "
						+ kib(referencedOnly) + " KiB with referenced objects only, " + kib(everything)
						+ " KiB caching every Secret (" + (everything - referencedOnly) / (SECRETS - REFERENCED)
						+ " bytes per Secret not cached)");
		// the Secrets left out hold at least their data
		assertThat(everything - referencedOnly).as("heap the referenced-only cache saves, bytes")
			.isGreaterThan((SECRETS - REFERENCED) * 1024L);
	}

	private long retainedBy(ControlPlane controlPlane, Class<?> handler, String informerName, int cached)
			throws Exception {
		long[] retained = new long[1];
		long before = Heap.retained();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
					KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean(handler)
			.withPropertyValues("kubeop.informers.namespaces=" + NAMESPACE)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> secrets = context.getBean(InformerRegistry.class)
					.informers()
					.stream()
					.filter((informer) -> informer.spec().name().equals(informerName))
					.findFirst()
					.orElseThrow();
				await().atMost(Duration.ofSeconds(120)).until(() -> secrets.indexer().listKeys().size() == cached);
				retained[0] = Heap.retained() - before;
				assertThat(secrets.indexer().listKeys()).hasSize(cached);
			});
		return retained[0];
	}

	private static void createSecrets(CoreV1Api core) throws Exception {
		String payload = "x".repeat(1024);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> creates = new ArrayList<>();
			for (int i = 0; i < SECRETS; i++) {
				String name = "secret-" + i;
				creates.add(executor.submit(
						() -> core
							.createNamespacedSecret(NAMESPACE,
									new V1Secret().metadata(new V1ObjectMeta().name(name))
										.stringData(Map.of("v", payload)))
							.execute()));
			}
			for (Future<?> create : creates) {
				create.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

	private static void createConsumer(ApiClient client) throws Exception {
		V1PodSpec pod = new V1PodSpec().addContainersItem(new V1Container().name("app").image("nginx"));
		for (int i = 0; i < REFERENCED; i++) {
			pod.addVolumesItem(
					new V1Volume().name("secret-" + i).secret(new V1SecretVolumeSource().secretName("secret-" + i)));
		}
		new AppsV1Api(client)
			.createNamespacedDeployment(NAMESPACE,
					new V1Deployment().metadata(new V1ObjectMeta().name("consumer"))
						.spec(new V1DeploymentSpec().selector(new V1LabelSelector().matchLabels(Map.of("app", "c")))
							.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", "c")))
								.spec(pod))))
			.execute();
	}

	private static long kib(long bytes) {
		return bytes / 1024;
	}

	@References(value = V1Secret.class, path = PATH, referencedOnly = true)
	static class ReferencedOnly {

		@OnAdd
		void added(V1Deployment deployment) {
		}

	}

	@References(value = V1Secret.class, path = PATH)
	static class Everything {

		@OnAdd
		void added(V1Deployment deployment) {
		}

	}

}
