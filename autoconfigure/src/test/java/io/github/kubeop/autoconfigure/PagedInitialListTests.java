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

package io.github.kubeop.autoconfigure;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import io.github.kubeop.informer.CacheSyncTimeoutException;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a large initial list is read in pages, as client-go's reflector does and the
 * official Java client's does not, with consistent reads that the API server's watch
 * cache serves.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class PagedInitialListTests {

	private static final int OBJECTS = 5000;

	@BeforeAll
	static void createObjects(ApiClient client, TestNamespace namespace) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			List<Future<V1ConfigMap>> created = IntStream.range(0, OBJECTS)
				.mapToObj((i) -> executor.submit(() -> KubernetesObjects.configMap(client, namespace.name(),
						"settings-" + i, Map.of("batch", "paged"))))
				.toList();
			for (Future<V1ConfigMap> future : created) {
				future.get();
			}
		}
		finally {
			executor.shutdown();
		}
	}

	@Test
	void initialListOf5000ObjectsIsReadInPagesOfTheConfiguredSize(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		double cachedBefore = configMapLists(controlPlane.apiClient(), "apiserver_cache_list_total");
		double storageBefore = configMapLists(controlPlane.apiClient(), "apiserver_storage_list_total");
		List<HttpUrl> listRequests = new CopyOnWriteArrayList<>();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			HttpUrl url = chain.request().url();
			if (url.encodedPath().endsWith("/configmaps") && url.queryParameter("watch") == null) {
				listRequests.add(url);
			}
			return chain.proceed(chain.request());
		}).build());
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeop.informers.page-size=500", "kubeop.informers.list-strategy=list",
					"kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name(),
					// only the test's objects: a cluster with a controller-manager (K3s)
					// adds kube-root-ca.crt to every namespace, one more page
					"kubeop.informers.resources.settings.label-selector=batch=paged")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1ConfigMap> settings = KubernetesObjects.lister(context, V1ConfigMap.class);
				assertThat(settings.list()).hasSize(OBJECTS);
				assertThat(listRequests).hasSize(OBJECTS / 500);
				assertThat(listRequests).allSatisfy((url) -> assertThat(url.queryParameter("limit")).isEqualTo("500"));
				assertThat(listRequests.get(0).queryParameter("continue")).isNull();
				assertThat(listRequests.subList(1, listRequests.size()))
					.allSatisfy((url) -> assertThat(url.queryParameter("continue")).isNotBlank());
				// a consistent list from the watch cache (Kubernetes 1.31+, paged since
				// 1.34) asks etcd only for its current revision
				assertThat(configMapLists(controlPlane.apiClient(), "apiserver_cache_list_total") - cachedBefore)
					.as("pages served by the watch cache")
					.isGreaterThanOrEqualTo(OBJECTS / 500);
				assertThat(configMapLists(controlPlane.apiClient(), "apiserver_storage_list_total") - storageBefore)
					.as("lists served by etcd")
					.isLessThan(OBJECTS / 500);
			});
	}

	private static double configMapLists(ApiClient client, String metric) throws Exception {
		Request request = client
			.buildCall(client.getBasePath(), "/metrics", "GET", new ArrayList<>(), new ArrayList<>(), null,
					new HashMap<>(), new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null)
			.request();
		String metrics;
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).isEqualTo(200);
			metrics = response.body().string();
		}
		return metrics.lines()
			.filter((line) -> line.startsWith(metric + "{") && line.contains("resource=\"configmaps\""))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	@Test
	void syncTimeoutNamesTheInformerThatDidNotSyncAndTheProperty(ControlPlane controlPlane, TestNamespace namespace) {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
			.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.sync-timeout=1ms", "kubeop.informers.page-size=50",
					"kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name())
			.run((context) -> {
				CacheSyncTimeoutException failure = InformerConfigurationFailureTests
					.rootCause(context.getStartupFailure(), CacheSyncTimeoutException.class);
				assertThat(failure.getPending()).singleElement()
					.asString()
					.contains("informer 'settings' (configmaps/v1 in namespace " + namespace.name() + ")")
					.contains("listing");
				FailureAnalysis analysis = new CacheSyncTimeoutFailureAnalyzer().analyze(failure);
				assertThat(analysis.getAction()).contains("kubeop.informers.sync-timeout");
			});
	}

}
