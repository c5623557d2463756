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

package io.github.kubeop.reliability;

import java.util.List;

import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;

/**
 * A control plane whose old revisions go away within a second: no watch cache, so watches
 * and lists read etcd, and etcd compacted every second, so that a watch resumed, or a
 * paged list continued, from an old resourceVersion gets {@code 410 Gone}.
 *
 * @author Kubeop authors
 */
public final class CompactingControlPlane {

	private CompactingControlPlane() {
	}

	/**
	 * Starts a control plane of its own, to be closed by the caller.
	 * @return the control plane
	 */
	public static LocalControlPlane start() {
		return LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve(),
				List.of("--watch-cache=false", "--etcd-compaction-interval=1s"));
	}

	/**
	 * Returns whether etcd no longer has a resourceVersion of a namespace's config maps.
	 * A watch from a resourceVersion reads from the next one, so that is the one to ask
	 * about for a watch.
	 * @param client the client
	 * @param namespace the namespace
	 * @param resourceVersion the resourceVersion
	 * @return whether a read at exactly that resourceVersion gets {@code 410 Gone}
	 * @throws ApiException on any other failure
	 */
	public static boolean isCompacted(ApiClient client, String namespace, String resourceVersion) throws ApiException {
		try {
			new CoreV1Api(client).listNamespacedConfigMap(namespace)
				.resourceVersion(resourceVersion)
				.resourceVersionMatch("Exact")
				.limit(1)
				.execute();
			return false;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 410) {
				return true;
			}
			throw ex;
		}
	}

}
