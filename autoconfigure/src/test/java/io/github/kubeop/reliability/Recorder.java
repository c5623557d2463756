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

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.kubernetes.client.openapi.models.V1ConfigMap;

/**
 * A handler that remembers the last state delivered for every key, the deleted keys, and
 * whether a key was ever handled by two workers at once.
 *
 * @author Kubeop authors
 */
class Recorder {

	final Map<String, String> lastVersion = new ConcurrentHashMap<>();

	final Set<String> deleted = ConcurrentHashMap.newKeySet();

	final AtomicBoolean overlap = new AtomicBoolean();

	private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

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
		}
		finally {
			leave(name);
		}
	}

	private void enter(String name) {
		if (this.inFlight.computeIfAbsent(name, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
			this.overlap.set(true);
		}
	}

	private void leave(String name) {
		this.inFlight.get(name).decrementAndGet();
	}

}
