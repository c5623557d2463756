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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * Stands in for a system outside the cluster that the operator keeps in step with the
 * sites, such as DNS or a CDN: entries are published on reconcile and withdrawn by the
 * finalizer before a site is deleted.
 *
 * @author Kubeop authors
 */
@Component
public class SiteDirectory {

	private final Map<String, String> entries = new ConcurrentHashMap<>();

	void publish(String site, String url) {
		this.entries.put(site, url);
	}

	void withdraw(String site) {
		this.entries.remove(site);
	}

	/**
	 * Returns the published sites.
	 * @return URLs by {@code namespace/name}
	 */
	public Map<String, String> entries() {
		return Map.copyOf(this.entries);
	}

}
