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

package io.github.kubeop.docs.webhooks;

// tag::example[]
import io.github.kubeop.docs.crds.Website;
import io.github.kubeop.webhook.Admission;
import io.github.kubeop.webhook.AdmissionRequest;
import io.github.kubeop.webhook.MutatingWebhook;
import io.github.kubeop.webhook.ValidatingWebhook;

import org.springframework.stereotype.Component;

/**
 * Fills in a Website's defaults and refuses what the schema cannot express.
 *
 * @author Kubeop authors
 */
@Component
public class WebsiteWebhooks {

	@MutatingWebhook
	Website setDefaults(Website site, AdmissionRequest request) {
		Website.Spec spec = site.getSpec();
		if (spec != null && spec.tier() == null) {
			site.setSpec(new Website.Spec(spec.host(), spec.replicas(), Website.Tier.STANDARD, spec.memory(),
					spec.labels(), spec.aliases(), spec.theme()));
			request.addWarning("tier not set: STANDARD assumed");
		}
		return site; // <1>
	}

	@ValidatingWebhook
	Admission validate(Website site, Website old, AdmissionRequest request) { // <2>
		if (old != null && !old.getSpec().host().equals(site.getSpec().host())) {
			return Admission.denied("the host of a Website cannot change (was " + old.getSpec().host() + ")");
		}
		if (site.getSpec().host().endsWith(".internal") && !request.getUserInfo().getGroups().contains("ops")) {
			return Admission.denied("only the ops group may publish .internal hosts");
		}
		return Admission.allowed();
	}

}
// end::example[]
