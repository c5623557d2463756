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
 * {@code kubectl apply --server-side} does, and waits for custom resource definitions to
 * be established. It works on raw JSON, so fields the generated models mishandle (such as
 * a CRD schema's empty {@code dependencies}) never get in the way.
 *
 * @author Kubeop authors
 */
public final class Manifests {

	private static final MediaType APPLY_PATCH = MediaType.get("application/apply-patch+yaml");

	private final ApiClient client;

	private final Map<String, JsonObject> discovery = new HashMap<>();

	/**
	 * Creates a new instance.
	 * @param client the client to apply with
	 */
	public Manifests(ApiClient client) {
		this.client = client;
	}

	/**
	 * Applies every document of a YAML file, then waits for the custom resource
	 * definitions among them to be established.
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
	 * definitions among them to be established.
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
		for (JsonObject object : applied) {
			if ("CustomResourceDefinition".equals(object.get("kind").getAsString())) {
				awaitEstablished(object.getAsJsonObject("metadata").get("name").getAsString());
			}
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

	private void awaitEstablished(String name) {
		Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
		String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name;
		while (Instant.now().isBefore(deadline)) {
			JsonObject crd = JsonParser.parseString(execute(request(path, List.of()).newBuilder().get().build(), path))
				.getAsJsonObject();
			JsonElement status = crd.get("status");
			JsonElement conditions = (status != null && status.isJsonObject())
					? status.getAsJsonObject().get("conditions") : null;
			if (conditions != null && conditions.isJsonArray()) {
				for (JsonElement condition : conditions.getAsJsonArray()) {
					JsonObject c = condition.getAsJsonObject();
					if ("Established".equals(c.get("type").getAsString())
							&& "True".equals(c.get("status").getAsString())) {
						this.discovery.clear();
						return;
					}
				}
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + name, ex);
			}
		}
		throw new IllegalStateException("CustomResourceDefinition " + name + " was not established within 30 s");
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
