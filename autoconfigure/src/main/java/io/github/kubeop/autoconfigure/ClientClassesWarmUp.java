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

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * Loads, on a background thread, the classes of the Kubernetes client that the main
 * thread will need later in start-up, while it is busy with the rest of the context (the
 * web server, the actuator): the client's Gson, whose first use loads every one of the
 * client's model and adapter classes (it asks each model's adapter factory in turn); its
 * TLS utilities, which register Bouncy Castle, are no longer loaded at all for a
 * kubeconfig's client key ({@link JdkClientCertificate}). Nothing is created that the
 * application uses: only classes are loaded and initialized, which the JVM does once,
 * whichever thread comes first; the main thread, arriving later, finds them ready or
 * waits for the class being loaded.
 *
 * @author Kubeop authors
 */
final class ClientClassesWarmUp {

	private static volatile boolean started;

	private ClientClassesWarmUp() {
	}

	/**
	 * Starts loading the classes, once per JVM.
	 */
	static void start() {
		if (started) {
			return;
		}
		started = true;
		Thread thread = new Thread(ClientClassesWarmUp::load, "kubeop-client-classes");
		thread.setDaemon(true);
		thread.start();
	}

	private static void load() {
		try {
			new JSON().getGson().getAdapter(V1ObjectMeta.class);
		}
		catch (Throwable ex) {
			// only a head start: the main thread loads what is missing itself
		}
	}

}
