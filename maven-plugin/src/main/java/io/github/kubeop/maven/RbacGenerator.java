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

package io.github.kubeop.maven;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.annotation.References;
import io.github.kubeop.autoconfigure.KubeopProperties;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.ModelMapper;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Collects the RBAC rules an operator needs and writes them as one ClusterRole: its typed
 * custom resources (with their status and finalizers), the informers configured under
 * {@code kubeop.informers.resources}, the resources its handler methods take and the
 * types they {@link Owns own}, Kubernetes Events, and Leases when leader election or
 * sharding is enabled. Rules for the same API group and resource are merged into one rule
 * with the union of their verbs.
 *
 * @author Kubeop authors
 */
public final class RbacGenerator {

	static final List<String> READ = List.of("get", "list", "watch");

	static final List<String> WRITE_OWN = List.of("get", "list", "watch", "patch", "update");

	static final List<String> OWNED = List.of("get", "list", "watch", "create", "patch", "update", "delete");

	/**
	 * What the informer of a referenced type needs: list and watch, also when it keeps
	 * referenced objects only (it watches the whole type and loads a newly referenced
	 * object by a list of its name).
	 */
	static final List<String> REFERENCED = List.of("list", "watch");

	// the API group of each generated API class prefix of the official client, to find
	// the group of a generated model, whose class name carries only version and kind
	private static final Map<String, String> CLIENT_API_GROUPS = Map.ofEntries(Map.entry("Core", ""),
			Map.entry("Admissionregistration", "admissionregistration.k8s.io"),
			Map.entry("Apiextensions", "apiextensions.k8s.io"), Map.entry("Apiregistration", "apiregistration.k8s.io"),
			Map.entry("Apps", "apps"), Map.entry("Authentication", "authentication.k8s.io"),
			Map.entry("Authorization", "authorization.k8s.io"), Map.entry("Autoscaling", "autoscaling"),
			Map.entry("Batch", "batch"), Map.entry("Certificates", "certificates.k8s.io"),
			Map.entry("Coordination", "coordination.k8s.io"), Map.entry("Discovery", "discovery.k8s.io"),
			Map.entry("Events", "events.k8s.io"), Map.entry("FlowcontrolApiserver", "flowcontrol.apiserver.k8s.io"),
			Map.entry("InternalApiserver", "internal.apiserver.k8s.io"), Map.entry("Networking", "networking.k8s.io"),
			Map.entry("Node", "node.k8s.io"), Map.entry("Policy", "policy"),
			Map.entry("RbacAuthorization", "rbac.authorization.k8s.io"), Map.entry("Resource", "resource.k8s.io"),
			Map.entry("Scheduling", "scheduling.k8s.io"), Map.entry("Storage", "storage.k8s.io"),
			Map.entry("Storagemigration", "storagemigration.k8s.io"));

	private final ObjectMapper objectMapper = new ObjectMapper();

	// API group -> resource -> verbs, sorted so that the output is stable
	private final Map<String, Map<String, Set<String>>> rules = new TreeMap<>();

	private final List<Class<?>> resourceClasses;

	/**
	 * Creates a generator for an operator's typed custom resources, each granted get,
	 * list, watch, patch and update, get, patch and update on its status and update on
	 * its finalizers.
	 * @param resourceClasses the typed custom resource classes
	 */
	public RbacGenerator(Collection<Class<?>> resourceClasses) {
		this.resourceClasses = List.copyOf(resourceClasses);
		for (Class<?> resourceClass : resourceClasses) {
			ResourceType type = ResourceType.of(resourceClass);
			rule(type.group(), type.plural(), WRITE_OWN);
			rule(type.group(), type.plural() + "/status", List.of("get", "patch", "update"));
			rule(type.group(), type.plural() + "/finalizers", List.of("update"));
		}
		// the event recorder writes events.k8s.io Events
		rule("events.k8s.io", "events", List.of("create", "patch"));
	}

