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

package io.github.kubeop.informer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;

/**
 * Resolves an {@code apiVersion} and kind (or plural) to the resource the API server
 * serves, through the server's discovery documents, so that a typo or a missing custom
 * resource definition fails at startup instead of producing an informer that never syncs.
 *
 * @author Kubeop authors
 */
public class ResourceDiscovery {

	/**
	 * Asks for the aggregated discovery document (every group's resources at once), in
	 * its GA and beta versions, or else the plain list of groups.
	 */
	private static final String AGGREGATED_DISCOVERY = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
			+ "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

	private final ApiClient client;

	private final Map<String, JsonObject> groupVersions = new ConcurrentHashMap<>();

	/**
	 * Creates a new instance.
	 * @param client the client to ask
	 */
	public ResourceDiscovery(ApiClient client) {
		this.client = client;
	}

	/**
	 * Finds the resource for an API version and a kind or plural name.
	 * @param apiVersion the API version, such as {@code apps/v1}
	 * @param kindOrPlural a kind ({@code Deployment}) or plural ({@code deployments})
	 * @return the resource
	 * @throws UnknownResourceException if the server does not serve it
	 */
	public ResourceKind resolve(String apiVersion, String kindOrPlural) {
		JsonObject list = groupVersion(apiVersion);
		List<String> served = new ArrayList<>();
		for (JsonElement element : list.getAsJsonArray("resources")) {
			JsonObject resource = element.getAsJsonObject();
			String name = resource.get("name").getAsString();
			if (name.contains("/")) {
				continue;
			}
			String kind = resource.get("kind").getAsString();
			served.add(kind);
			if (kind.equals(kindOrPlural) || name.equals(kindOrPlural)) {
				int slash = apiVersion.indexOf('/');
				String group = (slash < 0) ? "" : apiVersion.substring(0, slash);
				String version = apiVersion.substring(slash + 1);
				return new ResourceKind(group, version, kind, name, resource.get("namespaced").getAsBoolean());
			}
		}
		throw new UnknownResourceException(apiVersion, kindOrPlural,
				"the server serves " + apiVersion + " but no kind or resource named '" + kindOrPlural
						+ "' in it; it serves " + String.join(", ", served.stream().sorted().toList()));
	}

	/**
	 * Finds the API version that serves a kind in a version when the group is not known,
	 * as for generated models whose class name carries no group ({@code V1Deployment}):
	 * the core group if it serves the kind, else the one group that does.
	 * @param version the version, such as {@code v1}
	 * @param kind the kind, such as {@code Deployment}
	 * @return the API version, such as {@code apps/v1}
	 * @throws UnknownResourceException if no group serves it, or several besides the core
	 * group do
	 */
	public String apiVersionOf(String version, String kind) {
		if (serves(version, kind)) {
			return version;
		}
		List<String> candidates = new ArrayList<>();
		try {
			// one request for every group's resources where the server aggregates them
			// (Kubernetes 1.30 and later), instead of one per group version
			String body = ApiRequests.execute(this.client.getHttpClient(),
					ApiRequests.get(this.client, "/apis", List.of(), AGGREGATED_DISCOVERY));
			JsonObject groups = JsonParser.parseString(body).getAsJsonObject();
			if (isAggregated(groups)) {
				cacheAggregated(groups);
			}
			for (JsonElement group : groups.getAsJsonArray(isAggregated(groups) ? "items" : "groups")) {
				for (JsonElement served : group.getAsJsonObject().getAsJsonArray("versions")) {
					String groupVersion = isAggregated(groups)
							? groupName(group.getAsJsonObject()) + "/"
									+ served.getAsJsonObject().get("version").getAsString()
							: served.getAsJsonObject().get("groupVersion").getAsString();
					if (groupVersion.endsWith("/" + version) && serves(groupVersion, kind)) {
						candidates.add(groupVersion);
					}
				}
			}
		}
		catch (ApiException | IOException ex) {
			throw new InformerException("Could not list the API groups: " + ex.getMessage(), ex);
		}
		if (candidates.size() != 1) {
			throw new UnknownResourceException(version, kind,
					(candidates.isEmpty() ? "no API group serves "
							: "several API groups serve (" + String.join(", ", candidates) + ") ") + kind
							+ " in version " + version
							+ "; configure the informer with its api-version and name it in the handler");
		}
		return candidates.get(0);
	}

	private static boolean isAggregated(JsonObject groups) {
		return groups.has("kind") && "APIGroupDiscoveryList".equals(groups.get("kind").getAsString());
	}

	private static String groupName(JsonObject group) {
		return group.getAsJsonObject("metadata").get("name").getAsString();
	}

	/**
	 * Keeps the resources of every group version of an aggregated discovery document in
	 * the shape of a group version's own discovery document, as {@link #resolve} reads
	 * them.
	 */
	private void cacheAggregated(JsonObject groups) {
		for (JsonElement groupElement : groups.getAsJsonArray("items")) {
			JsonObject group = groupElement.getAsJsonObject();
			for (JsonElement versionElement : group.getAsJsonArray("versions")) {
				JsonObject version = versionElement.getAsJsonObject();
				JsonArray resources = new JsonArray();
				if (version.has("resources")) {
					for (JsonElement resourceElement : version.getAsJsonArray("resources")) {
						JsonObject resource = resourceElement.getAsJsonObject();
						if (!resource.has("responseKind")) {
							continue;
						}
						JsonObject converted = new JsonObject();
						converted.addProperty("name", resource.get("resource").getAsString());
						converted.addProperty("kind",
								resource.getAsJsonObject("responseKind").get("kind").getAsString());
						converted.addProperty("namespaced", "Namespaced".equals(resource.get("scope").getAsString()));
						resources.add(converted);
					}
				}
				JsonObject list = new JsonObject();
				list.add("resources", resources);
				this.groupVersions.putIfAbsent(groupName(group) + "/" + version.get("version").getAsString(), list);
			}
		}
	}

	private boolean serves(String apiVersion, String kind) {
		try {
			resolve(apiVersion, kind);
			return true;
		}
		catch (UnknownResourceException ex) {
			return false;
		}
	}

	/**
	 * Forgets what discovery returned, so that newly installed resources are found.
	 */
	public void invalidate() {
		this.groupVersions.clear();
	}

	private JsonObject groupVersion(String apiVersion) {
		JsonObject cached = this.groupVersions.get(apiVersion);
		if (cached != null) {
			return cached;
		}
		if (apiVersion == null || apiVersion.isBlank() || apiVersion.split("/").length > 2) {
			throw new UnknownResourceException(apiVersion, null,
					"'" + apiVersion + "' is not an API version; use 'v1' for the core group or 'group/version'");
		}
		String path = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
		try {
			String body = ApiRequests.execute(this.client.getHttpClient(),
					ApiRequests.get(this.client, path, List.of()));
			JsonObject list = JsonParser.parseString(body).getAsJsonObject();
			this.groupVersions.put(apiVersion, list);
			return list;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				throw new UnknownResourceException(apiVersion, null, "the server does not serve API version "
						+ apiVersion + " (is its CustomResourceDefinition installed?)");
			}
			throw new InformerException("Discovery of " + path + " failed with HTTP " + ex.getCode(), ex);
		}
		catch (IOException ex) {
			throw new InformerException("Could not discover the resources of " + apiVersion + ": " + ex.getMessage(),
					ex);
		}
	}

}
