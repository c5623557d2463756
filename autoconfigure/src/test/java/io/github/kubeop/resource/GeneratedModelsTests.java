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

package io.github.kubeop.resource;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.util.ModelMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link GeneratedModels}: it answers as the client's {@code ModelMapper} does,
 * for every model of the client, without loading them all.
 *
 * @author Kubeop authors
 */
class GeneratedModelsTests {

	@Test
	void findsModelsByGroupVersionAndKind() {
		assertThat(GeneratedModels.modelOf("apps", "v1", "Deployment")).isEqualTo(V1Deployment.class);
		assertThat(GeneratedModels.modelOf("", "v1", "Pod")).isEqualTo(V1Pod.class);
		assertThat(GeneratedModels.modelOf("", "v1", "Event")).isEqualTo(CoreV1Event.class);
		assertThat(GeneratedModels.modelOf("events.k8s.io", "v1", "Event")).isEqualTo(EventsV1Event.class);
		assertThat(GeneratedModels.modelOf("", "v1", "ObjectMeta")).isNull();
		assertThat(GeneratedModels.modelOf("", "v1", "NoSuchKind")).isNull();
		assertThat(GeneratedModels.modelOf("", "v1", "pods")).isNull();
		assertThat(GeneratedModels.modelOf("", "1", "Pod")).isNull();
	}

	@Test
	void readsGroupVersionAndKindOfModels() {
		assertThat(GeneratedModels.groupVersionKindOf(V1Deployment.class))
			.contains(new GroupVersionKind("", "v1", "Deployment"));
		assertThat(GeneratedModels.groupVersionKindOf(EventsV1Event.class))
			.contains(new GroupVersionKind("events.k8s.io", "v1", "Event"));
		assertThat(GeneratedModels.groupVersionKindOf(ResourceV1ResourceClaim.class))
			.contains(new GroupVersionKind("resource.k8s.io", "v1", "ResourceClaim"));
		assertThat(GeneratedModels.groupVersionKindOf(V1ObjectMeta.class)).isEmpty();
		assertThat(GeneratedModels.groupVersionKindOf(V1PodStatus.class)).isEmpty();
		assertThat(GeneratedModels.groupVersionKindOf(String.class)).isEmpty();
	}

	@Test
	void answersAsTheClientsModelMapperForEveryModel() throws IOException {
		List<String> mismatches = new ArrayList<>();
		int compared = 0;
		for (String name : modelClassNames()) {
			Class<?> type = load(name);
			Optional<GroupVersionKind> expected = ModelMapper.preBuiltGetGroupVersionKindByClass(type);
			if (expected.isPresent() && (expected.get().getVersion() == null
					|| !Character.isUpperCase(expected.get().getKind().charAt(0)))) {
				// the client takes v1alpha2 for v1 and 'alpha2...' for the kind, and
				// finds no version behind a group prefix it does not know: not compared
				continue;
			}
			compared++;
			Optional<GroupVersionKind> actual = GeneratedModels.groupVersionKindOf(type);
			if (!expected.equals(actual)) {
				mismatches.add(name + ": " + expected + " != " + actual);
			}
			if (expected.isPresent()) {
				GroupVersionKind gvk = expected.get();
				Class<?> model = ModelMapper.preBuiltGetApiTypeClass(gvk.getGroup(), gvk.getVersion(), gvk.getKind());
				Class<?> found = GeneratedModels.modelOf(gvk.getGroup(), gvk.getVersion(), gvk.getKind());
				if (model != found) {
					mismatches.add(gvk + ": " + model + " != " + found);
				}
			}
		}
		assertThat(compared).isGreaterThan(500);
		assertThat(mismatches).isEmpty();
	}

	private static Class<?> load(String name) {
		try {
			return Class.forName(name, false, GeneratedModelsTests.class.getClassLoader());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> modelClassNames() throws IOException {
		URL pod = V1Pod.class.getResource("V1Pod.class");
		List<String> names = new ArrayList<>();
		try (JarFile jar = ((JarURLConnection) pod.openConnection()).getJarFile()) {
			for (String entry : Collections.list(jar.entries()).stream().map(Object::toString).toList()) {
				if (entry.startsWith("io/kubernetes/client/openapi/models/") && entry.endsWith(".class")
						&& !entry.contains("$")) {
					names.add(entry.substring(0, entry.length() - 6).replace('/', '.'));
				}
			}
		}
		return names;
	}

}
