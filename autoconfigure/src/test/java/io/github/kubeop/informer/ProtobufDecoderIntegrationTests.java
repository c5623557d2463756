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

package io.github.kubeop.informer;

import java.io.IOException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ContainerState;
import io.kubernetes.client.openapi.models.V1ContainerStateRunning;
import io.kubernetes.client.openapi.models.V1ContainerStatus;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodIP;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.util.ModelMapper;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decoding the protobuf encoding ({@link ProtobufDecoder}) against what a real API server
 * sends: every built-in kind the test control plane serves that the client has a model
 * for, listed once as JSON and once as protobuf, decodes to equal models, with realistic
 * objects of the kinds whose encodings differ most (value fields with {@code omitempty}
 * sent as zeros, inlined messages, times, micro times, quantities, int-or-strings, raw
 * JSON, byte maps, string-list maps) created first.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ProtobufDecoderIntegrationTests {

	private static final String OBJECTS = """
			apiVersion: v1
			kind: Pod
			metadata:
			  name: web-0
			  labels: {app.kubernetes.io/name: web, tier: frontend}
			  annotations:
			    team: a
			    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"Pod"}'
			  ownerReferences:
			  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f, uid: 6a1f3c2e-0d7b-4a51-9f0e-3c1d2b4a5e6f, controller: true, blockOwnerDeletion: true}
			  finalizers: [example.com/keep]
			spec:
			  automountServiceAccountToken: false
			  priority: 0
			  containers:
			  - name: app
			    image: registry.example/web:1.2.3
			    args: [--port=8080, --verbose]
			    ports: [{name: http, containerPort: 8080, protocol: TCP}]
			    env:
			    - {name: MODE, value: production}
			    - {name: EMPTY, value: ""}
			    - name: POD_NAME
			      valueFrom: {fieldRef: {fieldPath: metadata.name}}
			    - name: MEMORY
			      valueFrom: {resourceFieldRef: {containerName: app, resource: limits.memory, divisor: 1Mi}}
			    - name: KEY
			      valueFrom: {configMapKeyRef: {name: web-config, key: mode, optional: false}}
			    envFrom: [{secretRef: {name: web-secret}}]
			    resources:
			      requests: {cpu: 250m, memory: 64Mi}
			      limits: {cpu: "1", memory: 128Mi, ephemeral-storage: 1Gi}
			    volumeMounts: [{name: config, mountPath: /etc/web, readOnly: true}, {name: cache, mountPath: /cache}]
			    readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 5, failureThreshold: 3}
			    livenessProbe: {tcpSocket: {port: 8080}, initialDelaySeconds: 3}
			    startupProbe: {exec: {command: [cat, /ready]}}
			    lifecycle: {preStop: {sleep: {seconds: 5}}}
			    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsUser: 0}
			  - name: proxy
			    image: registry.example/proxy:0.9
			    resources: {requests: {cpu: 50m, memory: 16Mi}}
			  initContainers:
			  - {name: init, image: busybox:1.36, command: [sh, -c, "true"], restartPolicy: Always}
			  volumes:
			  - {name: config, configMap: {name: web-config, items: [{key: a, path: a.conf}]}}
			  - {name: cache, emptyDir: {sizeLimit: 1Gi}}
			  - {name: token, secret: {secretName: web-secret, defaultMode: 420}}
			  - name: projected
			    projected:
			      sources:
			      - downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
			  tolerations:
			  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
			  affinity:
			    podAntiAffinity:
			      preferredDuringSchedulingIgnoredDuringExecution:
			      - weight: 100
			        podAffinityTerm:
			          topologyKey: kubernetes.io/hostname
			          labelSelector: {matchLabels: {app.kubernetes.io/name: web}, matchExpressions: [{key: tier, operator: In, values: [frontend]}]}
			  topologySpreadConstraints:
			  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {tier: frontend}}}
			  nodeSelector: {kubernetes.io/os: linux}
			  securityContext: {runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, sysctls: [{name: net.ipv4.ip_local_port_range, value: "1024 65535"}]}
			  terminationGracePeriodSeconds: 30
			  hostAliases: [{ip: 10.0.0.9, hostnames: [db.local]}]
			  dnsConfig: {options: [{name: ndots, value: "2"}]}
			---
			apiVersion: v1
			kind: ConfigMap
			metadata: {name: web-config, labels: {app.kubernetes.io/name: web}}
			data: {a.conf: "listen 8080", mode: production, empty: ""}
			binaryData: {blob: AAECAwQ=}
			---
			apiVersion: v1
			kind: Secret
			metadata: {name: web-secret}
			type: Opaque
			data: {password: c2VjcmV0, empty: ""}
			---
			apiVersion: v1
			kind: Service
			metadata: {name: web}
			spec:
			  selector: {app.kubernetes.io/name: web}
			  sessionAffinity: ClientIP
			  sessionAffinityConfig: {clientIP: {timeoutSeconds: 600}}
			  ports:
			  - {name: http, port: 80, targetPort: http}
			  - {name: admin, port: 9090, targetPort: 9091, protocol: TCP}
			---
			apiVersion: v1
			kind: ServiceAccount
			metadata: {name: web}
			automountServiceAccountToken: false
			imagePullSecrets: [{name: registry}]
			---
			apiVersion: v1
			kind: PersistentVolumeClaim
			metadata: {name: data}
			spec:
			  accessModes: [ReadWriteOnce]
			  resources: {requests: {storage: 1Gi}}
			  storageClassName: ""
			---
			apiVersion: v1
			kind: ResourceQuota
			metadata: {name: quota}
			spec: {hard: {pods: "10", requests.cpu: "4"}}
			---
			apiVersion: v1
			kind: LimitRange
			metadata: {name: limits}
			spec: {limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 100m}, max: {memory: 1Gi}}]}
			---
			apiVersion: v1
			kind: ReplicationController
			metadata: {name: legacy}
			spec:
			  replicas: 0
			  selector: {app: legacy}
			  template:
			    metadata: {labels: {app: legacy}}
			    spec: {containers: [{name: app, image: busybox:1.36}]}
			---
			apiVersion: v1
			kind: Endpoints
			metadata: {name: web}
			subsets: [{addresses: [{ip: 10.0.0.1, targetRef: {kind: Pod, name: web-0}}], ports: [{name: http, port: 8080}]}]
			---
			apiVersion: apps/v1
			kind: Deployment
			metadata: {name: web, labels: {app.kubernetes.io/name: web}}
			spec:
			  replicas: 0
			  revisionHistoryLimit: 0
			  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}
			  selector: {matchLabels: {app.kubernetes.io/name: web}}
			  template:
			    metadata: {labels: {app.kubernetes.io/name: web}, annotations: {a: b}}
			    spec:
			      containers:
			      - name: app
			        image: registry.example/web:1.2.3
			        ports: [{containerPort: 8080}]
			        resources: {limits: {memory: 128Mi}}
			---
			apiVersion: apps/v1
			kind: StatefulSet
			metadata: {name: db}
			spec:
			  replicas: 0
			  serviceName: db
			  selector: {matchLabels: {app: db}}
			  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
			  template:
			    metadata: {labels: {app: db}}
			    spec: {containers: [{name: db, image: postgres:16}]}
			  volumeClaimTemplates:
			  - metadata: {name: data}
			    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
			---
			apiVersion: apps/v1
			kind: DaemonSet
			metadata: {name: agent}
			spec:
			  selector: {matchLabels: {app: agent}}
			  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}
			  template:
			    metadata: {labels: {app: agent}}
			    spec: {containers: [{name: agent, image: busybox:1.36}], hostNetwork: true}
			---
			apiVersion: apps/v1
			kind: ControllerRevision
			metadata: {name: web-1}
			revision: 1
			data: {spec: {template: {metadata: {labels: {a: b}}}}, number: 1.5}
			---
			apiVersion: batch/v1
			kind: CronJob
			metadata: {name: nightly}
			spec:
			  schedule: "0 3 * * *"
			  suspend: true
			  jobTemplate:
			    spec:
			      backoffLimit: 0
			      template:
			        spec: {restartPolicy: Never, containers: [{name: job, image: busybox:1.36}]}
			---
			apiVersion: batch/v1
			kind: Job
			metadata: {name: once}
			spec:
			  suspend: true
			  completions: 1
			  backoffLimit: 2
			  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42]}}]}
			  template:
			    spec: {restartPolicy: Never, containers: [{name: job, image: busybox:1.36}]}
			---
			apiVersion: networking.k8s.io/v1
			kind: Ingress
			metadata: {name: web}
			spec:
			  rules:
			  - host: web.example
			    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}]}
			---
			apiVersion: networking.k8s.io/v1
			kind: NetworkPolicy
			metadata: {name: deny}
			spec:
			  podSelector: {}
			  policyTypes: [Ingress]
			  ingress: [{ports: [{port: 8080}, {port: http, protocol: TCP}]}]
			---
			apiVersion: policy/v1
			kind: PodDisruptionBudget
			metadata: {name: web}
			spec: {minAvailable: 50%, selector: {matchLabels: {app.kubernetes.io/name: web}}}
			---
			apiVersion: autoscaling/v2
			kind: HorizontalPodAutoscaler
			metadata: {name: web}
			spec:
			  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
			  minReplicas: 1
			  maxReplicas: 3
			  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
			---
			apiVersion: coordination.k8s.io/v1
			kind: Lease
			metadata: {name: leader}
			spec: {holderIdentity: a, leaseDurationSeconds: 15, acquireTime: "2026-01-02T03:04:05.123456Z", renewTime: "2026-01-02T03:04:06.000001Z", leaseTransitions: 0}
			---
			apiVersion: events.k8s.io/v1
			kind: Event
			metadata: {name: web.1}
			eventTime: "2026-01-02T03:04:05.654321Z"
			reportingController: example.com/ctl
			reportingInstance: ctl-1
			action: Reconcile
			reason: Synced
			type: Normal
			note: all good
			regarding: {kind: Pod, name: web-0, apiVersion: v1, namespace: NAMESPACE}
			---
			apiVersion: v1
			kind: Event
			metadata: {name: web.2}
			involvedObject: {kind: Pod, name: web-0, namespace: NAMESPACE}
			reason: Started
			message: started
			firstTimestamp: "2026-01-02T03:04:05Z"
			lastTimestamp: "2026-01-02T03:04:07Z"
			count: 2
			type: Normal
			---
			apiVersion: rbac.authorization.k8s.io/v1
			kind: Role
			metadata: {name: reader}
			rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch]}]
			---
			apiVersion: rbac.authorization.k8s.io/v1
			kind: RoleBinding
			metadata: {name: reader}
			roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
			subjects: [{kind: ServiceAccount, name: web}]
			---
			apiVersion: discovery.k8s.io/v1
			kind: EndpointSlice
			metadata: {name: web-abc}
			addressType: IPv4
			endpoints: [{addresses: [10.0.0.1], conditions: {ready: true, serving: false}, nodeName: n1}]
			ports: [{name: http, port: 8080, protocol: TCP}]
			---
			apiVersion: v1
			kind: PodTemplate
			metadata: {name: tpl}
			template:
			  metadata: {labels: {a: b}}
			  spec: {containers: [{name: c, image: busybox:1.36, stdin: false}]}
			""";

	/**
	 * The combinations of ready-made transforms that change what is decoded.
	 */
	private static final List<Set<StandardTransform>> TRANSFORMS = List.of(Set.of(),
			Set.of(StandardTransform.STRIP_MANAGED_FIELDS, StandardTransform.DEDUPLICATE_STRINGS),
			EnumSet.allOf(StandardTransform.class));

	private final Gson clientGson = JSON.getGson();

	/**
	 * A Gson that keeps {@code managedFields}, as the client's does with
	 * {@code kubernetes.client.includeManagedFields}.
	 */
	private final Gson keepingGson = new GsonBuilder()
		.registerTypeAdapter(OffsetDateTime.class, this.clientGson.getAdapter(OffsetDateTime.class))
		.registerTypeAdapter(LocalDate.class, this.clientGson.getAdapter(LocalDate.class))
		.registerTypeAdapter(byte[].class, this.clientGson.getAdapter(byte[].class))
		.create();

	private ApiClient admin;

	private TestNamespace namespace;

	@BeforeEach
	void createObjects(ApiClient admin, TestNamespace namespace) throws Exception {
		this.admin = admin;
		this.namespace = namespace;
		new Manifests(admin).apply(OBJECTS.replace("NAMESPACE", namespace.name()), namespace.name());
		CoreV1Api api = new CoreV1Api(admin);
		// a second manager, as a kubelet: the status
		V1Pod pod = api.readNamespacedPod("web-0", namespace.name()).execute();
		pod.setStatus(status());
		api.replaceNamespacedPodStatus("web-0", namespace.name(), pod).fieldManager("kubelet").execute();
	}

	@Test
	void everyBuiltInKindDecodesFromProtobufAsFromJson() throws Exception {
		Map<String, Integer> compared = new java.util.TreeMap<>();
		Set<String> notBuiltIn = new TreeSet<>();
		int objects = 0;
		for (Listable listable : listables()) {
			ProtobufTable table = ProtobufTable.get();
			if (table.goType(listable.resource.group(), listable.resource.version(),
					listable.resource.kind()) == null) {
				notBuiltIn.add(listable.resource.toString());
				continue;
			}
			String path = listable.resource
				.collectionPath(listable.resource.namespaced() ? this.namespace.name() : null);
			JsonObject json = listJson(path);
			byte[] protobuf = listProtobuf(path);
			int count = assertSameModels(listable, json, protobuf);
			objects += count;
			compared.put(listable.resource.toString(), count);
		}
		System.out.println("Compared " + objects + " objects of " + compared.size() + " kinds: " + compared
				+ "; not built in: " + notBuiltIn);
		// the realistic objects this test created were among them (each decoded in 6
		// ways)
		for (String kind : List.of("pods/v1", "configmaps/v1", "secrets/v1", "services/v1", "events/v1",
				"deployments.apps/v1", "statefulsets.apps/v1", "controllerrevisions.apps/v1", "cronjobs.batch/v1",
				"leases.coordination.k8s.io/v1", "events.events.k8s.io/v1", "horizontalpodautoscalers.autoscaling/v2",
				"endpointslices.discovery.k8s.io/v1")) {
			assertThat(compared.get(kind)).as(kind).isGreaterThanOrEqualTo(6);
		}
		assertThat(notBuiltIn).doesNotContain("pods/v1");
	}

	/**
	 * The metadata of every kind the API server lists, custom resources included, comes
	 * in protobuf when asked for as {@code meta.k8s.io/v1} {@code PartialObjectMetadata},
	 * and decodes as the JSON path decodes it.
	 */
	@Test
	void metadataOfEveryKindDecodesFromProtobufAsFromJson() throws Exception {
		Manifests manifests = new Manifests(this.admin);
		manifests.apply(new org.springframework.core.io.ClassPathResource("io/github/kubeop/typed/crds.yaml")
			.getContentAsString(java.nio.charset.StandardCharsets.UTF_8), this.namespace.name());
		manifests.apply("""
				apiVersion: typed.kubeop.test/v1
				kind: Gadget
				metadata:
				  name: one
				  labels: {app: web}
				  annotations: {kubectl.kubernetes.io/last-applied-configuration: '{"kind":"Gadget"}'}
				spec: {title: one}
				""", this.namespace.name());
		Map<String, Integer> compared = new java.util.TreeMap<>();
		for (ResourceKind resource : listableResources()) {
			if (!builtIn(resource) && !resource.group().equals("typed.kubeop.test")) {
				// custom resources of other test classes come and go on the shared
				// control
				// plane: a CRD torn down meanwhile answers 404 or 429
				continue;
			}
			String path = resource.collectionPath(resource.namespaced() ? this.namespace.name() : null);
			JsonObject json = getJson(path, PartialObjectMetadata.LIST_MEDIA_TYPE);
			assertThat(json.get("kind").getAsString()).as(resource.toString()).isEqualTo("PartialObjectMetadataList");
			byte[] protobuf = listProtobuf(path, PartialObjectMetadata.PROTOBUF_LIST_MEDIA_TYPE);
			compared.put(resource.toString(),
					assertSameModels(new Listable(resource, PartialObjectMetadata.class), json, protobuf));
		}
		System.out.println("Compared the metadata of " + compared.values().stream().mapToInt(Integer::intValue).sum()
				+ " objects of " + compared.size() + " kinds: " + compared);
		for (String kind : List.of("pods/v1", "configmaps/v1", "deployments.apps/v1", "gadgets.typed.kubeop.test/v1",
				"customresourcedefinitions.apiextensions.k8s.io/v1")) {
			assertThat(compared.get(kind)).as(kind).isGreaterThanOrEqualTo(6);
		}
	}

	/**
	 * Decodes both lists with every combination of transforms and both client
	 * configurations, and compares the models of the objects that are at the same
	 * resourceVersion in both.
	 * @return the number of objects compared
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private int assertSameModels(Listable listable, JsonObject json, byte[] protobuf) throws IOException {
		ResourceKind resource = listable.resource;
		Class type = listable.type;
		int compared = 0;
		ApiClient client = new ApiClient();
		for (Gson gson : List.of(this.clientGson, this.keepingGson)) {
			for (Set<StandardTransform> transforms : TRANSFORMS) {
				ResourceInformer informer = new ResourceInformer<>(spec(type, transforms), resource, client);
				Map<String, Object> expected = new LinkedHashMap<>();
				// an empty list of metadata has "items": null
				JsonElement items = json.get("items");
				for (JsonElement item : items.isJsonNull() ? new com.google.gson.JsonArray() : items.getAsJsonArray()) {
					JsonObject object = item.deepCopy().getAsJsonObject();
					object.addProperty("apiVersion", resource.apiVersion());
					object.addProperty("kind", resource.kind());
					JsonObject metadata = object.getAsJsonObject("metadata");
					String version = identity(metadata.has("uid") ? metadata.get("uid").getAsString() : null,
							metadata.has("name") ? metadata.get("name").getAsString() : null,
							metadata.has("resourceVersion") ? metadata.get("resourceVersion").getAsString() : null);
					expected.put(version, treePath(informer, gson, object));
				}
				ProtobufDecoder decoder = ProtobufDecoder.of(informer.spec(), resource, gson);
				assertThat(decoder).as(resource.toString()).isNotNull();
				Map<String, Object> actual = new LinkedHashMap<>();
				List<String> unreadable = new ArrayList<>();
				decoder.readList(new java.io.ByteArrayInputStream(protobuf), (object, key) -> {
					KubernetesObject decoded = (KubernetesObject) object;
					actual.put(identity(decoded.getMetadata().getUid(), decoded.getMetadata().getName(),
							decoded.getMetadata().getResourceVersion()), informer.transform(decoded));
				}, (key) -> unreadable.add(String.valueOf(key)), (metadata) -> {
				});
				assertThat(unreadable).as(resource.toString()).isEmpty();
				String description = resource + " with " + transforms
						+ ((gson == this.keepingGson) ? ", managedFields kept" : "");
				for (Map.Entry<String, Object> entry : actual.entrySet()) {
					Object wanted = expected.get(entry.getKey());
					if (wanted == null) {
						continue;
					}
					assertThat(entry.getValue()).as(description)
						.usingRecursiveComparison()
						.withEqualsForType(java.util.Arrays::equals, byte[].class)
						.isEqualTo(wanted);
					compared++;
				}
			}
		}
		return compared;
	}

	private static String identity(String uid, String name, String resourceVersion) {
		return ((uid != null) ? uid : name) + "@" + resourceVersion;
	}

	private Object treePath(ResourceInformer<?> informer, Gson gson, JsonObject tree) {
		if (gson == this.clientGson) {
			return informer.convert(tree);
		}
		for (StandardTransform transform : informer.spec().standardTransforms()) {
			transform.apply(tree);
		}
		return gson.fromJson(tree, informer.spec().type());
	}

	/**
	 * The kinds the API server serves lists of, with the client's model for each.
	 */
	private List<Listable> listables() throws IOException {
		List<Listable> listables = new ArrayList<>();
		for (ResourceKind resource : listableResources()) {
			Class<?> type = ModelMapper.getApiTypeClass(resource.group(), resource.version(), resource.kind());
			if (type != null && KubernetesObject.class.isAssignableFrom(type)) {
				listables.add(new Listable(resource, type));
			}
		}
		return listables;
	}

	/**
	 * The kinds the API server serves lists of.
	 */
	private static boolean builtIn(ResourceKind resource) {
		String group = resource.group();
		return group.isEmpty() || !group.contains(".") || group.endsWith(".k8s.io");
	}

	private List<ResourceKind> listableResources() throws IOException {
		List<ResourceKind> listables = new ArrayList<>();
		List<String> groupVersions = new ArrayList<>();
		groupVersions.add("/api/v1");
		for (JsonElement group : getJson("/apis").getAsJsonArray("groups")) {
			for (JsonElement version : group.getAsJsonObject().getAsJsonArray("versions")) {
				groupVersions.add("/apis/" + version.getAsJsonObject().get("groupVersion").getAsString());
			}
		}
		for (String groupVersion : groupVersions) {
			JsonObject resources = discover(groupVersion);
			if (resources == null) {
				continue;
			}
			String[] parts = resources.get("groupVersion").getAsString().split("/");
			String group = (parts.length == 2) ? parts[0] : "";
			String version = parts[parts.length - 1];
			for (JsonElement element : resources.getAsJsonArray("resources")) {
				JsonObject resource = element.getAsJsonObject();
				String name = resource.get("name").getAsString();
				if (name.contains("/") || !resource.getAsJsonArray("verbs").toString().contains("\"list\"")) {
					continue;
				}
				listables.add(new ResourceKind(group, version, resource.get("kind").getAsString(), name,
						resource.get("namespaced").getAsBoolean()));
			}
		}
		return listables;
	}

	/**
	 * The resources of a group version, or {@code null} if it went away since
	 * {@code /apis} listed it (another test class's CRD deleted meanwhile).
	 */
	private JsonObject discover(String groupVersion) throws IOException {
		Request request = new Request.Builder().url(this.admin.getBasePath() + groupVersion)
			.header("Accept", "application/json")
			.build();
		try (Response response = this.admin.getHttpClient().newCall(request).execute()) {
			if (response.code() == 404 && !groupVersion.equals("/api/v1")) {
				return null;
			}
			assertThat(response.code()).as(groupVersion).isEqualTo(200);
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
	}

	private JsonObject getJson(String path) throws IOException {
		return getJson(path, "application/json");
	}

	private JsonObject getJson(String path, String accept) throws IOException {
		Request request = new Request.Builder().url(this.admin.getBasePath() + path).header("Accept", accept).build();
		try (Response response = this.admin.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).as(path).isEqualTo(200);
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
	}

	private JsonObject listJson(String path) throws IOException {
		return getJson(path);
	}

	private byte[] listProtobuf(String path) throws IOException {
		return listProtobuf(path, ProtobufDecoder.MEDIA_TYPE);
	}

	private byte[] listProtobuf(String path, String accept) throws IOException {
		Request request = new Request.Builder().url(this.admin.getBasePath() + path).header("Accept", accept).build();
		try (Response response = this.admin.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).as(path).isEqualTo(200);
			assertThat(response.header("Content-Type")).as(path).startsWith(ProtobufDecoder.MEDIA_TYPE);
			return response.body().bytes();
		}
	}

	private static <T extends KubernetesObject> InformerSpec<T> spec(Class<T> type, Set<StandardTransform> transforms) {
		return new InformerSpec<>("decoded", "v1", type.getSimpleName(), type, List.of(), null, null, Duration.ZERO,
				false, Map.of(), InformerSpec.DEFAULT_PAGE_SIZE, InformerSpec.DEFAULT_WATCH_TIMEOUT,
				InformerSpec.DEFAULT_STALL_TIMEOUT, InformerSpec.DEFAULT_PING_INTERVAL, transforms, List.of());
	}

	private static V1PodStatus status() {
		OffsetDateTime started = OffsetDateTime.parse("2026-01-02T03:04:05Z");
		V1ContainerState running = new V1ContainerState().running(new V1ContainerStateRunning().startedAt(started));
		return new V1PodStatus().phase("Running")
			.podIP("10.0.0.1")
			.podIPs(List.of(new V1PodIP().ip("10.0.0.1")))
			.hostIP("192.168.0.1")
			.startTime(started)
			.qosClass("Burstable")
			.conditions(List.of(new V1PodCondition().type("Ready").status("True").lastTransitionTime(started),
					new V1PodCondition().type("PodScheduled").status("True").lastTransitionTime(started)))
			.containerStatuses(List.of(
					new V1ContainerStatus().name("app")
						.image("registry.example/web:1.2.3")
						.imageID("registry.example/web@sha256:0123")
						.containerID("containerd://0")
						.ready(true)
						.started(true)
						.restartCount(0)
						.state(running),
					new V1ContainerStatus().name("proxy")
						.image("registry.example/proxy:0.9")
						.imageID("registry.example/proxy@sha256:4567")
						.ready(false)
						.restartCount(0)
						.state(running)));
	}

	private record Listable(ResourceKind resource, Class<?> type) {

	}

}
