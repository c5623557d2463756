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

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The sample's custom resource, read from the dynamic object the informer caches: a set
 * of pages served by nginx with a number of replicas.
 *
 * @param metadata the object metadata
 * @param spec what the user wants
 * @param status what the operator last did
 * @author Kubeop authors
 */
public record StaticSite(V1ObjectMeta metadata, Spec spec, Status status) {

	/**
	 * The API version.
	 */
	public static final String API_VERSION = "sample.kubeop.io/v1alpha1";

	/**
	 * What the user wants.
	 *
	 * @param replicas how many nginx replicas serve the pages
	 * @param image the nginx image
	 * @param pages the files to serve, by file name
	 */
	public record Spec(Integer replicas, String image, Map<String, String> pages) {

	}

	/**
	 * What the operator last did.
	 *
	 * @param observedGeneration the generation last reconciled
	 * @param url where the site is served inside the cluster
	 * @param conditions the conditions, {@code Ready} among them
	 */
	public record Status(Long observedGeneration, String url, List<Condition> conditions) {

	}

	/**
	 * A status condition.
	 *
	 * @param type the condition type
	 * @param status {@code True}, {@code False} or {@code Unknown}
	 * @param reason a machine-readable reason
	 * @param message a human-readable message
	 * @param observedGeneration the generation the condition describes
	 * @param lastTransitionTime when the status last changed
	 */
	public record Condition(String type, String status, String reason, String message, Long observedGeneration,
			String lastTransitionTime) {

	}

}
