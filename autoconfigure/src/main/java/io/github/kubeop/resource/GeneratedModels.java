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

package io.github.kubeop.resource;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;

/**
 * The client's generated models, found by name instead of by scanning: the model of
 * {@code apps/v1} {@code Deployment} is {@code V1Deployment}, of {@code events.k8s.io/v1}
 * {@code Event} is {@code EventsV1Event}. The client's {@code ModelMapper} answers the
 * same questions, but its first use loads every one of the client's ~4,800 model classes
 * (about a second of start-up on two cores) to build its map; this class loads only the
 * class asked about.
 * <p>
 * The answers are those of {@code ModelMapper.preBuiltGetApiTypeClass} and
 * {@code preBuiltGetGroupVersionKindByClass}: a class whose name carries no group prefix
 * is found for any group, as there, and its own group is reported as the empty one (the
 * caller asks the API server which group serves the kind). Unlike there, versions such as
 * {@code v1alpha3} or {@code v1beta3} are recognised too, and the group prefixes that
 * {@code ModelMapper} does not know ({@code ResourceV1ResourceClaim} is
 * {@code resource.k8s.io/v1}).
 *
 * @author Kubeop authors
 */
public final class GeneratedModels {

	private static final String PACKAGE = "io.kubernetes.client.openapi.models.";

	/**
	 * The group prefixes of the client's model names, as the client's generator writes
	 * them, and their API groups.
	 */
	private static final Map<String, String> GROUP_PREFIXES = Map.ofEntries(
			Map.entry("Admissionregistration", "admissionregistration.k8s.io"),
			Map.entry("Apiextensions", "apiextensions.k8s.io"), Map.entry("Apiregistration", "apiregistration.k8s.io"),
			Map.entry("Apps", "apps"), Map.entry("Authentication", "authentication.k8s.io"),
			Map.entry("Authorization", "authorization.k8s.io"), Map.entry("Autoscaling", "autoscaling"),
			Map.entry("Batch", "batch"), Map.entry("Certificates", "certificates.k8s.io"), Map.entry("Core", ""),
			Map.entry("Discovery", "discovery.k8s.io"), Map.entry("Flowcontrol", "flowcontrol.apiserver.k8s.io"),
			Map.entry("Rbac", "rbac.authorization.k8s.io"), Map.entry("Resource", "resource.k8s.io"),
			Map.entry("Extensions", "extensions"), Map.entry("Events", "events.k8s.io"),
			Map.entry("FlowControl", "flowcontrol.apiserver.k8s.io"), Map.entry("Networking", "networking.k8s.io"),
			Map.entry("Policy", "policy"), Map.entry("RbacAuthorization", "rbac.authorization.k8s.io"),
			Map.entry("Scheduling", "scheduling.k8s.io"), Map.entry("Settings", "settings.k8s.io"),
			Map.entry("Storage", "storage.k8s.io"));

	/** A model's simple name: an optional group prefix, the version, the kind. */
	private static final Pattern MODEL_NAME = Pattern.compile("([A-Za-z]*?)(V\\d+(?:(?:alpha|beta)\\d+)?)([A-Z]\\w*)");

	private static final Pattern VERSION = Pattern.compile("v\\d+(?:(?:alpha|beta)\\d+)?");

	private GeneratedModels() {
	}

	/**
	 * Returns the generated model of a group, version and kind: the one whose name
	 * carries the group, else the one whose name carries no group.
	 * @param group the API group, empty for the core group
	 * @param version the version, such as {@code v1}
	 * @param kind the kind, such as {@code Deployment}
	 * @return the model, or {@code null} if the client has none
	 */
	public static Class<?> modelOf(String group, String version, String kind) {
		if (version == null || !VERSION.matcher(version).matches() || kind == null || kind.isEmpty()
				|| !Character.isUpperCase(kind.charAt(0))) {
			return null;
		}
		String versionPrefix = "V" + version.substring(1);
		for (Map.Entry<String, String> prefix : GROUP_PREFIXES.entrySet()) {
			if (prefix.getValue().equals(group)) {
				Class<?> model = model(prefix.getKey() + versionPrefix + kind);
				if (model != null) {
					return model;
				}
			}
		}
		return model(versionPrefix + kind);
	}

	/**
	 * Returns the group, version and kind a generated model's name says: the group of its
	 * group prefix, or the empty group if its name carries none.
	 * @param type the class
	 * @return its group, version and kind, or empty if it is not a generated model of an
	 * object or a list
	 */
	public static Optional<GroupVersionKind> groupVersionKindOf(Class<?> type) {
		if (!type.getName().startsWith(PACKAGE) || type.getEnclosingClass() != null || !isObjectOrList(type)) {
			return Optional.empty();
		}
		Matcher name = MODEL_NAME.matcher(type.getSimpleName());
		if (!name.matches()) {
			return Optional.empty();
		}
		String group = "";
		if (!name.group(1).isEmpty()) {
			group = GROUP_PREFIXES.get(name.group(1));
			if (group == null) {
				return Optional.empty();
			}
		}
		return Optional.of(new GroupVersionKind(group, name.group(2).toLowerCase(Locale.ROOT), name.group(3)));
	}

	private static Class<?> model(String simpleName) {
		try {
			Class<?> type = Class.forName(PACKAGE + simpleName, false, GeneratedModels.class.getClassLoader());
			return isObjectOrList(type) ? type : null;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

	private static boolean isObjectOrList(Class<?> type) {
		return KubernetesObject.class.isAssignableFrom(type) || KubernetesListObject.class.isAssignableFrom(type);
	}

}
