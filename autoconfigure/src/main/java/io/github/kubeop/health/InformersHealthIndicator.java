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

package io.github.kubeop.health;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerStatus;
import io.github.kubeop.informer.ResourceInformer;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports whether the informers' caches can be trusted: DOWN until every informer has
 * synced, DOWN while handlers wait for informers that do not exist yet (so that "all
 * synced" is never true of nothing), DOWN while a watch has failed for longer than the
 * threshold, UP otherwise; with each informer's state in the details. Meant for the
 * readiness group: a cache that cannot be trusted should take no traffic, but restarting
 * the process does not bring an API server back.
 *
 * @author Kubeop authors
 */
public class InformersHealthIndicator extends AbstractHealthIndicator {

	private final InformerRegistry informers;

	private final IntSupplier handlerCount;

	private final Duration failureThreshold;

	/**
	 * Creates a new instance.
	 * @param informers the informers
	 * @param handlerCount how many handlers are registered
	 * @param failureThreshold how long a watch may fail before health is DOWN
	 */
	public InformersHealthIndicator(InformerRegistry informers, IntSupplier handlerCount, Duration failureThreshold) {
		super("Informers health check failed");
		this.informers = informers;
		this.handlerCount = handlerCount;
		this.failureThreshold = failureThreshold;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		List<ResourceInformer<?>> all = List.copyOf(this.informers.informers());
		if (all.isEmpty()) {
			if (this.handlerCount.getAsInt() > 0) {
				builder.down().withDetail("reason", "handlers are registered but no informer is");
			}
			else {
				builder.up().withDetail("informers", Map.of());
			}
			return;
		}
		boolean up = this.informers.isStarted();
		Map<String, Object> details = new LinkedHashMap<>();
		Instant now = Instant.now();
		for (ResourceInformer<?> informer : all) {
			InformerStatus status = informer.status();
			boolean failing = status.reconnectingSince() != null
					&& Duration.between(status.reconnectingSince(), now).compareTo(this.failureThreshold) > 0;
			up &= status.synced() && !failing;
			details.put(status.name(), describe(status));
		}
		(up ? builder.up() : builder.down()).withDetail("informers", details);
	}

	private static Map<String, Object> describe(InformerStatus status) {
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("resource", status.resource());
		description.put("scope", status.scope());
		description.put("synced", status.synced());
		description.put("cacheSize", status.cacheSize());
		description.put("lastResourceVersion", status.lastResourceVersion());
		description.put("watch", status.state().name().toLowerCase());
		if (status.reconnectingSince() != null) {
			description.put("reconnectingSince", status.reconnectingSince().toString());
		}
		if (status.lastError() != null) {
			description.put("lastError", status.lastError());
		}
		if (status.indexFailures() > 0) {
			// shown, not DOWN: the cache is complete, only lookups by that index miss
			description.put("indexFailures", status.indexFailures());
			description.put("objectsLeftOutOfIndexes", status.objectsLeftOutOfIndexes());
		}
		return description;
	}

}
