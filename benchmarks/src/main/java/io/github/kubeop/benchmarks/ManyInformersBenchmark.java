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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Twenty informers over one cluster, one per built-in kind an operator commonly watches
 * ({@link ManyInformersProbe#KINDS}), cluster-wide: Kubeop's {@code InformerRegistry},
 * client-java's {@code SharedInformerFactory} and client-go's shared informer factory,
 * each sample in a fresh process, the order rotated between samples. Twenty kinds rather
 * than twenty namespaces of one kind because that is what an operator's informers look
 * like (a Deployment operator watches Deployments, ReplicaSets, Pods, Services,
 * ConfigMaps, Secrets...), and because every kind is a connection, a watch and a cache of
 * its own in every client, where twenty namespaces of one kind would be one informer for
 * client-go's factory. Records time until all synced, live threads, heap after GC, RSS;
 * samples in {@code benchmarks/results/many.json}.
 * <p>
 * Usage: {@code ManyInformersBenchmark [repetitions] [pods]}: the cluster holds
 * {@code pods} Pods, as many ConfigMaps, half as many Secrets and a tenth as many
 * Services, besides what the API server creates itself.
 *
 * @author Kubeop authors
 */
public final class ManyInformersBenchmark {

	private static final String NAMESPACE = "many";

	private static final List<String> METRICS = List.of("syncMillis", "threads", "osThreads", "heapMiB", "rssMiB",
			"objects");

	private ManyInformersBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int repetitions = (args.length > 0) ? Integer.parseInt(args[0]) : 3;
		int pods = (args.length > 1) ? Integer.parseInt(args[1]) : 500;
		Results results = new Results("many");
		Path clientGo = ClientGo.build();
		List<String> contenders = new ArrayList<>(List.of(Contenders.KUBEOP, Contenders.CLIENT_JAVA));
		if (clientGo != null) {
			contenders.add(Contenders.CLIENT_GO);
		}
		String workload = String.format(Locale.ROOT, "%d informers, cluster-wide, %,d Pods and %,d other objects",
				ManyInformersProbe.KINDS.size(), pods, pods + pods / 2 + pods / 10);
		try (LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve())) {
			ApiClient client = controlPlane.apiClient();
			populate(client, pods);
			for (int repetition = 0; repetition < repetitions; repetition++) {
				List<String> order = new ArrayList<>(contenders);
				Collections.rotate(order, -repetition);
				for (String contender : order) {
					JsonObject sample = contender.equals(Contenders.CLIENT_GO)
							? clientGo(clientGo, controlPlane.kubeconfigFile(), results)
							: ChildJvm.run(ManyInformersProbe.class,
									List.of(controlPlane.kubeconfigFile().toString(), contender));
					for (String metric : METRICS) {
						results.add(workload, ManyInformersProbe.KINDS.size(), contender, metric,
								sample.get(metric).getAsDouble());
					}
					System.out.printf(Locale.ROOT,
							"many %s: %.0f ms, %d threads (%d OS threads), heap %.1f MiB, RSS %.0f MiB, %d objects%n",
							contender, sample.get("syncMillis").getAsDouble(), sample.get("threads").getAsInt(),
							sample.get("osThreads").getAsInt(), sample.get("heapMiB").getAsDouble(),
							sample.get("rssMiB").getAsDouble(), sample.get("objects").getAsInt());
				}
			}
		}
		results.write(Path.of("benchmarks", "results"));
	}

	/**
	 * Runs the client-go program's {@code -mode many} once.
	 */
	private static JsonObject clientGo(Path binary, Path kubeconfig, Results results) throws Exception {
		return ClientGo.run(List.of(binary.toString(), "-kubeconfig", kubeconfig.toString(), "-mode", "many"), results);
	}

	private static void populate(ApiClient client, int pods) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(NAMESPACE))).execute();
		// no controller-manager here: the service account admission needs it created
		core.createNamespacedServiceAccount(NAMESPACE,
				new V1ServiceAccount().metadata(new V1ObjectMeta().name("default")))
			.execute();
		DynamicKubernetesApi podApi = new DynamicKubernetesApi("", "v1", "pods", client);
		DynamicKubernetesApi configMapApi = new DynamicKubernetesApi("", "v1", "configmaps", client);
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < pods; i++) {
				int index = i;
				futures.add(executor.submit(() -> podApi
					.create(new DynamicKubernetesObject(
							JsonParser.parseString(Payloads.pod(NAMESPACE, index)).getAsJsonObject()))
					.throwsApiException()));
				futures.add(executor.submit(() -> configMapApi
					.create(new DynamicKubernetesObject(
							JsonParser.parseString(Payloads.configMap(NAMESPACE, index)).getAsJsonObject()))
					.throwsApiException()));
				if (i % 2 == 0) {
					futures.add(executor.submit(
							() -> core
								.createNamespacedSecret(NAMESPACE,
										new V1Secret().metadata(new V1ObjectMeta().name("secret-" + index))
											.putStringDataItem("password", "not-a-secret-" + index))
								.execute()));
				}
				if (i % 10 == 0) {
					futures.add(executor.submit(
							() -> core
								.createNamespacedService(NAMESPACE,
										new V1Service()
											.metadata(new V1ObjectMeta().name("service-" + index))
											.spec(new V1ServiceSpec().putSelectorItem("app", "app-" + index)
												.addPortsItem(new V1ServicePort().port(80))))
								.execute()));
				}
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

}
