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

package io.github.kubeop.benchmarks;

import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Objects of realistic size, as JSON: the API server adds managedFields, defaults and
 * (for Pods) status.
 *
 * @author Kubeop authors
 */
final class Payloads {

	/** The annotation that carries the write time, microseconds since the epoch. */
	static final String WRITTEN_AT = "bench.kubeop.io/written-at";

	private static final String KILOBYTE = "x".repeat(1024);

	private Payloads() {
	}

	/**
	 * A ConfigMap with labels, an annotation and about 1 KB of data.
	 * @param namespace the namespace
	 * @param index the object's number
	 * @return the JSON
	 */
	static String configMap(String namespace, int index) {
		return """
				{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings-%d","namespace":"%s",\
				"labels":{"app":"benchmark","tier":"settings"},"annotations":{"example.com/owner":"team-a"}},\
				"data":{"payload":"%s","mode":"fast"}}""".formatted(index, namespace, KILOBYTE);
	}

	/**
	 * A Pod as a Deployment's ReplicaSet creates it and the scheduler binds it: the
	 * labels and annotations a Deployment gives, an owner reference, an init container,
	 * an application container and a sidecar with ports, a dozen environment variables
	 * (some from fields, a Secret and a ConfigMap), resources, probes and mounts;
	 * ConfigMap, Secret and emptyDir volumes (the API server's service account admission
	 * adds the projected token volume), tolerations, affinity and a node.
	 * @param namespace the namespace
	 * @param index the object's number
	 * @return the JSON
	 */
	static String pod(String namespace, int index) {
		return """
				{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-5d7f9c8b6d-%05d","namespace":"%s",\
				"generateName":"web-5d7f9c8b6d-","labels":{"app.kubernetes.io/name":"web",\
				"app.kubernetes.io/instance":"web-prod","app.kubernetes.io/version":"1.4.2",\
				"app.kubernetes.io/component":"frontend","app.kubernetes.io/part-of":"shop",\
				"pod-template-hash":"5d7f9c8b6d"},\
				"annotations":{"example.com/revision":"42","prometheus.io/scrape":"true","prometheus.io/port":"9090",\
				"prometheus.io/path":"/metrics","kubectl.kubernetes.io/restartedAt":"2026-01-01T00:00:00Z"},\
				"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d7f9c8b6d",\
				"uid":"6f1c2a9e-3b4d-4c5e-8f70-1a2b3c4d5e6f","controller":true,"blockOwnerDeletion":true}]},\
				"spec":{"nodeName":"%s","serviceAccountName":"default","priorityClassName":"",\
				"securityContext":{"runAsNonRoot":true,"runAsUser":10001,"fsGroup":10001},\
				"initContainers":[{"name":"migrate","image":"registry.example.com/shop/web-migrate:1.4.2",\
				"command":["/bin/migrate","--wait-for-db"],"env":[{"name":"DATABASE_URL","valueFrom":{"secretKeyRef":\
				{"name":"web-db","key":"url"}}},{"name":"MIGRATION_TIMEOUT","value":"300s"}],\
				"resources":{"requests":{"cpu":"50m","memory":"64Mi"},"limits":{"cpu":"500m","memory":"128Mi"}}}],\
				"containers":[{"name":"web","image":"registry.example.com/shop/web:1.4.2",\
				"args":["--port=8080","--metrics-port=9090"],\
				"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"name":"metrics","containerPort":9090}],\
				"env":[{"name":"LOG_LEVEL","value":"info"},{"name":"LOG_FORMAT","value":"json"},\
				{"name":"HTTP_PORT","value":"8080"},{"name":"METRICS_PORT","value":"9090"},\
				{"name":"CACHE_TTL","value":"30s"},{"name":"FEATURE_FLAGS","value":"checkout-v2,search-v3"},\
				{"name":"OTEL_EXPORTER_OTLP_ENDPOINT","value":"http://otel-collector.observability:4317"},\
				{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}},\
				{"name":"POD_IP","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"status.podIP"}}},\
				{"name":"NODE_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"spec.nodeName"}}},\
				{"name":"DATABASE_URL","valueFrom":{"secretKeyRef":{"name":"web-db","key":"url"}}},\
				{"name":"SEARCH_URL","valueFrom":{"configMapKeyRef":{"name":"web-config","key":"search-url"}}},\
				{"name":"MEMORY_LIMIT","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1Mi"}}}],\
				"resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"cpu":"1","memory":"512Mi"}},\
				"readinessProbe":{"httpGet":{"path":"/ready","port":8080},"periodSeconds":10},\
				"livenessProbe":{"httpGet":{"path":"/healthz","port":8080},"initialDelaySeconds":15},\
				"startupProbe":{"httpGet":{"path":"/healthz","port":8080},"failureThreshold":30,"periodSeconds":2},\
				"securityContext":{"allowPrivilegeEscalation":false,"readOnlyRootFilesystem":true,\
				"capabilities":{"drop":["ALL"]}},\
				"volumeMounts":[{"name":"config","mountPath":"/etc/web","readOnly":true},\
				{"name":"tls","mountPath":"/etc/web/tls","readOnly":true},{"name":"tmp","mountPath":"/tmp"}]},\
				{"name":"log-shipper","image":"registry.example.com/infra/shipper:2.0.1",\
				"env":[{"name":"SHIPPER_TARGET","value":"logs.example.com:443"},\
				{"name":"POD_NAMESPACE","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}}],\
				"resources":{"requests":{"cpu":"10m","memory":"32Mi"},"limits":{"memory":"64Mi"}},\
				"volumeMounts":[{"name":"tmp","mountPath":"/var/log/web","readOnly":true}]}],\
				"volumes":[{"name":"config","configMap":{"name":"web-config","defaultMode":420}},\
				{"name":"tls","secret":{"secretName":"web-tls","defaultMode":256}},{"name":"tmp","emptyDir":{}}],\
				"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",\
				"tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable","operator":"Exists",\
				"effect":"NoExecute","tolerationSeconds":300}],\
				"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":\
				[{"matchExpressions":[{"key":"topology.kubernetes.io/zone","operator":"In",\
				"values":["eu-west-1a","eu-west-1b","eu-west-1c"]}]}]}},\
				"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,\
				"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname","labelSelector":{"matchLabels":\
				{"app.kubernetes.io/name":"web"}}}}]}},\
				"terminationGracePeriodSeconds":30}}"""
			.formatted(index, namespace, nodeName(index));
	}

