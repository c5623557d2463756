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

package io.github.kubeop.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Applies YAML manifests (CRDs, RBAC, example resources) to a cluster, as
 * {@code kubectl apply --server-side} does, and waits for the custom resource definitions
 * among them to be served: established, listed by discovery, and answering a LIST (an
 * informer started right after gets no {@code 429 storage is (re)initializing}). Created
 * {@linkplain #Manifests(ControlPlane) for a control plane}, it also makes the control
 * plane's components see new definitions at once (see
 * {@link ControlPlane#refreshDiscovery()}). It works on raw JSON, so fields the generated
 * models mishandle (such as a CRD schema's empty {@code dependencies}) never get in the
 * way.
 * <p>
 * {@link #apply(String, String)} takes YAML text, {@link #apply(Path, String)} a file.
 *
 * @author Kubeop authors
 */
public final class Manifests {

	private static final MediaType APPLY_PATCH = MediaType.get("application/apply-patch+yaml");

	private static final Duration SERVED_TIMEOUT = Duration.ofSeconds(30);

	private final ApiClient client;

	private final ControlPlane controlPlane;

	private final Map<String, JsonObject> discovery = new HashMap<>();

	/**
	 * Creates a new instance.
	 * @param client the client to apply with
	 */
	public Manifests(ApiClient client) {
		this.client = client;
		this.controlPlane = null;
	}

	/**
	 * Creates a new instance that applies as the control plane's administrator and, after
	 * applying custom resource definitions, makes its components see them at once: with
	 * {@link io.github.kubeop.test.controlplane.Component#CONTROLLER_MANAGER}, objects
	 * owned by the new kinds are then garbage-collected within seconds of their owner's
	 * deletion instead of after kube-controller-manager's next discovery resync (up to 30
	 * s).
	 * @param controlPlane the control plane to apply to
	 */
	public Manifests(ControlPlane controlPlane) {
		this.client = controlPlane.apiClient();
		this.controlPlane = controlPlane;
	}

	/**
	 * Applies every document of a YAML file, then waits for the custom resource
	 * definitions among them to be served.
	 * @param file the file
	 * @param defaultNamespace the namespace of namespaced objects that name none
	 * @return the applied objects, as the server returned them
	 */
	public List<JsonObject> apply(Path file, String defaultNamespace) {
		try {
			return apply(Files.readString(file, StandardCharsets.UTF_8), defaultNamespace);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + file, ex);
		}
	}

	/**
	 * Applies every document of a YAML text, then waits for the custom resource
	 * definitions among them to be served.
	 * @param yaml the YAML documents
	 * @param defaultNamespace the namespace of namespaced objects that name none
	 * @return the applied objects, as the server returned them
	 */
	public List<JsonObject> apply(String yaml, String defaultNamespace) {
		Gson gson = new Gson();
		List<JsonObject> applied = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
			if (document instanceof Map<?, ?> map) {
				applied.add(applyOne(gson.toJsonTree(map).getAsJsonObject(), defaultNamespace));
			}
		}
		boolean definitions = false;
		for (JsonObject object : applied) {
			if ("CustomResourceDefinition".equals(object.get("kind").getAsString())) {
				awaitServed(object.getAsJsonObject("metadata").get("name").getAsString());
				definitions = true;
			}
		}
		if (definitions && this.controlPlane != null) {
			this.controlPlane.refreshDiscovery();
		}
		return applied;
	}

	private JsonObject applyOne(JsonObject object, String defaultNamespace) {
		String apiVersion = object.get("apiVersion").getAsString();
		String kind = object.get("kind").getAsString();
		JsonObject resource = resource(apiVersion, kind);
		JsonObject metadata = object.getAsJsonObject("metadata");
		String name = metadata.get("name").getAsString();
		String prefix = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
		String path = prefix;
		if (resource.get("namespaced").getAsBoolean()) {
			String namespace = metadata.has("namespace") ? metadata.get("namespace").getAsString() : defaultNamespace;
			metadata.addProperty("namespace", namespace);
			path += "/namespaces/" + namespace;
		}
		path += "/" + resource.get("name").getAsString() + "/" + name;
		List<Pair> query = List.of(new Pair("fieldManager", "kubeop-test"), new Pair("force", "true"));
		Request request = request(path, query).newBuilder()
			.patch(RequestBody.create(object.toString(), APPLY_PATCH))
			.build();
		return JsonParser.parseString(execute(request, kind + " " + name)).getAsJsonObject();
	}

	private JsonObject resource(String apiVersion, String kind) {
		JsonObject list = this.discovery.computeIfAbsent(apiVersion, (version) -> {
			String path = version.contains("/") ? "/apis/" + version : "/api/" + version;
			return JsonParser.parseString(execute(request(path, List.of()).newBuilder().get().build(), path))
				.getAsJsonObject();
		});
		for (JsonElement element : list.getAsJsonArray("resources")) {
			JsonObject resource = element.getAsJsonObject();
			if (kind.equals(resource.get("kind").getAsString()) && !resource.get("name").getAsString().contains("/")) {
				return resource;
			}
		}
		this.discovery.remove(apiVersion);
		throw new IllegalStateException("The server does not serve kind " + kind + " in " + apiVersion);
	}

	/**
	 * Waits until a CustomResourceDefinition is established and each of its served
	 * versions is served: listed by discovery, and answering a LIST from the watch cache
	 * (which answers {@code 429 storage is (re)initializing} for a moment after the first
	 * request for a new resource, as an informer started at once would see).
	 */
	private void awaitServed(String name) {
		Instant deadline = Instant.now().plus(SERVED_TIMEOUT);
		String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name;
		JsonObject crd = JsonParser.parseString(execute(get(path), path)).getAsJsonObject();
		while (!isEstablished(crd)) {
			pause(name, deadline, "established");
			crd = JsonParser.parseString(execute(get(path), path)).getAsJsonObject();
		}
		this.discovery.clear();
		JsonObject spec = crd.getAsJsonObject("spec");
		String group = spec.get("group").getAsString();
		String plural = spec.getAsJsonObject("names").get("plural").getAsString();
		for (JsonElement element : spec.getAsJsonArray("versions")) {
			JsonObject version = element.getAsJsonObject();
			if (version.has("served") && version.get("served").getAsBoolean()) {
				String groupVersion = "/apis/" + group + "/" + version.get("name").getAsString();
				while (!discoveryLists(groupVersion, plural)) {
					pause(name, deadline, "listed by discovery at " + groupVersion);
				}
				while (status(get(groupVersion + "/" + plural, new Pair("resourceVersion", "0"))) != 200) {
					pause(name, deadline, "served at " + groupVersion + "/" + plural);
				}
			}
		}
	}

	private static boolean isEstablished(JsonObject crd) {
		JsonElement status = crd.get("status");
		JsonElement conditions = (status != null && status.isJsonObject()) ? status.getAsJsonObject().get("conditions")
				: null;
		if (conditions != null && conditions.isJsonArray()) {
			for (JsonElement condition : conditions.getAsJsonArray()) {
				JsonObject c = condition.getAsJsonObject();
				if ("Established".equals(c.get("type").getAsString()) && "True".equals(c.get("status").getAsString())) {
					return true;
				}
			}
		}
		return false;
	}

	private boolean discoveryLists(String groupVersion, String plural) {
		try (Response response = this.client.getHttpClient().newCall(get(groupVersion)).execute()) {
			if (response.code() != 200 || response.body() == null) {
				return false;
			}
			JsonElement resources = JsonParser.parseString(response.body().string()).getAsJsonObject().get("resources");
			if (resources != null && resources.isJsonArray()) {
				for (JsonElement resource : resources.getAsJsonArray()) {
					if (plural.equals(resource.getAsJsonObject().get("name").getAsString())) {
						return true;
					}
				}
			}
			return false;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Reading " + groupVersion + " failed", ex);
		}
	}

	private int status(Request request) {
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			return response.code();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(request.method() + " " + request.url() + " failed", ex);
		}
	}

	private static void pause(String name, Instant deadline, String state) {
		if (Instant.now().isAfter(deadline)) {
			throw new IllegalStateException("CustomResourceDefinition " + name + " was not " + state + " within "
					+ SERVED_TIMEOUT.toSeconds() + " s");
		}
		try {
			Thread.sleep(100);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for " + name, ex);
		}
	}

	private Request get(String path, Pair... query) {
		return request(path, List.of(query)).newBuilder().get().build();
	}

	private Request request(String path, List<Pair> query) {
		try {
			return this.client
				.buildCall(this.client.getBasePath(), path, "GET", new ArrayList<>(query), new ArrayList<>(), null,
						new HashMap<>(), new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null)
				.request();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("Could not build a request for " + path, ex);
		}
	}

	private String execute(Request request, String what) {
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			String body = (response.body() != null) ? response.body().string() : "";
			if (!response.isSuccessful()) {
				throw new IllegalStateException(
						"Applying " + what + " failed with HTTP " + response.code() + ": " + body);
			}
			return body;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Applying " + what + " failed", ex);
		}
	}

}
