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

import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

import com.google.gson.Gson;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerSpec;
import io.github.kubeop.informer.ResourceInformer;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1CronJob;
import io.kubernetes.client.openapi.models.V1CronJobList;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1DaemonSetList;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentList;
import io.kubernetes.client.openapi.models.V1EndpointSlice;
import io.kubernetes.client.openapi.models.V1EndpointSliceList;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1IngressList;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobList;
import io.kubernetes.client.openapi.models.V1LimitRange;
import io.kubernetes.client.openapi.models.V1LimitRangeList;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceList;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimList;
import io.kubernetes.client.openapi.models.V1PersistentVolumeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetList;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetList;
import io.kubernetes.client.openapi.models.V1ResourceQuota;
import io.kubernetes.client.openapi.models.V1ResourceQuotaList;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretList;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ServiceAccountList;
import io.kubernetes.client.openapi.models.V1ServiceList;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StatefulSetList;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * Twenty informers over one cluster, started by one Java contender in a fresh JVM, run by
 * {@link ManyInformersBenchmark}: the client and the twenty informers are built first;
 * the time runs from starting them until every one's {@code hasSynced} is true, polled
 * every millisecond; then the live Java threads, the process's OS threads (with the JVM's
 * own: GC, JIT), heap used after three full GCs, and {@code VmRSS}. Prints one JSON line.
 * <p>
 * Usage: {@code ManyInformersProbe kubeconfig-file contender}.
 *
 * @author Kubeop authors
 */
public final class ManyInformersProbe {

	/**
	 * The built-in kinds an operator commonly watches, cluster-wide: the same twenty as
	 * the client-go program's {@code -mode many}.
	 */
	static final List<Kind<?, ?>> KINDS = List.of(new Kind<>("", "v1", "Pod", "pods", V1Pod.class, V1PodList.class),
			new Kind<>("", "v1", "Service", "services", V1Service.class, V1ServiceList.class),
			new Kind<>("", "v1", "ConfigMap", "configmaps", V1ConfigMap.class, V1ConfigMapList.class),
			new Kind<>("", "v1", "Secret", "secrets", V1Secret.class, V1SecretList.class),
			new Kind<>("", "v1", "ServiceAccount", "serviceaccounts", V1ServiceAccount.class,
					V1ServiceAccountList.class),
			new Kind<>("", "v1", "Namespace", "namespaces", V1Namespace.class, V1NamespaceList.class),
			new Kind<>("", "v1", "Node", "nodes", V1Node.class, V1NodeList.class),
			new Kind<>("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", V1PersistentVolumeClaim.class,
					V1PersistentVolumeClaimList.class),
			new Kind<>("", "v1", "PersistentVolume", "persistentvolumes", V1PersistentVolume.class,
					V1PersistentVolumeList.class),
			new Kind<>("", "v1", "ResourceQuota", "resourcequotas", V1ResourceQuota.class, V1ResourceQuotaList.class),
			new Kind<>("", "v1", "LimitRange", "limitranges", V1LimitRange.class, V1LimitRangeList.class),
			new Kind<>("apps", "v1", "Deployment", "deployments", V1Deployment.class, V1DeploymentList.class),
			new Kind<>("apps", "v1", "ReplicaSet", "replicasets", V1ReplicaSet.class, V1ReplicaSetList.class),
			new Kind<>("apps", "v1", "StatefulSet", "statefulsets", V1StatefulSet.class, V1StatefulSetList.class),
			new Kind<>("apps", "v1", "DaemonSet", "daemonsets", V1DaemonSet.class, V1DaemonSetList.class),
			new Kind<>("batch", "v1", "Job", "jobs", V1Job.class, V1JobList.class),
			new Kind<>("batch", "v1", "CronJob", "cronjobs", V1CronJob.class, V1CronJobList.class),
			new Kind<>("networking.k8s.io", "v1", "Ingress", "ingresses", V1Ingress.class, V1IngressList.class),
			new Kind<>("discovery.k8s.io", "v1", "EndpointSlice", "endpointslices", V1EndpointSlice.class,
					V1EndpointSliceList.class),
			new Kind<>("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", V1PodDisruptionBudget.class,
					V1PodDisruptionBudgetList.class));