	/**
	 * The node a Pod runs on: twenty nodes share the Pods.
	 * @param index the Pod's number
	 * @return the node name
	 */
	static String nodeName(int index) {
		return "node-%02d.eu-west-1.compute.internal".formatted(index % 20);
	}

	/**
	 * The status of a running {@link #pod(String, int) Pod} as the kubelet reports it:
	 * conditions, the init container completed, both containers running, host and Pod
	 * IPs.
	 * @param index the Pod's number
	 * @return the JSON of the status
	 */
	static String podStatus(int index) {
		String started = "2026-01-01T00:00:00Z";
		return """
				{"phase":"Running","qosClass":"Burstable","hostIP":"10.0.0.%d","hostIPs":[{"ip":"10.0.0.%d"}],\
				"podIP":"10.1.%d.%d","podIPs":[{"ip":"10.1.%d.%d"}],"startTime":"%s",\
				"conditions":[{"type":"PodReadyToStartContainers","status":"True","lastTransitionTime":"%s"},\
				{"type":"Initialized","status":"True","lastTransitionTime":"%s"},\
				{"type":"Ready","status":"True","lastTransitionTime":"%s"},\
				{"type":"ContainersReady","status":"True","lastTransitionTime":"%s"},\
				{"type":"PodScheduled","status":"True","lastTransitionTime":"%s"}],\
				"initContainerStatuses":[{"name":"migrate","ready":true,"started":false,"restartCount":0,\
				"image":"registry.example.com/shop/web-migrate:1.4.2",\
				"imageID":"registry.example.com/shop/web-migrate@sha256:1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff001",\
				"containerID":"containerd://%064x","state":{"terminated":{"exitCode":0,"reason":"Completed",\
				"startedAt":"%s","finishedAt":"%s","containerID":"containerd://%064x"}}}],\
				"containerStatuses":[{"name":"web","ready":true,"started":true,"restartCount":0,\
				"image":"registry.example.com/shop/web:1.4.2",\
				"imageID":"registry.example.com/shop/web@sha256:4a5e2f0c1d9b8a7e6f5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3a2918f7e6",\
				"containerID":"containerd://%064x","state":{"running":{"startedAt":"%s"}}},\
				{"name":"log-shipper","ready":true,"started":true,"restartCount":0,\
				"image":"registry.example.com/infra/shipper:2.0.1",\
				"imageID":"registry.example.com/infra/shipper@sha256:9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",\
				"containerID":"containerd://%064x","state":{"running":{"startedAt":"%s"}}}]}"""
			.formatted(index % 20, index % 20, (index / 250) % 256, index % 250, (index / 250) % 256, index % 250,
					started, started, started, started, started, started, 3L * index, started, started, 3L * index,
					3L * index + 1, started, 3L * index + 2, started);
	}

	/**
	 * A custom resource with about 1 KB of spec.
	 * @param namespace the namespace
	 * @param index the object's number
	 * @return the JSON
	 */
	static String widget(String namespace, int index) {
		return """
				{"apiVersion":"bench.kubeop.io/v1","kind":"Widget","metadata":{"name":"widget-%d","namespace":"%s",\
				"labels":{"app":"benchmark"}},"spec":{"size":%d,"payload":"%s"}}""".formatted(index, namespace, index,
				KILOBYTE);
	}

