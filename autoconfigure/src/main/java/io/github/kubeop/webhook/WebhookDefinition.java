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

package io.github.kubeop.webhook;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;

/**
 * One admission webhook as its configuration describes it: what it is called, where it is
 * served, the rule it matches and how the API server treats it. Read from an annotated
 * method by {@link WebhookMethods}, both at startup and by the Maven plugin.
 *
 * @param admission whether the webhook validates or mutates
 * @param name the webhook's name in its configuration, such as
 * {@code vstaticsite.sample.kubeop.io}
 * @param path the path it is served on
 * @param resource the resource it matches
 * @param operations the operations it matches
 * @param failurePolicy the failure policy
 * @param sideEffects the side effects
 * @param timeoutSeconds the timeout
 * @param namespaceSelector the namespace label selector, empty for all
 * @param objectSelector the object label selector, empty for all
 * @param method the method
 * @author Kubeop authors
 */
public record WebhookDefinition(Kind admission, String name, String path, WebhookResource resource,
		List<Operation> operations, FailurePolicy failurePolicy, SideEffects sideEffects, int timeoutSeconds,
		String namespaceSelector, String objectSelector, Method method) {

	/**
	 * Whether a webhook validates or mutates.
	 */
	public enum Kind {

		/**
		 * A {@link ValidatingWebhook}.
		 */
		VALIDATING("validate", "v"),

		/**
		 * A {@link MutatingWebhook}.
		 */
		MUTATING("mutate", "m");

		private final String pathPrefix;

		private final String namePrefix;

		Kind(String pathPrefix, String namePrefix) {
			this.pathPrefix = pathPrefix;
			this.namePrefix = namePrefix;
		}

	}

	/**
	 * Returns the path controller-runtime derives for a webhook of a resource, such as
	 * {@code /validate-sample-kubeop-io-v1-staticsite}.
	 * @param kind validating or mutating
	 * @param resource the resource
	 * @return the path
	 */
	static String defaultPath(Kind kind, WebhookResource resource) {
		String group = resource.group().isEmpty() ? "core" : resource.group().replace('.', '-');
		return "/" + kind.pathPrefix + "-" + group + "-" + resource.version() + "-"
				+ resource.kind().toLowerCase(Locale.ROOT);
	}

	/**
	 * Returns the name of a webhook, which the API server wants fully qualified (three
	 * segments at least), such as {@code vstaticsite.sample.kubeop.io} as kubebuilder
	 * names them; a path of its own adds its last segment, so that two webhooks of a kind
	 * for one type have names of their own.
	 * @param kind validating or mutating
	 * @param resource the resource
	 * @param path the path, or empty for the default
	 * @return the name
	 */
	static String name(Kind kind, WebhookResource resource, String path) {
		String domain = resource.group().isEmpty() ? "core.kubeop.io" : resource.group();
		if (domain.chars().filter((c) -> c == '.').count() < 1) {
			domain = domain + ".kubeop.io";
		}
		String name = kind.namePrefix + resource.kind().toLowerCase(Locale.ROOT);
		if (!path.isEmpty()) {
			name = name + "-"
					+ path.substring(path.lastIndexOf('/') + 1)
						.toLowerCase(Locale.ROOT)
						.replaceAll("[^a-z0-9-]", "-")
						.replaceAll("^-+|-+$", "");
		}
		return name + "." + domain;
	}

}
