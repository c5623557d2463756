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

package io.github.kubeop.test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link Manifests} returns once the custom resources it defines are served:
 * the first LIST an informer sends right after succeeds, where the watch cache of a new
 * resource answers {@code 429 storage is (re)initializing} for a moment.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ManifestsTests {

	@Test
	void definitionsAreServedFromTheWatchCacheWhenApplyReturns(ApiClient client) {
		String definitions = Stream.of("bolt", "nut", "washer").map((kind) -> """
				apiVersion: apiextensions.k8s.io/v1
				kind: CustomResourceDefinition
				metadata:
				  name: %1$ss.manifests.kubeop.test
				spec:
				  group: manifests.kubeop.test
				  scope: Namespaced
				  names: {kind: %1$s, plural: %1$ss, singular: %1$s}
				  versions:
				    - name: v1
				      served: true
				      storage: true
				      schema:
				        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
				""".formatted(kind)).collect(Collectors.joining("---\n"));
		new Manifests(client).apply(definitions, "default");
		// an informer's first request: a LIST in all namespaces, at any resourceVersion
		List<String> failures = new ArrayList<>();
		for (String plural : List.of("bolts", "nuts", "washers")) {
			try {
				new CustomObjectsApi(client).listClusterCustomObject("manifests.kubeop.test", "v1", plural)
					.resourceVersion("0")
					.execute();
			}
			catch (ApiException ex) {
				failures.add(plural + ": HTTP " + ex.getCode() + " " + ex.getResponseBody());
			}
		}
		assertThat(failures).isEmpty();
	}

}
