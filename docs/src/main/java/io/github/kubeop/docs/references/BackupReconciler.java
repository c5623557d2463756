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

package io.github.kubeop.docs.references;

// tag::reconciler[]
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.annotation.References;
import io.github.kubeop.handler.HandlerContext;
import io.github.kubeop.handler.Trigger;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;

import org.springframework.stereotype.Component;

/**
 * Reconciles a {@link Backup} whenever it, its credentials Secret or one of its
 * ConfigMaps changes, appears or goes.
 *
 * @author Kubeop authors
 */
@Component
@References(value = V1Secret.class, path = "spec.credentialsSecret", informer = "secrets", referencedOnly = true)
@References(value = V1ConfigMap.class, path = "spec.sources[].configMap", namespacePath = "spec.sources[].namespace",
		informer = "configMaps")
public class BackupReconciler {

	private final Lister<V1Secret> secrets;

	private final Lister<V1ConfigMap> configMaps;

	BackupReconciler(Lister<V1Secret> secrets, Lister<V1ConfigMap> configMaps) {
		this.secrets = secrets;
		this.configMaps = configMaps;
	}

	@Reconcile
	void reconcile(Backup backup, HandlerContext context) {
		String namespace = backup.getMetadata().getNamespace();
		// the secrets informer keeps referenced Secrets only: this one is among them
		V1Secret credentials = this.secrets.namespace(namespace).get(backup.getSpec().credentialsSecret());
		if (credentials == null) {
			// nothing to retry: the Secret's creation calls this method again
			return;
		}
		for (Backup.Source source : backup.getSpec().sources()) {
			String sourceNamespace = (source.namespace() != null) ? source.namespace() : namespace;
			V1ConfigMap configMap = this.configMaps.namespace(sourceNamespace).get(source.configMap());
			if (configMap != null) {
				upload(backup.getSpec().bucket(), credentials, configMap, context.trigger() == Trigger.REFERENCE);
			}
		}
	}

	private void upload(String bucket, V1Secret credentials, V1ConfigMap configMap, boolean referenceChanged) {
		// the upload itself is not the point of the example
	}

}
// end::reconciler[]
