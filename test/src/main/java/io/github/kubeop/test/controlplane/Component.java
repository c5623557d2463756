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

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * A part of a Kubernetes cluster that a {@link LocalControlPlane} can run besides
 * kube-apiserver and etcd, which always run. Each is optional: a test picks the ones the
 * behaviour it checks depends on, and pays their start-up time only then.
 *
 * @author Kubeop authors
 */
public enum Component {

	/**
	 * kube-controller-manager with its default controllers: among them the garbage
	 * collector (owned objects go with their owner), namespace deletion, Deployment,
	 * ReplicaSet, StatefulSet, DaemonSet, Job and CronJob, EndpointSlice, node lifecycle,
	 * and the service-account and token controllers.
	 */
	CONTROLLER_MANAGER("kube-controller-manager"),

	/**
	 * kube-scheduler, which binds pods to nodes; without {@link #NODES} there are none.
	 */
	SCHEDULER("kube-scheduler"),

	/**
	 * Simulated nodes: kwok plays the kubelet for a node that exists only in the API
	 * server, which becomes {@code Ready}; pods bound to it become {@code Running} and
	 * {@code Ready} and report container statuses, with no container runtime. Pods are
	 * bound by the {@link #SCHEDULER}, and the node's start-up taint is removed by the
	 * {@link #CONTROLLER_MANAGER}, so this is mostly used with both.
	 */
	NODES("kwok");

	private final String executableName;

	Component(String executableName) {
		this.executableName = executableName;
	}

	/**
	 * Returns the name of the executable that runs this component, which is also the name
	 * used in logs and error messages.
	 * @return the executable name, such as {@code kube-controller-manager}
	 */
	public String executableName() {
		return this.executableName;
	}

	/**
	 * Returns every component: a control plane that behaves like a cluster.
	 * @return an unmodifiable set of all components
	 */
	public static Set<Component> all() {
		return Collections.unmodifiableSet(EnumSet.allOf(Component.class));
	}

	/**
	 * Parses a comma-separated list of component names, as used in properties: the enum
	 * names or the executable names, in any case, or {@code all} or {@code none}.
	 * @param names the names, such as {@code controller-manager,scheduler,nodes}
	 * @return the components
	 * @throws IllegalArgumentException if a name is unknown
	 */
	public static Set<Component> parse(String names) {
		Set<Component> components = EnumSet.noneOf(Component.class);
		for (String name : names.split(",")) {
			String normalized = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
			if (normalized.isEmpty() || normalized.equals("NONE")) {
				continue;
			}
			if (normalized.equals("ALL")) {
				return all();
			}
			components.add(valueOf(normalized, name.trim()));
		}
		return Collections.unmodifiableSet(components);
	}

	private static Component valueOf(String normalized, String original) {
		for (Component component : values()) {
			if (component.name().equals(normalized)
					|| component.executableName.toUpperCase(Locale.ROOT).replace('-', '_').equals(normalized)) {
				return component;
			}
		}
		throw new IllegalArgumentException("Unknown control plane component '" + original
				+ "'; use controller-manager, scheduler, nodes, all or none");
	}

}