	private ManyInformersProbe() {
	}

	public static void main(String[] args) throws Exception {
		String kubeconfig = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
		String contender = args[1];
		ApiClient client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig))).build();
		client.setReadTimeout(0);
		Started started = switch (contender) {
			case Contenders.KUBEOP -> kubeop(client);
			case Contenders.CLIENT_JAVA -> official(client);
			default -> throw new IllegalArgumentException("Unknown contender " + contender);
		};
		long start = System.nanoTime();
		started.start().run();
		while (!started.synced().getAsBoolean()) {
			Thread.sleep(1);
		}
		long synced = System.nanoTime();
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(100);
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("syncMillis", (synced - start) / 1e6);
		result.put("objects", started.objects().getAsInt());
		result.put("informers", KINDS.size());
		result.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
		result.put("osThreads", statusField("Threads:"));
		result.put("heapMiB", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0));
		result.put("rssMiB", statusField("VmRSS:") / 1024.0);
		System.out.println(new Gson().toJson(result));
		System.out.flush();
		// informer threads are not daemons in every client
		System.exit(0);
	}

	private static Started kubeop(ApiClient client) {
		InformerRegistry registry = new InformerRegistry(client);
		List<ResourceInformer<?>> informers = new ArrayList<>();
		for (Kind<?, ?> kind : KINDS) {
			// discovery happens here, when the informer is registered: before the timed
			// region
			informers.add(kubeop(registry, kind));
		}
		return new Started(registry::start, () -> informers.stream().allMatch(ResourceInformer::hasSynced),
				() -> informers.stream().mapToInt((informer) -> informer.indexer().list().size()).sum());
	}

	private static <T extends KubernetesObject> ResourceInformer<T> kubeop(InformerRegistry registry, Kind<T, ?> kind) {
		String apiVersion = kind.group().isEmpty() ? kind.version() : kind.group() + "/" + kind.version();
		ResourceInformer<T> informer = registry
			.informer(InformerSpec.of(kind.plural(), apiVersion, kind.kind(), kind.type()));
		informer.addEventHandler(new NoOpHandler<>());
		return informer;
	}

	private static Started official(ApiClient client) {
		SharedInformerFactory factory = new SharedInformerFactory(client);
		List<SharedIndexInformer<?>> informers = new ArrayList<>();
		for (Kind<?, ?> kind : KINDS) {
			informers.add(official(factory, client, kind));
		}
		return new Started(factory::startAllRegisteredInformers,
				() -> informers.stream().allMatch(SharedIndexInformer::hasSynced),
				() -> informers.stream().mapToInt((informer) -> informer.getIndexer().list().size()).sum());
	}

	private static <T extends KubernetesObject, L extends KubernetesListObject> SharedIndexInformer<T> official(
			SharedInformerFactory factory, ApiClient client, Kind<T, L> kind) {
		SharedIndexInformer<T> informer = factory.sharedIndexInformerFor(new GenericKubernetesApi<>(kind.type(),
				kind.listType(), kind.group(), kind.version(), kind.plural(), client), kind.type(), 0);
		informer.addEventHandler(new NoOpHandler<>());
		return informer;
	}

	/**
	 * Returns a numeric field of {@code /proc/self/status} ({@code VmRSS} in KiB,
	 * {@code Threads}), or 0 where there is no {@code /proc}.
	 */
	static long statusField(String name) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith(name)) {
					return Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
		}
		catch (java.io.IOException ex) {
			// not Linux
		}
		return 0;
	}

	/**
	 * A kind to inform on.
	 *
	 * @param <T> the model type
	 * @param <L> the list type
	 * @param group the API group, empty for the core group
	 * @param version the version
	 * @param kind the kind
	 * @param plural the resource
	 * @param type the model type
	 * @param listType the list type
	 */
	record Kind<T extends KubernetesObject, L extends KubernetesListObject>(String group, String version, String kind,
			String plural, Class<T> type, Class<L> listType) {

	}

	/**
	 * Twenty informers ready to start: what starts them, whether all have synced, and how
	 * many objects they cache together.
	 */
	private record Started(Runnable start, BooleanSupplier synced, IntSupplier objects) {

	}

}
