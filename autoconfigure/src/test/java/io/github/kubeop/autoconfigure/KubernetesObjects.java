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
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.ResolvableType;

/**
 * Test helpers that write objects through the API server and read beans by generic type.
 *
 * @author Kubeop authors
 */
final class KubernetesObjects {

	private KubernetesObjects() {
	}

	static void namespace(ApiClient client, String name) throws ApiException {
		new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
	}

	static V1Pod pod(ApiClient client, String namespace, String name, Map<String, String> labels) throws ApiException {
		// the generated model sends an empty overhead map, which the RuntimeClass
		// admission
		// plugin rejects without a RuntimeClass
		V1PodSpec spec = new V1PodSpec().addContainersItem(new V1Container().name("main").image("busybox"))
			.overhead(null);
		return new CoreV1Api(client)
			.createNamespacedPod(namespace,
					new V1Pod().metadata(new V1ObjectMeta().name(name).labels(labels)).spec(spec))
			.execute();
	}

	static V1ConfigMap configMap(ApiClient client, String namespace, String name, Map<String, String> labels)
			throws ApiException {
		return new CoreV1Api(client)
			.createNamespacedConfigMap(namespace,
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(Map.of("k", "v")))
			.execute();
	}

	@SuppressWarnings("unchecked")
	static <T extends KubernetesObject> Lister<T> lister(BeanFactory beans, Class<T> type) {
		return (Lister<T>) beans.getBeanProvider(ResolvableType.forClassWithGenerics(Lister.class, type)).getObject();
	}

	@SuppressWarnings("unchecked")
	static <T> Indexer<T> indexer(BeanFactory beans, Class<T> type) {
		return (Indexer<T>) beans.getBeanProvider(ResolvableType.forClassWithGenerics(Indexer.class, type)).getObject();
	}

	static <T extends KubernetesObject> List<String> names(List<T> objects) {
		return objects.stream().map((object) -> object.getMetadata().getName()).sorted().toList();
	}

	static <T, R> List<R> map(List<T> objects, Function<T, R> function) {
		return objects.stream().map(function).toList();
	}

}
