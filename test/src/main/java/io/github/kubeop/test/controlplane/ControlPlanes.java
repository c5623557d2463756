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

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Picks and starts a control plane. {@code KUBEOP_TEST_CONTROL_PLANE} (or the system
 * property {@code kubeop.test.control-plane}) chooses: {@code local} for kube-apiserver
 * and etcd processes, {@code k3s} for a K3s container, or {@code auto} (the default):
 * local when binaries can be found or built, else K3s when Docker is reachable, else a
 * {@link NoControlPlaneException} naming every way to get one. A local control plane runs
 * the optional {@link Component components} asked for; K3s is a whole cluster and has
 * them all (with real pods).
 *
 * @author Kubeop authors
 */
public final class ControlPlanes {

	private static final Map<Set<Component>, ControlPlane> shared = new HashMap<>();

	private static final Map<Set<Component>, RuntimeException> failures = new HashMap<>();

	private ControlPlanes() {
	}

	/**
	 * Starts a new control plane of the configured kind.
	 * @return the running control plane
	 */
	public static ControlPlane start() {
		return start(Set.of());
	}

	/**
	 * Starts a new control plane of the configured kind, with the given optional
	 * components.
	 * @param components the components to run besides kube-apiserver and etcd
	 * @return the running control plane
	 */
	public static ControlPlane start(Set<Component> components) {
		ControlPlaneAssets assets = ControlPlaneAssets.fromEnvironment();
		return switch (configuredKind()) {
			case "local" -> LocalControlPlane.start(assets.resolve(), List.of(), components);
			case "k3s" -> K3sControlPlane.start();
			case "auto" -> {
				if (assets.available()) {
					yield LocalControlPlane.start(assets.resolve(), List.of(), components);
				}
				ControlPlaneBinaries fetched;
				try {
					fetched = assets.resolve();
				}
				catch (NoControlPlaneException ex) {
					if (K3sControlPlane.isDockerAvailable()) {
						yield K3sControlPlane.start();
					}
					throw ex;
				}
				yield LocalControlPlane.start(fetched, List.of(), components);
			}
			default -> throw new IllegalArgumentException(
					"KUBEOP_TEST_CONTROL_PLANE must be local, k3s or auto, but was '" + configuredKind() + "'");
		};
	}

	/**
	 * Returns the control plane (kube-apiserver and etcd only) shared by every test in
	 * this JVM, starting it on first use. It stops when the JVM exits.
	 * @return the shared control plane
	 */
	public static ControlPlane shared() {
		return shared(Set.of());
	}

	/**
	 * Returns the control plane with exactly the given optional components that is shared
	 * by every test in this JVM asking for them, starting it on first use. Tests that ask
	 * for other components get another control plane, so that no controller acts on the
	 * objects of a test that does not expect it. It stops when the JVM exits.
	 * @param components the components to run besides kube-apiserver and etcd
	 * @return the shared control plane
	 */
	public static synchronized ControlPlane shared(Set<Component> components) {
		Set<Component> key = (components.isEmpty()) ? Set.of() : Set.copyOf(EnumSet.copyOf(components));
		ControlPlane existing = shared.get(key);
		if (existing != null) {
			return existing;
		}
		RuntimeException failure = failures.get(key);
		if (failure != null) {
			// fail every test that needs it with the first failure's message, at once
			throw new IllegalStateException(failure.getMessage(), failure);
		}
		ControlPlane started;
		try {
			started = start(key);
		}
		catch (RuntimeException ex) {
			failures.put(key, ex);
			throw ex;
		}
		Runtime.getRuntime().addShutdownHook(new Thread(started::close, "kubeop-shared-control-plane"));
		shared.put(key, started);
		return started;
	}

	private static String configuredKind() {
		String kind = System.getProperty("kubeop.test.control-plane", System.getenv("KUBEOP_TEST_CONTROL_PLANE"));
		return (kind != null && !kind.isBlank()) ? kind.trim().toLowerCase(Locale.ROOT) : "auto";
	}

}
