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

package io.github.kubeop.write;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonParser;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.metrics.KubeopMetrics;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.typed.Gadget;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for every operation of {@link KubernetesTemplate} besides apply, against a real
 * API server: reads from a cache or the server, creates, patches, deletes with
 * preconditions and propagation, subresources, for generated models, typed custom
 * resources and dynamic objects.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class TemplateOperationsIntegrationTests {

	@Test
	void readsComeFromTheCacheOnlyOnceItHasCaughtUpWithTheWrite(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient client = controlPlane.apiClient();
		CountDownLatch release = new CountDownLatch(1);
		InformerRegistry informers = new InformerRegistry(client);
		// the cache cannot take the second state of "held" until released
		informers.informer(InformerSpec.of("configmaps", "v1", "ConfigMap", V1ConfigMap.class)
			.withNamespaces(namespace.name())
			.withTransform((configMap) -> {
				if (configMap.getMetadata().getName().equals("held") && configMap.getData() != null
						&& "2".equals(configMap.getData().get("k"))) {
					awaitRelease(release);
				}
				return configMap;
			}));
		informers.start();
		try {
			informers.awaitSync(Duration.ofSeconds(60));
			KubernetesTemplate template = new KubernetesTemplate(client, informers, "operator", true);
			V1ConfigMap created = template.create(configMap(namespace, "held", "1"));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> template.read(V1ConfigMap.class, namespace.name(), "held").source(),
						(source) -> source == ReadResult.Source.CACHE);
			assertThat(template.get(V1ConfigMap.class, namespace.name(), "held").getMetadata().getUid())
				.isEqualTo(created.getMetadata().getUid());
			// the cache is held back on the first state: the read goes to the server
			template.patch(created, Patch.merge(Map.of("data", Map.of("k", "2"))));
			ReadResult<V1ConfigMap> afterPatch = template.read(V1ConfigMap.class, namespace.name(), "held");
			assertThat(afterPatch.source()).isEqualTo(ReadResult.Source.API_SERVER);
			assertThat(afterPatch.object().getData()).containsEntry("k", "2");
			assertThat(template.list(V1ConfigMap.class, namespace.name(), null))
				.filteredOn((configMap) -> configMap.getMetadata().getName().equals("held"))
				.singleElement()
				.satisfies((configMap) -> assertThat(configMap.getData()).containsEntry("k", "2"));
			release.countDown();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> template.read(V1ConfigMap.class, namespace.name(), "held").source(),
						(source) -> source == ReadResult.Source.CACHE);
			// what a read returns is the caller's to change
			template.get(V1ConfigMap.class, namespace.name(), "held").getData().put("k", "changed");
			assertThat(template.get(V1ConfigMap.class, namespace.name(), "held").getData()).containsEntry("k", "2");
			// an informer without a selector holds every ConfigMap: one it lacks is none
			ReadResult<V1ConfigMap> missing = template.read(V1ConfigMap.class, namespace.name(), "missing");
			assertThat(missing.exists()).isFalse();
			assertThat(missing.source()).isEqualTo(ReadResult.Source.CACHE);
			// no informer holds Secrets
			template.create(new V1Secret().metadata(new V1ObjectMeta().name("uncached").namespace(namespace.name())));
			assertThat(template.read(V1Secret.class, namespace.name(), "uncached").source())
				.isEqualTo(ReadResult.Source.API_SERVER);
			// a dynamic object from a typed cache
			ReadResult<DynamicKubernetesObject> dynamic = template.read("v1", "ConfigMap", namespace.name(), "held");
			assertThat(dynamic.source()).isEqualTo(ReadResult.Source.CACHE);
			assertThat(dynamic.object().getRaw().getAsJsonObject("data").get("k").getAsString()).isEqualTo("2");
			// deleted: never the cache's stale object
			assertThat(template.delete(created)).isTrue();
			assertThat(template.get(V1ConfigMap.class, namespace.name(), "held")).isNull();
			assertThat(template.delete(created)).isFalse();
		}
		finally {
			release.countDown();
			informers.stop();
		}
	}

	@Test
	void listsSelectByLabelsAndFields(ControlPlane controlPlane, TestNamespace namespace) throws ApiException {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		template.create(configMap(namespace, "listed-a", "1")
			.metadata(new V1ObjectMeta().name("listed-a").namespace(namespace.name()).labels(Map.of("listed", "yes"))));
		template.create(configMap(namespace, "listed-b", "1")
			.metadata(new V1ObjectMeta().name("listed-b").namespace(namespace.name()).labels(Map.of("listed", "no"))));
		assertThat(template.list(V1ConfigMap.class, namespace.name(), "listed=yes"))
			.extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactly("listed-a");
		assertThat(template.list(V1ConfigMap.class, namespace.name(), "listed", "metadata.name=listed-b"))
			.extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactly("listed-b");
		assertThat(template.list("v1", "ConfigMap", namespace.name(), "listed in (yes, no)", null))
			.extracting((configMap) -> configMap.getMetadata().getName())
			.containsExactlyInAnyOrder("listed-a", "listed-b");
	}

	@Test
	void createPatchAndDeleteKeepTheServersReasonAndMessage(ControlPlane controlPlane, TestNamespace namespace)
			throws ApiException {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		V1ConfigMap first = template.create(configMap(namespace, "written", "1"));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> template.create(configMap(namespace, "written", "1")))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(409))
			.withMessageContaining("Create of ConfigMap '" + namespace.name() + "/*' failed (409 AlreadyExists)")
			.withMessageContaining("\"written\" already exists");
		// merge, JSON and apply patches
		V1ConfigMap merged = template.patch(first,
				Patch.merge("{\"metadata\": {\"labels\": {\"tier\": \"gold\"}}, \"data\": {\"k\": \"2\"}}"));
		assertThat(merged.getMetadata().getLabels()).containsEntry("tier", "gold");
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> template.patch(first,
					Patch.json(List.of(Map.of("op", "test", "path", "/data/k", "value", "1"),
							Map.of("op", "replace", "path", "/data/k", "value", "3")))))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(422))
			.withMessageContaining("Patch of ConfigMap '" + namespace.name() + "/written' failed (422");
		V1ConfigMap patched = template.patch(V1ConfigMap.class, namespace.name(), "written",
				Patch.json("[{\"op\": \"test\", \"path\": \"/data/k\", \"value\": \"2\"},"
						+ " {\"op\": \"remove\", \"path\": \"/metadata/labels/tier\"}]"));
		assertThat(patched.getMetadata().getLabels()).isNullOrEmpty();
		V1ConfigMap applied = template.patch(first, Patch.apply(
				"{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"written\"}, \"data\": {\"a\": \"x\"}}"));
		assertThat(applied.getData()).containsEntry("a", "x").containsEntry("k", "2");
		// a resourceVersion precondition on a stale copy
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> template.delete(first, DeleteOptions.ifUnchanged(first)))
			.satisfies((ex) -> assertThat(ex).isNotInstanceOf(ObjectReplacedException.class))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(409))
			.withMessageContaining("failed (409 Conflict)");
		// a uid precondition on an object deleted and created again
		assertThat(template.delete(applied, DeleteOptions.ifUnchanged(applied))).isTrue();
		template.create(configMap(namespace, "written", "again"));
		assertThatExceptionOfType(ObjectReplacedException.class)
			.isThrownBy(() -> template.delete(applied, DeleteOptions.ifSameObject(applied)))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(409))
			.withMessageContaining("failed (409 Conflict): the object was replaced")
			.withMessageContaining("the UID in the precondition (" + applied.getMetadata().getUid() + ")");
		assertThat(template.get(V1ConfigMap.class, namespace.name(), "written").getData()).containsEntry("k", "again");
		// propagation: in the foreground, the object stays until what it owns is gone
		template.delete(V1ConfigMap.class, namespace.name(), "written",
				DeleteOptions.defaults().propagation(DeleteOptions.Propagation.FOREGROUND));
		V1ConfigMap deleting = new CoreV1Api(client).readNamespacedConfigMap("written", namespace.name()).execute();
		assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
		assertThat(deleting.getMetadata().getFinalizers()).contains("foregroundDeletion");
	}

	@Test
	void statusAndScaleSubresources(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		V1Deployment deployment = template.apply(deployment(namespace, "scaled"));
		assertThat(template.scale(deployment, 3).getSpec().getReplicas()).isEqualTo(3);
		assertThat(template.getScale(deployment).getSpec().getReplicas()).isEqualTo(3);
		assertThat(template.get(V1Deployment.class, namespace.name(), "scaled").getSpec().getReplicas()).isEqualTo(3);
		// a typed custom resource, created, read, listed, its status patched and replaced
		new Manifests(client).apply(
				new ClassPathResource("io/github/kubeop/typed/crds.yaml").getContentAsString(StandardCharsets.UTF_8),
				null);
		Gadget gadget = new Gadget();
		gadget.setMetadata(new V1ObjectMeta().name("typed").namespace(namespace.name()));
		gadget.setSpec(new Gadget.Spec("typed", 1, null, Gadget.Tier.GOLD, null, null, null, null, true));
		Gadget created = template.create(gadget);
		assertThat(template.get(Gadget.class, namespace.name(), "typed").getSpec().title()).isEqualTo("typed");
		assertThat(template.list(Gadget.class, namespace.name(), null)).hasSize(1);
		Gadget withStatus = template.patch(created,
				Patch.merge(Map.of("status", Map.of("observedGeneration", 1))).subresource("status"));
		assertThat(withStatus.getStatus().observedGeneration()).isEqualTo(1);
		withStatus.setStatus(new Gadget.Status(2L, null));
		assertThat(template.updateStatus(withStatus).getStatus().observedGeneration()).isEqualTo(2);
		// a dynamic object
		DynamicKubernetesObject dynamic = template.get("typed.kubeop.test/v1", "Gadget", namespace.name(), "typed");
		DynamicKubernetesObject relabelled = template.patch(dynamic,
				Patch.merge(JsonParser.parseString("{\"metadata\": {\"labels\": {\"shape\": \"round\"}}}").toString()));
		assertThat(relabelled.getMetadata().getLabels()).containsEntry("shape", "round");
		assertThat(template.delete(relabelled, DeleteOptions.ifSameObject(relabelled))).isTrue();
	}

	@Test
	void requestsAndUnchangedAppliesAreCounted(ControlPlane controlPlane, TestNamespace namespace) throws ApiException {
		ApiClient client = controlPlane.apiClient();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		template.setWriteListener(new KubeopMetrics(registry));
		template.create(configMap(namespace, "counted", "1"));
		template.apply(configMap(namespace, "counted-applied", "1"));
		template.apply(configMap(namespace, "counted-applied", "1"));
		assertThat(registry.get("kubeop.writes")
			.tags("verb", "create", "resource", "configmaps", "code", "201")
			.counter()
			.count()).isEqualTo(1);
		assertThat(registry.get("kubeop.writes").tags("verb", "apply", "resource", "configmaps").counter().count())
			.isEqualTo(1);
		assertThat(registry.get("kubeop.writes.unchanged")
			.tags("verb", "apply", "resource", "configmaps")
			.counter()
			.count()).isEqualTo(1);
	}

	private static void awaitRelease(CountDownLatch latch) {
		try {
			latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static V1ConfigMap configMap(TestNamespace namespace, String name, String value) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace(namespace.name()))
			.data(Map.of("k", value));
	}

	private static V1Deployment deployment(TestNamespace namespace, String name) {
		Map<String, String> labels = Map.of("app", name);
		return new V1Deployment().metadata(new V1ObjectMeta().name(name).namespace(namespace.name()))
			.spec(new V1DeploymentSpec().replicas(1)
				.selector(new V1LabelSelector().matchLabels(labels))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("nginx"))))));
	}

}