	/**
	 * Adds what a handler class needs: read access to the resource each handler method
	 * takes, full access to each type the class declares with {@link Owns}, and list and
	 * watch of each type it declares with {@link References}.
	 * @param handlerClass a class with handler methods or {@link Owns}
	 */
	public void handler(Class<?> handlerClass) {
		for (Method method : handlerClass.getDeclaredMethods()) {
			if (OperatorClasses.HANDLER_ANNOTATIONS.stream().anyMatch(method::isAnnotationPresent)) {
				for (Class<?> parameter : method.getParameterTypes()) {
					if (KubernetesObject.class.isAssignableFrom(parameter)) {
						modelRule(parameter, READ, method.toGenericString());
					}
				}
			}
		}
		for (Owns owns : AnnotatedElementUtils.findMergedRepeatableAnnotations(handlerClass, Owns.class)) {
			modelRule(owns.value(), OWNED, "@Owns on " + handlerClass.getName());
		}
		for (References references : AnnotatedElementUtils.findMergedRepeatableAnnotations(handlerClass,
				References.class)) {
			modelRule(references.value(), REFERENCED, "@References on " + handlerClass.getName());
		}
	}

	/**
	 * Adds what the configuration needs: read access to each informer under
	 * {@code kubeop.informers.resources}, and Leases when leader election or sharding is
	 * enabled.
	 * @param properties the bound properties
	 */
	public void properties(KubeopProperties properties) {
		properties.getInformers().getResources().forEach((name, resource) -> informerRule(name, resource, READ));
		if (properties.getLeaderElection().isEnabled()) {
			rule("coordination.k8s.io", "leases", List.of("get", "create", "update"));
		}
		KubeopProperties.Sharding sharding = properties.getSharding();
		if (sharding.isEnabled()) {
			// members list each other's Leases and delete their own on the way out
			rule("coordination.k8s.io", "leases", List.of("get", "list", "create", "update", "delete"));
			if (sharding.getMode() == KubeopProperties.Sharding.Mode.LABELS) {
				// objects of these informers are labelled with their shard
				for (String name : sharding.getInformers()) {
					KubeopProperties.Resource resource = properties.getInformers().getResources().get(name);
					if (resource != null) {
						informerRule(name, resource, List.of("patch"));
					}
				}
			}
		}
	}

	private void informerRule(String name, KubeopProperties.Resource resource, List<String> verbs) {
		if (resource.getApiVersion() == null || resource.getKind() == null) {
			throw new IllegalArgumentException(
					"kubeop.informers.resources." + name + " needs both api-version and kind to derive its RBAC rule");
		}
		String apiVersion = resource.getApiVersion().trim();
		int slash = apiVersion.indexOf('/');
		String group = (slash < 0) ? "" : apiVersion.substring(0, slash);
		String version = apiVersion.substring(slash + 1);
		rule(group, plural(group, version, resource.getKind().trim(), resource.getType()), verbs);
	}

	/**
	 * Adds a rule, merged with the rules already collected.
	 * @param apiGroup the API group, empty for the core group
	 * @param resource the resource, such as {@code configmaps} or {@code pods/log}
	 * @param verbs the verbs
	 */
	public void rule(String apiGroup, String resource, Collection<String> verbs) {
		this.rules.computeIfAbsent(apiGroup, (group) -> new TreeMap<>())
			.computeIfAbsent(resource, (name) -> new TreeSet<>())
			.addAll(verbs);
	}

