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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests how a large initial list is read: as client-go's reflector, at
 * {@code resourceVersion=0} with a page size, so that the API server's watch cache serves
 * it (in one response: the cache ignores the limit for {@code resourceVersion=0}) rather
 * than etcd, which would page it (the pages themselves are tested against a server
 * without a watch cache in {@code WatchFaultTests}). Either way the response is read as a
 * stream, one object at a time.
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
	void initialListOf5000ObjectsIsServedByTheWatchCache(ControlPlane controlPlane, TestNamespace namespace) {
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
			.withPropertyValues("kubeop.informers.page-size=500", "kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Lister<V1ConfigMap> settings = KubernetesObjects.lister(context, V1ConfigMap.class);
				assertThat(settings.list()).hasSize(OBJECTS);
				assertThat(listRequests).singleElement().satisfies((url) -> {
					assertThat(url.queryParameter("resourceVersion")).isEqualTo("0");
					assertThat(url.queryParameter("resourceVersionMatch")).isNull();
					assertThat(url.queryParameter("limit")).isEqualTo("500");
					assertThat(url.queryParameter("continue")).isNull();
				});
			});
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
