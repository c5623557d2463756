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

package io.github.kubeop.autoconfigure;

import java.time.Duration;

import io.github.kubeop.informer.InformerRegistry;

import org.springframework.context.SmartLifecycle;

/**
 * Starts the informers when the application context starts and waits until their caches
 * have synced, so that beans started after it (handlers, web endpoints) read a full
 * cache; stops them when the context closes.
 *
 * @author Kubeop authors
 */
public class InformersLifecycle implements SmartLifecycle {

	/**
	 * The phase informers start in: before handlers and web servers.
	 */
	public static final int PHASE = Integer.MIN_VALUE + 1000;

	private final InformerRegistry registry;

	private final Duration syncTimeout;

	/**
	 * Creates a new instance.
	 * @param registry the informers
	 * @param syncTimeout how long to wait for their caches to sync
	 */
	public InformersLifecycle(InformerRegistry registry, Duration syncTimeout) {
		this.registry = registry;
		this.syncTimeout = syncTimeout;
	}

	@Override
	public void start() {
		this.registry.start();
		try {
			this.registry.awaitSync(this.syncTimeout);
		}
		catch (RuntimeException ex) {
			this.registry.stop();
			throw ex;
		}
	}

	@Override
	public void stop() {
		this.registry.stop();
	}

	@Override
	public boolean isRunning() {
		return this.registry.isStarted();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