	/**
	 * Returns the ClusterRole of the rules collected: one rule per API group and set of
	 * verbs.
	 * @param name the name of the ClusterRole
	 * @return the ClusterRole as a JSON tree
	 */
	public ObjectNode clusterRole(String name) {
		ObjectNode role = this.objectMapper.createObjectNode();
		role.put("apiVersion", "rbac.authorization.k8s.io/v1");
		role.put("kind", "ClusterRole");
		role.putObject("metadata").put("name", name);
		ArrayNode rulesNode = role.putArray("rules");
		this.rules.forEach((group, resources) -> {
			// resources of one group with the same verbs share a rule, as controller-gen
			// writes them
			Map<Set<String>, List<String>> byVerbs = new LinkedHashMap<>();
			resources
				.forEach((resource, verbs) -> byVerbs.computeIfAbsent(verbs, (key) -> new ArrayList<>()).add(resource));
			byVerbs.forEach((verbs, names) -> {
				ObjectNode rule = rulesNode.addObject();
				rule.putArray("apiGroups").add(group);
				ArrayNode resourcesNode = rule.putArray("resources");
				names.forEach(resourcesNode::add);
				ArrayNode verbsNode = rule.putArray("verbs");
				verbs.forEach(verbsNode::add);
			});
		});
		return role;
	}

	/**
	 * Returns the ClusterRole as YAML.
	 * @param name the name of the ClusterRole
	 * @return the YAML document
	 */
	public String yaml(String name) {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		return new Yaml(options).dump(this.objectMapper.convertValue(clusterRole(name), Map.class));
	}

	private void modelRule(Class<?> type, List<String> verbs, String source) {
		if (ResourceType.isCustomResource(type)) {
			ResourceType resource = ResourceType.of(type);
			rule(resource.group(), resource.plural(), verbs);
			return;
		}
		GroupVersionKind gvk = ModelMapper.preBuiltGetGroupVersionKindByClass(type).orElse(null);
		if (gvk == null) {
			// a dynamic object names its resource in an informer's properties
			return;
		}
		String group = gvk.getGroup().isEmpty() ? groupOfModel(type, gvk) : gvk.getGroup();
		if (group == null) {
			throw new IllegalArgumentException("Cannot tell the API group of " + type.getName() + " (" + source
					+ "); add its rule in the plugin's <rules>");
		}
		rule(group, builtInPlural(gvk.getKind()), verbs);
	}

	// Endpoints is the one built-in kind whose resource is not its guessed plural
	private static String builtInPlural(String kind) {
		String singular = kind.toLowerCase(Locale.ROOT);
		return singular.endsWith("endpoints") ? singular : ResourceType.plural(singular);
	}

	// the generated API class whose read method returns the model tells its group, which
	// the model's class name does not (V1Deployment is apps, V1ConfigMap is core)
	private static String groupOfModel(Class<?> model, GroupVersionKind gvk) {
		String version = Character.toUpperCase(gvk.getVersion().charAt(0)) + gvk.getVersion().substring(1);
		for (Map.Entry<String, String> entry : CLIENT_API_GROUPS.entrySet()) {
			Class<?> api = apiClass(model.getClassLoader(), entry.getKey() + version + "Api");
			if (api != null && (returns(api, "readNamespaced" + gvk.getKind(), model)
					|| returns(api, "read" + gvk.getKind(), model))) {
				return entry.getValue();
			}
		}
		return null;
	}

	private static Class<?> apiClass(ClassLoader classLoader, String simpleName) {
		try {
			return Class.forName("io.kubernetes.client.openapi.apis." + simpleName, false, classLoader);
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

	private static boolean returns(Class<?> api, String methodName, Class<?> model) {
		for (Method method : api.getMethods()) {
			if (method.getName().equals(methodName)) {
				try {
					return method.getReturnType().getMethod("execute").getReturnType() == model;
				}
				catch (NoSuchMethodException ex) {
					return false;
				}
			}
		}
		return false;
	}

	private String plural(String group, String version, String kind, Class<?> type) {
		if (type != null && ResourceType.isCustomResource(type)) {
			return ResourceType.of(type).plural();
		}
		for (Class<?> resourceClass : this.resourceClasses) {
			ResourceType resource = ResourceType.of(resourceClass);
			if (resource.group().equals(group) && resource.version().equals(version)
					&& (resource.kind().equals(kind) || resource.plural().equals(kind))) {
				return resource.plural();
			}
		}
		// a kind such as ConfigMap, or already a plural such as configmaps
		return Character.isUpperCase(kind.charAt(0)) ? builtInPlural(kind) : kind;
	}

}
