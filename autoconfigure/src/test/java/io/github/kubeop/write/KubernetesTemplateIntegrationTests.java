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

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KubernetesTemplate} against a real API server, which alone decides how
 * server-side applies of several field managers merge.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class KubernetesTemplateIntegrationTests {

	/**
	 * A resource whose status conditions are a list keyed by type, as the API server's
	 * own types and generated CRDs declare them.
	 */
	private static final String PROBES = """
			apiVersion: apiextensions.k8s.io/v1
			kind: CustomResourceDefinition
			metadata:
			  name: probes.ownership.kubeop.test
			spec:
			  group: ownership.kubeop.test
			  scope: Namespaced
			  names: {kind: Probe, plural: probes, singular: probe, listKind: ProbeList}
			  versions:
			  - name: v1
			    served: true
			    storage: true
			    subresources: {status: {}}
			    schema:
			      openAPIV3Schema:
			        type: object
			        properties:
			          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
			          status:
			            type: object
			            properties:
			              conditions:
			                type: array
			                x-kubernetes-list-type: map
			                x-kubernetes-list-map-keys: [type]
			                items:
			                  type: object
			                  required: [type, status]
			                  properties:
			                    type: {type: string}
			                    status: {type: string}
			                    reason: {type: string}
			                    message: {type: string}
			                    lastTransitionTime: {type: string, format: date-time}
			                    observedGeneration: {type: integer, format: int64}
			""";

	@Test
	void applyKeepsAnotherManagersFieldsAndRepairsDriftInItsOwn(ControlPlane controlPlane, TestNamespace namespace)
			throws ApiException {
		KubernetesTemplate operator = template(controlPlane.apiClient(), "operator");
		KubernetesTemplate other = template(controlPlane.apiClient(), "other");
		V1Deployment first = operator.apply(deployment(namespace, "web", 2));
		assertThat(first.getSpec().getReplicas()).isEqualTo(2);
		other.apply(
				new V1Deployment()
					.metadata(new V1ObjectMeta().name("web")
						.namespace(namespace.name())
						.annotations(Map.of("other.example/owner", "yes")))
					.spec(new V1DeploymentSpec().replicas(5)));
		// The operator applies the object it read back before the drift: its stale
		// resourceVersion must not turn the apply into an optimistic lock, and what the
		// other manager took since is not claimed back from a read object
		V1Deployment reapplied = operator.apply(first);
		assertThat(reapplied.getSpec().getReplicas()).isEqualTo(5);
		assertThat(reapplied.getMetadata().getAnnotations()).containsEntry("other.example/owner", "yes");
		// a desired object built afresh repairs the drift in the fields it states
		V1Deployment repaired = operator.apply(deployment(namespace, "web", 2));
		assertThat(repaired.getSpec().getReplicas()).isEqualTo(2);
		assertThat(repaired.getMetadata().getAnnotations()).containsEntry("other.example/owner", "yes");
		V1Deployment stored = new AppsV1Api(controlPlane.apiClient()).readNamespacedDeployment("web", namespace.name())
			.execute();
		assertThat(stored.getSpec().getReplicas()).isEqualTo(2);
		assertThat(stored.getMetadata().getAnnotations()).containsEntry("other.example/owner", "yes");
	}

	@Test
	void applyOfAnObjectReadBackClaimsNoFieldOfAnotherManager(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate operator = template(client, "operator");
		KubernetesTemplate other = template(client, "other");
		CoreV1Api api = new CoreV1Api(client);
		String path = "/api/v1/namespaces/" + namespace.name() + "/configmaps/read-back";
		operator.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("read-back").namespace(namespace.name()))
			.data(Map.of("k", "1")));
		other.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("read-back")
			.namespace(namespace.name())
			.labels(Map.of("other.example/team", "blue"))
			.finalizers(List.of("other.example/keep"))));
		// read back whole, managedFields included
		DynamicKubernetesObject read = new DynamicKubernetesObject(raw(client, path));
		read.getRaw().getAsJsonObject("data").addProperty("k", "2");
		operator.apply(read);
		// read back typed, without managedFields, as an informer's cache holds objects
		V1ConfigMap typed = api.readNamespacedConfigMap("read-back", namespace.name()).execute();
		assertThat(typed.getMetadata().getLabels()).containsKey("other.example/team");
		operator.apply(typed.data(Map.of("k", "3")));
		JsonObject stored = raw(client, path);
		assertThat(stored.getAsJsonObject("data").get("k").getAsString()).isEqualTo("3");
		assertThat(stored.getAsJsonObject("metadata").getAsJsonArray("managedFields").asList())
			.filteredOn((entry) -> entry.getAsJsonObject().get("manager").getAsString().equals("operator"))
			.singleElement()
			.satisfies((entry) -> assertThat(entry.getAsJsonObject().get("fieldsV1").toString()).contains("f:k")
				.doesNotContain("other.example/team")
				.doesNotContain("other.example/keep"));
		// the other manager lets go of its label and finalizer: they go, nobody else
		// claimed them
		other.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name("read-back").namespace(namespace.name())));
		V1ConfigMap after = api.readNamespacedConfigMap("read-back", namespace.name()).execute();
		assertThat(after.getMetadata().getLabels()).doesNotContainKey("other.example/team");
		assertThat(after.getMetadata().getFinalizers()).isNullOrEmpty();
	}

	@Test
	void statusApplyOfItsOwnConditionsLeavesAnotherManagersConditionToIt(ControlPlane controlPlane,
			TestNamespace namespace) throws ApiException {
		new Manifests(controlPlane.apiClient()).apply(PROBES, null);
		KubernetesTemplate operator = template(controlPlane.apiClient(), "operator");
		KubernetesTemplate scanner = template(controlPlane.apiClient(), "scanner");
		DynamicKubernetesObject probe = operator.apply(new DynamicKubernetesObject(JsonParser
			.parseString("{\"apiVersion\": \"ownership.kubeop.test/v1\", \"kind\": \"Probe\", \"metadata\": "
					+ "{\"name\": \"scanned\", \"namespace\": \"" + namespace.name() + "\"}, \"spec\": {}}")
			.getAsJsonObject()));
		probe = scanner.applyStatus(probe, Map.of("conditions", Conditions.toApply(null,
				new V1Condition().type("Scanned").status("True").reason("Clean").message("no findings"))));
		V1Condition ready = new V1Condition().type("Ready").status("True").reason("Built").message("all parts");
		probe = operator.applyStatus(probe,
				Map.of("conditions", Conditions.toApply(conditions(controlPlane.apiClient(), probe), ready)));
		assertThat(conditions(controlPlane.apiClient(), probe)).extracting(V1Condition::getType)
			.containsExactlyInAnyOrder("Scanned", "Ready");
		// the operator's condition is there, the scanner's is not compared: nothing to
		// write
		DynamicKubernetesObject unchanged = operator.applyStatus(probe,
				Map.of("conditions", Conditions.toApply(conditions(controlPlane.apiClient(), probe), ready)));
		assertThat(unchanged).isSameAs(probe);
		// the scanner withdraws its condition: it goes, since the operator never claimed
		// it
		DynamicKubernetesObject stored = scanner.applyStatus(probe, Map.of("conditions", List.of()));
		assertThat(conditions(controlPlane.apiClient(), stored)).extracting(V1Condition::getType)
			.containsExactly("Ready");
	}

	@Test
	void unchangedStatusIsNotWrittenAndObservedGenerationIsSet(ControlPlane controlPlane, TestNamespace namespace)
			throws ApiException {
		List<String> statusPatches = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			if (chain.request().method().equals("PATCH") && chain.request().url().encodedPath().endsWith("/status")) {
				statusPatches.add(chain.request().url().encodedPath());
			}
			return chain.proceed(chain.request());
		}).build());
		KubernetesTemplate operator = template(client, "operator");
		V1Deployment deployment = operator.apply(deployment(namespace, "web-status", 1));
		V1Deployment written = operator.applyStatus(deployment, new V1DeploymentStatus().replicas(0).readyReplicas(0));
		assertThat(statusPatches).hasSize(1);
		assertThat(written.getStatus().getObservedGeneration()).isEqualTo(deployment.getMetadata().getGeneration());
		V1Deployment again = operator.applyStatus(written, new V1DeploymentStatus().replicas(0).readyReplicas(0));
		assertThat(again).isSameAs(written);
		assertThat(statusPatches).hasSize(1);
		operator.applyStatus(written, new V1DeploymentStatus().replicas(1).readyReplicas(0));
		assertThat(statusPatches).hasSize(2);
	}

	@Test
	void rejectedApplyCarriesTheServersMessage(ControlPlane controlPlane, TestNamespace namespace) {
		KubernetesTemplate operator = template(controlPlane.apiClient(), "operator");
		V1Service invalid = new V1Service().metadata(new V1ObjectMeta().name("bad").namespace(namespace.name()))
			.spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(70000))));
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> operator.apply(invalid))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(422))
			.withMessageContaining("/bad' failed (422 Invalid)")
			.withMessageContaining("spec.ports[0].port");
	}

	private static JsonObject raw(ApiClient client, String path) throws IOException {
		try (okhttp3.Response response = client.getHttpClient()
			.newCall(new okhttp3.Request.Builder().url(client.getBasePath() + path).build())
			.execute()) {
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
	}

	private static List<V1Condition> conditions(ApiClient client, DynamicKubernetesObject object) {
		return client.getJSON()
			.getGson()
			.fromJson(object.getRaw().getAsJsonObject("status").get("conditions"), new TypeToken<List<V1Condition>>() {
			}.getType());
	}

	private static KubernetesTemplate template(ApiClient client, String fieldManager) {
		return new KubernetesTemplate(client, new InformerRegistry(client), fieldManager, true);
	}

	private static V1Deployment deployment(TestNamespace namespace, String name, int replicas) {
		Map<String, String> labels = Map.of("app", name);
		return new V1Deployment().metadata(new V1ObjectMeta().name(name).namespace(namespace.name()))
			.spec(new V1DeploymentSpec().replicas(replicas)
				.selector(new V1LabelSelector().matchLabels(labels))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("web").image("nginx"))))));
	}

}
