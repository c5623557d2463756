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

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerRegistrar;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the handlers: for each, its live workers against the configured count, and
 * how often a worker caught a failure outside the handler call. DOWN when a handler whose
 * workers are started (on the leader, or without leader election) has no live worker: its
 * keys would wait for ever. A standby's handlers have no workers and are not DOWN.
 *
 * @author Kubeop authors
 */
public class HandlersHealthIndicator extends AbstractHealthIndicator {

	private final HandlerRegistrar handlers;

	/**
	 * Creates a new instance.
	 * @param handlers the handlers
	 */
	public HandlersHealthIndicator(HandlerRegistrar handlers) {
		super("Handlers health check failed");
		this.handlers = handlers;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		boolean up = true;
		Map<String, Object> details = new LinkedHashMap<>();
		for (Controller<?> controller : this.handlers.controllers()) {
			boolean started = controller.workersStarted();
			int live = controller.liveWorkers();
			up &= !started || live > 0;
			Map<String, Object> description = new LinkedHashMap<>();
			description.put("workersStarted", started);
			description.put("liveWorkers", live);
			description.put("configuredWorkers", controller.workerCount());
			description.put("workerFailures", controller.workerFailures());
			details.put(controller.name(), description);
		}
		(up ? builder.up() : builder.down()).withDetail("handlers", details);
	}

}
