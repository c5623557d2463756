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

package io.github.kubeop.docs.writing;

import java.util.List;
import java.util.Map;

import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.docs.crds.Website;
import io.github.kubeop.write.ApplyOptions;
import io.github.kubeop.write.DeleteOptions;
import io.github.kubeop.write.KubernetesTemplate;
import io.github.kubeop.write.Patch;
import io.github.kubeop.write.ReadResult;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

import org.springframework.stereotype.Component;

/**
 * Lists each {@link Website} in a shared directory namespace that no website owns, reads
 * the TLS Secret a website names, scales the website's front end, and removes its
 * directory entry when it is deleted.
 *
 * @author Kubeop authors
 */
@Component
public class WebsiteDirectory {

	private static final String DIRECTORY = "directory";

	private final KubernetesTemplate kubernetes;

	WebsiteDirectory(KubernetesTemplate kubernetes) {
		this.kubernetes = kubernetes;
	}

	@Reconcile
	void reconcile(Website website) throws ApiException {
		String namespace = website.getMetadata().getNamespace();
		String name = website.getMetadata().getName();
		// tag::not-owned[]
		// another namespace: the website cannot own it, and must not take it with it
		this.kubernetes
			.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(namespace + "." + name).namespace(DIRECTORY))
				.data(Map.of("host", website.getSpec().host())), ApplyOptions.notOwned());
		// end::not-owned[]
		// tag::read[]
		// from an informer's cache if one holds Secrets of this namespace, else a GET
		ReadResult<V1Secret> tls = this.kubernetes.read(V1Secret.class, namespace, name + "-tls");
		if (!tls.exists()) {
			throw new IllegalStateException("Secret " + name + "-tls is missing (read from " + tls.source() + ")");
		}
		List<V1ConfigMap> entries = this.kubernetes.list(V1ConfigMap.class, DIRECTORY, "app.kubernetes.io/part-of");
		// end::read[]
		// tag::patch[]
		V1Deployment frontEnd = this.kubernetes.get(V1Deployment.class, namespace, name + "-front");
		if (frontEnd != null) {
			// the replicas only, through the scale subresource, as kubectl scale does
			this.kubernetes.scale(frontEnd, Math.max(1, entries.size()));
			// a merge patch: the annotation only, the rest of the object untouched
			this.kubernetes.patch(frontEnd, Patch.merge(Map.of("metadata", Map.of("annotations",
					Map.of("example.com/directory-entry", DIRECTORY + "/" + namespace + "." + name)))));
		}
		// end::patch[]
	}

	// tag::delete[]
	@OnDelete
	void deleted(Website website) throws ApiException {
		String key = website.getMetadata().getNamespace() + "." + website.getMetadata().getName();
		V1ConfigMap entry = this.kubernetes.get(V1ConfigMap.class, DIRECTORY, key);
		if (entry != null) {
			// only the entry read: one created again since under that name is left alone
			// (an ObjectReplacedException says so)
			this.kubernetes.delete(entry, DeleteOptions.ifSameObject(entry));
		}
	}
	// end::delete[]

}
