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

// tag::example[]
import java.util.Map;

import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.docs.crds.Website;
import io.github.kubeop.write.Conditions;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import org.springframework.stereotype.Component;

/**
 * Applies a ConfigMap for each {@link Website}, owned by it, reports a {@code Ready}
 * condition, and leaves a note behind when a website is deleted.
 *
 * @author Kubeop authors
 */
@Component
public class WebsiteReconciler {

	private final KubernetesTemplate kubernetes;

	WebsiteReconciler(KubernetesTemplate kubernetes) {
		this.kubernetes = kubernetes;
	}

	@Reconcile
	void reconcile(Website website) throws ApiException {
		// built afresh: it carries exactly the fields this operator owns; the website
		// becomes its controller owner
		this.kubernetes.apply(new V1ConfigMap().metadata(meta(website, website.getMetadata().getName()))
			.data(Map.of("host", website.getSpec().host())));
		// this operator's conditions only, each keeping its lastTransitionTime while
		// its status holds; written only if it changed, observedGeneration kept
		Website.Status status = website.getStatus();
		this.kubernetes.applyStatus(website, new Website.Status(null, Conditions.toApply(
				(status != null) ? status.conditions() : null,
				new V1Condition().type("Ready").status("True").reason("Applied").message("ConfigMap applied"))));
	}

	@OnDelete
	void deleted(Website website) throws ApiException {
		// a delete call owns nothing: the note outlives the website
		this.kubernetes.apply(new V1ConfigMap().metadata(meta(website, website.getMetadata().getName() + "-deleted"))
			.data(Map.of("uid", website.getMetadata().getUid())));
	}

	private static V1ObjectMeta meta(Website website, String name) {
		return new V1ObjectMeta().name(name).namespace(website.getMetadata().getNamespace());
	}

}
// end::example[]
