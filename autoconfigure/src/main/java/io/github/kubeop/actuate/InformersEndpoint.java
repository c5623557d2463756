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

package io.github.kubeop.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.informer.InformerStatus;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.shard.ShardMember;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code informers} actuator endpoint: every informer with its state and cache size,
 * every handler with its queue depth and workers, and the shard ring when sharding is on.
 * It shows counts and states, never object contents, so Secrets watched by an informer
 * are counted, not shown.
 *
 * @author Kubeop authors
 */
@Endpoint(id = "informers")
public class InformersEndpoint {

	private final InformerRegistry informers;

	private final ObjectProvider<HandlerRegistrar> handlers;

	private final Supplier<ShardMember.State> sharding;

	/**
	 * Creates a new instance.
	 * @param informers the informers
	 * @param handlers the handlers, if any
	 */
	public InformersEndpoint(InformerRegistry informers, ObjectProvider<HandlerRegistrar> handlers) {
		this(informers, handlers, () -> null);
	}

	/**
	 * Creates a new instance that also shows the shard ring.
	 * @param informers the informers
	 * @param handlers the handlers, if any
	 * @param sharding the shard member's state, or a supplier of {@code null} without
	 * sharding
	 */
	public InformersEndpoint(InformerRegistry informers, ObjectProvider<HandlerRegistrar> handlers,
			Supplier<ShardMember.State> sharding) {
		this.informers = informers;
		this.handlers = handlers;
		this.sharding = sharding;
	}

	/**
	 * Returns the informers and handlers.
	 * @return the description
	 */
	@ReadOperation
	public Map<String, Object> informers() {
		List<Map<String, Object>> informerList = new ArrayList<>();
		for (ResourceInformer<?> informer : this.informers.informers()) {
			InformerStatus status = informer.status();
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("name", status.name());
			entry.put("resource", status.resource());
			entry.put("scope", status.scope());
			entry.put("synced", status.synced());
			entry.put("cacheSize", status.cacheSize());
			entry.put("watch", status.state().name().toLowerCase());
			entry.put("lastResourceVersion", status.lastResourceVersion());
			entry.put("relists", status.relists());
			entry.put("listMethod", status.listMethod());
			entry.put("watchRestarts", status.watchRestarts());
			entry.put("indexFailures", status.indexFailures());
			if (!status.objectsLeftOutOfIndexes().isEmpty()) {
				entry.put("objectsLeftOutOfIndexes", status.objectsLeftOutOfIndexes());
			}
			if (status.lastError() != null) {
				entry.put("lastError", status.lastError());
			}
			informerList.add(entry);
		}
		List<Map<String, Object>> handlerList = new ArrayList<>();
		HandlerRegistrar registrar = this.handlers.getIfAvailable();
		if (registrar != null) {
			for (Controller<?> controller : registrar.controllers()) {
				Map<String, Object> entry = new LinkedHashMap<>();
				entry.put("name", controller.name());
				entry.put("informer", controller.informer().spec().name());
				entry.put("workers", controller.workerCount());
				entry.put("queueDepth", controller.queue().length());
				handlerList.add(entry);
			}
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("informers", informerList);
		result.put("handlers", handlerList);
		ShardMember.State shard = this.sharding.get();
		if (shard != null) {
			Map<String, Object> ring = new LinkedHashMap<>();
			ring.put("group", shard.group());
			ring.put("identity", shard.identity());
			ring.put("generation", shard.generation());
			ring.put("active", shard.active());
			ring.put("members", shard.members());
			ring.put("acknowledged", shard.acknowledgements());
			ring.put("keys", shard.keys());
			ring.put("movedIn", shard.movedIn());
			ring.put("movedOut", shard.movedOut());
			result.put("sharding", ring);
		}
		return result;
	}

}
