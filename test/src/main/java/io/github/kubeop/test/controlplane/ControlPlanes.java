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

package io.github.kubeop.test.controlplane;

import java.util.Locale;

/**
 * Picks and starts a control plane. {@code KUBEOP_TEST_CONTROL_PLANE} (or the system
 * property {@code kubeop.test.control-plane}) chooses: {@code local} for kube-apiserver
 * and etcd processes, {@code k3s} for a K3s container, or {@code auto} (the default):
 * local when binaries can be found or built, else K3s when Docker is reachable, else a
 * {@link NoControlPlaneException} naming every way to get one.
 *
 * @author Kubeop authors
 */
public final class ControlPlanes {

	private static ControlPlane shared;

	private ControlPlanes() {
	}

	/**
	 * Starts a new control plane of the configured kind.
	 * @return the running control plane
	 */
	public static ControlPlane start() {
		ControlPlaneAssets assets = ControlPlaneAssets.fromEnvironment();
		return switch (configuredKind()) {
			case "local" -> LocalControlPlane.start(assets.resolve());
			case "k3s" -> K3sControlPlane.start();
			case "auto" -> {
				if (assets.available()) {
					yield LocalControlPlane.start(assets.resolve());
				}
				if (K3sControlPlane.isDockerAvailable()) {
					yield K3sControlPlane.start();
				}
				throw new NoControlPlaneException(assets.noControlPlaneMessage());
			}
			default -> throw new IllegalArgumentException(
					"KUBEOP_TEST_CONTROL_PLANE must be local, k3s or auto, but was '" + configuredKind() + "'");
		};
	}

	/**
	 * Returns the control plane shared by every test in this JVM, starting it on first
	 * use. It stops when the JVM exits.
	 * @return the shared control plane
	 */
	public static synchronized ControlPlane shared() {
		if (shared == null) {
			ControlPlane started = start();
			Runtime.getRuntime().addShutdownHook(new Thread(started::close, "kubeop-shared-control-plane"));
			shared = started;
		}
		return shared;
	}

	private static String configuredKind() {
		String kind = System.getProperty("kubeop.test.control-plane", System.getenv("KUBEOP_TEST_CONTROL_PLANE"));
		return (kind != null && !kind.isBlank()) ? kind.trim().toLowerCase(Locale.ROOT) : "auto";
	}

}
