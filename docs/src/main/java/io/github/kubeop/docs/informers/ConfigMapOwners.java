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

package io.github.kubeop.docs.informers;

// tag::example[]
import java.util.List;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.informer.PartialObjectMetadata;
import io.kubernetes.client.informer.cache.Lister;

import org.springframework.stereotype.Component;

/**
 * Reads and handles ConfigMaps as their metadata only, with
 * {@code kubeop.informers.resources.config-maps.metadata-only=true}: the cache never
 * holds their data.
 *
 * @author Kubeop authors
 */
@Component
public class ConfigMapOwners {

	private final Lister<PartialObjectMetadata> configMaps;

	ConfigMapOwners(Lister<PartialObjectMetadata> configMaps) {
		this.configMaps = configMaps;
	}

	/**
	 * Returns the names of the cached ConfigMaps of a namespace that a team owns.
	 * @param namespace the namespace
	 * @param team the value of the {@code team} label
	 * @return the names
	 */
	public List<String> ownedBy(String namespace, String team) {
		return this.configMaps.namespace(namespace)
			.list()
			.stream()
			.filter((configMap) -> team.equals(configMap.getMetadata().getLabels().get("team")))
			.map((configMap) -> configMap.getMetadata().getName())
			.toList();
	}

	@OnAdd(informer = "config-maps")
	void added(PartialObjectMetadata configMap) {
		// configMap.getKind() is "ConfigMap"; labels, annotations, owner references and
		// the resourceVersion are there, the data is not
	}

}
// end::example[]
