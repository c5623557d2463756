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
package io.github.kubeop.tracing;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.handler.TraceContextAnnotation;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.micrometer.observation.Observation;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.Buffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a write through the status subresource can carry, against a real API server: the
 * API server drops metadata written through the status of a custom resource (not of every
 * built-in resource), so Kubeop puts no trace context into a status write; the object
 * keeps the one of its last object write.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class StatusWriteTraceContextIntegrationTests {

	private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	private static final MediaType APPLY = MediaType.get("application/apply-patch+yaml");

	private static final MediaType MERGE = MediaType.get("application/merge-patch+json");

	private static final String GAUGES = """
			apiVersion: apiextensions.k8s.io/v1
			kind: CustomResourceDefinition
			metadata:
			  name: gauges.status.kubeop.test
			spec:
			  group: status.kubeop.test
			  scope: Namespaced
			  names: {kind: Gauge, plural: gauges, singular: gauge, listKind: GaugeList}
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
			          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
			""";

	@Test
	void theApiServerDropsMetadataWrittenThroughTheStatusOfACustomResourceButNotOfADeployment(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		ApiClient client = controlPlane.apiClient();
		new Manifests(client).apply(GAUGES, null);
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "writer", true);
		template.apply(gauge(namespace, "plain"));
		template.apply(deployment(namespace, "web"));
		String gauge = "/apis/status.kubeop.test/v1/namespaces/" + namespace.name() + "/gauges/plain";
		String deployment = "/apis/apps/v1/namespaces/" + namespace.name() + "/deployments/web";
		// an apply and a merge patch of the status, each with the annotation
		send(client, gauge + "/status?fieldManager=writer", APPLY, "{\"apiVersion\":\"status.kubeop.test/v1\","
				+ "\"kind\":\"Gauge\"," + annotated(namespace, "plain") + ",\"status\":{\"phase\":\"a\"}}");
		send(client, gauge + "/status?fieldManager=other", MERGE,
				"{" + annotated(namespace, "plain") + ",\"status\":{\"phase\":\"b\"}}");
		JsonObject storedGauge = read(client, gauge);
		assertThat(storedGauge.getAsJsonObject("status").get("phase").getAsString()).isEqualTo("b");
		assertThat(storedGauge.getAsJsonObject("metadata").get("annotations")).isNull();
		// a Deployment's status strategy keeps them: the rule is the resource's
		send(client, deployment + "/status?fieldManager=writer", APPLY, "{\"apiVersion\":\"apps/v1\","
				+ "\"kind\":\"Deployment\"," + annotated(namespace, "web") + ",\"status\":{\"replicas\":0}}");
		assertThat(read(client, deployment).getAsJsonObject("metadata").getAsJsonObject("annotations").toString())
			.contains(TRACE);
	}

	@Test
	void aTracedStatusWriteSendsNoTraceContextAndLeavesTheOneOfTheLastObjectWrite(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		OtelTracing tracing = new OtelTracing();
		List<String> statusBodies = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		new Manifests(client).apply(GAUGES, null);
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			Request request = chain.request();
			if (request.url().encodedPath().endsWith("/status") && request.body() != null) {
				Buffer body = new Buffer();
				request.body().writeTo(body);
				statusBodies.add(body.readUtf8());
			}
			return chain.proceed(request);
		}).build());
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "writer", true);
		template.setWriteTracing(new ObservationTracing(tracing.registry()));
		// as inside a traced handler call: an object write, then a status write
		Observation call = Observation.start("call", tracing.registry());
		try (Observation.Scope scope = call.openScope()) {
			DynamicKubernetesObject written = template.apply(gauge(namespace, "traced"));
			template.applyStatus(written, Map.of("phase", "ready"));
			template.applyStatus(written, Map.of("phase", "done"));
		}
		finally {
			call.stop();
		}
		SpanData apply = tracing.spans("kubeop.object.name", "traced")
			.stream()
			.filter((span) -> !span.getAttributes().get(AttributeKey.stringKey("kubeop.resource")).endsWith("/status"))
			.findFirst()
			.orElseThrow();
		assertThat(statusBodies).hasSize(2).noneMatch((body) -> body.contains(TraceContextAnnotation.NAME));
		// the status writes are spans of the call all the same
		assertThat(tracing.spans("kubeop.object.name", "traced")).hasSize(3);
		// what a watcher of the object sees after the status writes: the trace context
		// of the last object write, unchanged, which no call continues
		JsonObject stored = read(client,
				"/apis/status.kubeop.test/v1/namespaces/" + namespace.name() + "/gauges/traced");
		assertThat(stored.getAsJsonObject("metadata")
			.getAsJsonObject("annotations")
			.get(TraceContextAnnotation.NAME)
			.getAsString()).startsWith("00-" + apply.getTraceId() + "-" + apply.getSpanId() + "-");
	}

	private static String annotated(TestNamespace namespace, String name) {
		return "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace.name() + "\",\"annotations\":{\""
				+ TraceContextAnnotation.NAME + "\":\"" + TRACE + "\"}}";
	}

	private static DynamicKubernetesObject gauge(TestNamespace namespace, String name) {
		return new DynamicKubernetesObject(JsonParser
			.parseString("{\"apiVersion\":\"status.kubeop.test/v1\",\"kind\":\"Gauge\",\"metadata\":{\"name\":\"" + name
					+ "\",\"namespace\":\"" + namespace.name() + "\"},\"spec\":{\"size\":1}}")
			.getAsJsonObject());
	}

	private static String send(ApiClient client, String path, MediaType type, String body) throws IOException {
		try (Response response = client.getHttpClient()
			.newCall(new Request.Builder().url(client.getBasePath() + path)
				.patch(RequestBody.create(body, type))
				.build())
			.execute()) {
			String answer = response.body().string();
			assertThat(response.code()).as(answer).isEqualTo(200);
			return answer;
		}
	}

	private static JsonObject read(ApiClient client, String path) throws IOException {
		try (Response response = client.getHttpClient()
			.newCall(new Request.Builder().url(client.getBasePath() + path).build())
			.execute()) {
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
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
