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

package io.github.kubeop.sample;

// tag::resource[]
import java.util.List;
import java.util.Map;

import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.resource.KubernetesResource;
import io.github.kubeop.resource.KubernetesResource.PrinterColumn;
import io.github.kubeop.resource.ValidationRule;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;

/**
 * The sample's custom resource: a set of pages served by nginx. Its CRD is generated from
 * this class at build time.
 *
 * @author Kubeop authors
 */
@KubernetesResource(group = "sample.kubeop.io", version = "v1alpha1", shortNames = "site",
		printerColumns = { @PrinterColumn(name = "Replicas", type = "integer", jsonPath = ".spec.replicas"),
				@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status") })
public class StaticSite extends CustomResource<StaticSite.Spec, StaticSite.Status> {

	/**
	 * What the user wants: replicas (1 if unset), image ({@code nginx:1.27-alpine} if
	 * unset), the files to serve, by name, and optionally a ConfigMap in the site's
	 * namespace whose files are served too.
	 */
	@ValidationRule(value = "self.pages.all(page, page.matches('^[-._a-zA-Z0-9]+$'))", fieldPath = ".pages",
			message = "page names must be ConfigMap keys: letters, digits, '-', '_' and '.'")
	public record Spec(@Min(0) @Max(20) Integer replicas, String image, @NotEmpty Map<String, String> pages,
			String pagesFrom) {

	}

	/**
	 * What the operator last did: the generation, the URL inside the cluster, conditions.
	 */
	public record Status(Long observedGeneration, String url, List<V1Condition> conditions) {

	}

}
// end::resource[]
