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

package io.github.kubeop.test.controlplane;

import java.time.Duration;
import java.util.List;

import com.google.gson.JsonObject;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that kube-controller-manager sees the kinds of CustomResourceDefinitions applied
 * with {@link Manifests#Manifests(ControlPlane)} after it started: objects owned by a
 * custom resource go within seconds of its deletion, not after the garbage collector's
 * next discovery resync (every 30 s).
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = Component.CONTROLLER_MANAGER)
class GarbageCollectionOfNewKindsTests {

	@Test
	void objectsOwnedByANewKindAreCollectedWithinSecondsOfTheirOwnersDeletion(ControlPlane controlPlane,
			ApiClient client, TestNamespace namespace) throws ApiException {
		CoreV1Api core = new CoreV1Api(client);
		String ns = namespace.name();
		// the garbage collector works, so it has read discovery, without the new kind
		V1ConfigMap first = core
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("first")))
			.execute();
		core.createNamespacedConfigMap(ns, owned("first-owned", "v1", "ConfigMap", first.getMetadata())).execute();
		core.deleteNamespacedConfigMap("first", ns).execute();
		awaitDeleted(core, ns, "first-owned", Duration.ofSeconds(90));

		new Manifests(controlPlane).apply("""
				apiVersion: apiextensions.k8s.io/v1
				kind: CustomResourceDefinition
				metadata:
				  name: nuts.gc.kubeop.test
				spec:
				  group: gc.kubeop.test
				  scope: Namespaced
				  names: {kind: Nut, plural: nuts, singular: nut}
				  versions:
				    - name: v1
				      served: true
				      storage: true
				      schema:
				        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
				""", ns);
		List<JsonObject> nut = new Manifests(client).apply("""
				apiVersion: gc.kubeop.test/v1
				kind: Nut
				metadata:
				  name: hex
				""", ns);
		V1ObjectMeta nutMetadata = new V1ObjectMeta().name("hex")
			.uid(nut.get(0).getAsJsonObject("metadata").get("uid").getAsString());
		core.createNamespacedConfigMap(ns, owned("hex-owned", "gc.kubeop.test/v1", "Nut", nutMetadata)).execute();
		new CustomObjectsApi(client).deleteNamespacedCustomObject("gc.kubeop.test", "v1", ns, "nuts", "hex")
			.body(new V1DeleteOptions().propagationPolicy("Background"))
			.execute();
		awaitDeleted(core, ns, "hex-owned", Duration.ofSeconds(10));
	}

	private static V1ConfigMap owned(String name, String apiVersion, String kind, V1ObjectMeta owner) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)
			.ownerReferences(List.of(new V1OwnerReference().apiVersion(apiVersion)
				.kind(kind)
				.name(owner.getName())
				.uid(owner.getUid()))));
	}

	private static void awaitDeleted(CoreV1Api core, String namespace, String name, Duration bound) {
		await().atMost(bound)
			.untilAsserted(() -> assertThatExceptionOfType(ApiException.class)
				.isThrownBy(() -> core.readNamespacedConfigMap(name, namespace).execute())
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404)));
	}

}