	/**
	 * A {@link #pod(String, int) Pod} with its {@link #podStatus(int) status} as the API
	 * server sends it in a watch event: the fields it sets (uid, resourceVersion,
	 * creation time, defaults of every container, the projected service account token
	 * volume) and the managedFields of the ReplicaSet controller that created it and the
	 * kubelet that reports its status. About 15 KB of JSON.
	 * @param namespace the namespace
	 * @param index the object's number
	 * @return the object
	 */
	static JsonObject servedPod(String namespace, int index) {
		JsonObject pod = JsonParser.parseString(pod(namespace, index)).getAsJsonObject();
		JsonObject metadata = pod.getAsJsonObject("metadata");
		metadata.addProperty("uid", "%08x-1c2d-4e5f-8a9b-%012x".formatted(index, 7L * index));
		metadata.addProperty("resourceVersion", Long.toString(1_000_000L + index));
		metadata.addProperty("creationTimestamp", "2026-01-01T00:00:00Z");
		JsonObject spec = pod.getAsJsonObject("spec");
		for (String containers : new String[] { "initContainers", "containers" }) {
			for (JsonElement container : spec.getAsJsonArray(containers)) {
				JsonObject object = container.getAsJsonObject();
				object.addProperty("imagePullPolicy", "IfNotPresent");
				object.addProperty("terminationMessagePath", "/dev/termination-log");
				object.addProperty("terminationMessagePolicy", "File");
				JsonArray mounts = object.has("volumeMounts") ? object.getAsJsonArray("volumeMounts") : new JsonArray();
				mounts.add(JsonParser.parseString(
						"""
								{"name":"kube-api-access-%05d","readOnly":true,						"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}"""
							.formatted(index % 100000)));
				object.add("volumeMounts", mounts);
			}
		}
		spec.getAsJsonArray("volumes")
			.add(JsonParser.parseString(
					"""
							{"name":"kube-api-access-%05d","projected":{"sources":[{"serviceAccountToken":				{"expirationSeconds":3607,"path":"token"}},{"configMap":{"name":"kube-root-ca.crt",				"items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace",				"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}}"""
						.formatted(index % 100000)));
		for (Map.Entry<String, String> value : Map
			.of("restartPolicy", "Always", "dnsPolicy", "ClusterFirst", "serviceAccount", "default", "schedulerName",
					"default-scheduler", "preemptionPolicy", "PreemptLowerPriority")
			.entrySet()) {
			spec.addProperty(value.getKey(), value.getValue());
		}
		spec.addProperty("priority", 0);
		spec.addProperty("enableServiceLinks", true);
		JsonObject status = JsonParser.parseString(podStatus(index)).getAsJsonObject();
		JsonObject written = new JsonObject();
		written.add("metadata", metadata.deepCopy());
		written.getAsJsonObject("metadata").remove("uid");
		written.getAsJsonObject("metadata").remove("resourceVersion");
		written.getAsJsonObject("metadata").remove("creationTimestamp");
		written.add("spec", spec);
		JsonObject reported = new JsonObject();
		reported.add("status", status);
		JsonArray managedFields = new JsonArray();
		managedFields.add(managedFieldsEntry("kube-controller-manager", "Update", written));
		managedFields.add(managedFieldsEntry("kubelet", "Update", reported));
		metadata.add("managedFields", managedFields);
		pod.add("status", status);
		return pod;
	}

	private static JsonObject managedFieldsEntry(String manager, String operation, JsonObject fields) {
		JsonObject entry = new JsonObject();
		entry.addProperty("manager", manager);
		entry.addProperty("operation", operation);
		entry.addProperty("apiVersion", "v1");
		entry.addProperty("time", "2026-01-01T00:00:00Z");
		entry.addProperty("fieldsType", "FieldsV1");
		entry.add("fieldsV1", fieldSet(fields));
		if (fields.has("status")) {
			entry.addProperty("subresource", "status");
		}
		return entry;
	}

	/**
	 * The fieldsV1 of the fields of an object, as the API server writes them: {@code f:}
	 * for a field, {@code k:} for an item of a list keyed by name, {@code .} for the item
	 * itself.
	 */
	private static JsonObject fieldSet(JsonObject object) {
		JsonObject set = new JsonObject();
		for (Map.Entry<String, JsonElement> member : object.entrySet()) {
			set.add("f:" + member.getKey(), fieldSet(member.getValue()));
		}
		return set;
	}

	private static JsonObject fieldSet(JsonElement value) {
		if (value instanceof JsonObject object) {
			return fieldSet(object);
		}
		JsonObject set = new JsonObject();
		if (value instanceof JsonArray array) {
			for (JsonElement item : array) {
				if (item instanceof JsonObject object && object.has("name")) {
					JsonObject itemSet = fieldSet(object);
					itemSet.add(".", new JsonObject());
					set.add("k:{\"name\":\"" + object.get("name").getAsString() + "\"}", itemSet);
				}
			}
		}
		return set;
	}

}
