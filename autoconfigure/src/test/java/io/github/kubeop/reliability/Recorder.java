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

package io.github.kubeop.reliability;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.kubernetes.client.openapi.models.V1ConfigMap;

/**
 * A handler that remembers the last state delivered for every key, the deleted keys, and
 * the keys that were ever handled by two workers at once.
 * <p>
 * Overlap is counted at the entry and exit of every call; a call that takes no time could
 * almost never be caught beside another, so each call lasts the given call time.
 *
 * @author Kubeop authors
 */
class Recorder {

	final Map<String, String> lastVersion = new ConcurrentHashMap<>();

	final Set<String> deleted = ConcurrentHashMap.newKeySet();

	/**
	 * The keys a call entered while another call for the same key ran.
	 */
	final Set<String> overlaps = ConcurrentHashMap.newKeySet();

	private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

	private final long callMillis;

	/**
	 * Creates a recorder whose calls take no time, for tests that do not look at overlap.
	 */
	Recorder() {
		this(Duration.ZERO);
	}

	/**
	 * Creates a recorder whose every call lasts {@code callTime}, so that two calls for
	 * one key that run at once are seen.
	 * @param callTime how long each call takes
	 */
	Recorder(Duration callTime) {
		this.callMillis = callTime.toMillis();
	}

	@OnAdd
	void added(V1ConfigMap configMap) {
		record(configMap);
	}

	@OnUpdate
	void changed(V1ConfigMap configMap) {
		record(configMap);
	}

	@OnDelete
	void removed(V1ConfigMap configMap) {
		String name = configMap.getMetadata().getName();
		enter(name);
		try {
			this.lastVersion.remove(name);
			this.deleted.add(name);
			takeTime();
		}
		finally {
			leave(name);
		}
	}

	private void record(V1ConfigMap configMap) {
		String name = configMap.getMetadata().getName();
		enter(name);
		try {
			String version = (configMap.getData() != null) ? configMap.getData().get("v") : null;
			this.lastVersion.put(name, (version != null) ? version : "");
			this.deleted.remove(name);
			takeTime();
		}
		finally {
			leave(name);
		}
	}

	private void takeTime() {
		if (this.callMillis > 0) {
			try {
				Thread.sleep(this.callMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void enter(String name) {
		if (this.inFlight.computeIfAbsent(name, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
			this.overlaps.add(name);
		}
	}

	private void leave(String name) {
		this.inFlight.get(name).decrementAndGet();
	}

}
