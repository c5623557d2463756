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

import io.github.kubeop.informer.IndexFunction;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.models.V1Pod;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

/**
 * Finds the cached pods of a node through an index, with
 * {@code kubeop.informers.resources.pods.indexers=podsByNode}.
 *
 * @author Kubeop authors
 */
@Component
public class PodsOnNode {

	private final Indexer<V1Pod> pods;

	private final Lister<V1Pod> lister;

	PodsOnNode(Indexer<V1Pod> pods, Lister<V1Pod> lister) {
		this.pods = pods;
		this.lister = lister;
	}

	/**
	 * Returns the cached pods scheduled to a node.
	 * @param node the node's name
	 * @return the pods
	 */
	public List<V1Pod> onNode(String node) {
		// the index name is the IndexFunction bean's name
		return this.pods.byIndex("podsByNode", node);
	}

	/**
	 * Returns the cached pods of a namespace, through the built-in namespace index.
	 * @param namespace the namespace
	 * @return the pods
	 */
	public List<V1Pod> inNamespace(String namespace) {
		return this.lister.namespace(namespace).list();
	}

	/**
	 * Declares the index.
	 */
	@Configuration(proxyBeanMethods = false)
	static class PodIndexConfiguration {

		@Bean
		IndexFunction<V1Pod> podsByNode() {
			return (pod) -> (pod.getSpec() != null && pod.getSpec().getNodeName() != null)
					? List.of(pod.getSpec().getNodeName()) : List.of();
		}

	}

}
// end::example[]
