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

package io.github.kubeop.webhook;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.ResolvableType;

/**
 * Answers the API server's {@code ConversionReview}s (v1) on {@code /convert}: each
 * object of the review is read as the typed class of its version, converted through the
 * hub by the {@link VersionConverter} beans, and written as the desired version with its
 * metadata untouched. One object that cannot be converted fails the review, as the API
 * server expects.
 *
 * @author Kubeop authors
 */
final class ConversionEndpoint implements WebhookEndpoint {

	/**
	 * The path controller-runtime serves conversion on; each resource with converters is
	 * also served on {@code /convert/<group>/<plural>}, the path the Maven plugin writes
	 * into its CRD. Every path converts every kind.
	 */
	static final String PATH = "/convert";

	private static final Log logger = LogFactory.getLog(ConversionEndpoint.class);

	private final Map<String, Kind> kinds = new LinkedHashMap<>();

	private final Gson gson;

	ConversionEndpoint(List<VersionConverter<?, ?>> converters, Gson gson) {
		this.gson = gson;
		converters.forEach(this::add);
	}

	private void add(VersionConverter<?, ?> converter) {
		Class<?> target = AopUtils.getTargetClass(converter);
		ResolvableType[] generics = ResolvableType.forClass(target).as(VersionConverter.class).getGenerics();
		Class<?> spoke = generics[0].resolve();
		Class<?> hub = generics[1].resolve();
		if (spoke == null || hub == null || !ResourceType.isCustomResource(spoke)
				|| !ResourceType.isCustomResource(hub)) {
			throw new InvalidConverterException(target.getName() + " does not name the classes it converts",
					"Implement VersionConverter<Spoke, Hub> with two typed custom resource classes (annotated with "
							+ "@KubernetesResource) of one group and kind, such as VersionConverter<WidgetV1alpha1, "
							+ "Widget>.");
		}
		ResourceType spokeType = ResourceType.of(spoke);
		ResourceType hubType = ResourceType.of(hub);
		if (!spokeType.group().equals(hubType.group()) || !spokeType.kind().equals(hubType.kind())
				|| spokeType.version().equals(hubType.version())) {
			throw new InvalidConverterException(
					target.getName() + " converts " + spokeType.apiVersion() + " " + spokeType.kind() + " to "
							+ hubType.apiVersion() + " " + hubType.kind(),
					"A converter joins two versions of one group and kind: give both classes the same group and "
							+ "kind and different versions in @KubernetesResource.");
		}
		String key = spokeType.group() + "/" + spokeType.kind();
		Kind kind = this.kinds.computeIfAbsent(key,
				(k) -> new Kind(hubType.version(), hub.asSubclass(KubernetesObject.class)));
		if (!kind.hubVersion.equals(hubType.version())) {
			throw new InvalidConverterException(
					target.getName() + " converts to " + hubType.apiVersion() + ", but another converter of "
							+ spokeType.kind() + " converts to its version " + kind.hubVersion,
					"Convert every version of a kind to one hub version (the storage version, as a rule).");
		}
		if (kind.spokes.putIfAbsent(spokeType.version(),
				new Spoke(spoke.asSubclass(KubernetesObject.class), converter)) != null) {
			throw new InvalidConverterException(
					"Two converters convert " + spokeType.apiVersion() + " " + spokeType.kind(),
					"Keep one VersionConverter bean per version.");
		}
	}

	boolean isEmpty() {
		return this.kinds.isEmpty();
	}

	/**
	 * Returns the paths of the resources with converters, as the Maven plugin writes them
	 * into the CRDs' {@code conversion} section: {@code /convert/<group>/<plural>}.
	 * @return the paths, by CustomResourceDefinition name
	 */
	Map<String, String> definitionPaths() {
		Map<String, String> paths = new LinkedHashMap<>();
		this.kinds.values().forEach((kind) -> {
			ResourceType type = ResourceType.of(kind.hubType);
			paths.put(type.crdName(), PATH + "/" + type.group() + "/" + type.plural());
		});
		return paths;
	}

	/**
	 * Returns the CustomResourceDefinition name of every resource with converters.
	 * @return the definition names
	 */
	List<String> definitionNames() {
		return this.kinds.values().stream().map((kind) -> ResourceType.of(kind.hubType).crdName()).toList();
	}

	@Override
	public String path() {
		return PATH;
	}

	@Override
	public Answer answer(JsonObject review) {
		JsonObject request = review.getAsJsonObject("request");
		String desired = AdmissionEndpoint.string(request, "desiredAPIVersion");
		JsonObject response = new JsonObject();
		response.addProperty("uid", AdmissionEndpoint.string(request, "uid"));
		JsonObject result = new JsonObject();
		JsonArray converted = new JsonArray();
		int code = 200;
		Throwable failure = null;
		try {
			for (JsonElement object : request.getAsJsonArray("objects")) {
				converted.add(convert(object.getAsJsonObject(), desired));
			}
			result.addProperty("status", "Success");
			response.add("convertedObjects", converted);
		}
		catch (ConversionException ex) {
			code = 400;
			result.addProperty("status", "Failure");
			result.addProperty("message", ex.getMessage());
		}
		catch (RuntimeException ex) {
			logger.error("Conversion to " + desired + " failed", ex);
			code = 500;
			failure = ex;
			result.addProperty("status", "Failure");
			result.addProperty("message",
					"conversion to " + desired + " threw " + ex.getClass().getName() + ": " + ex.getMessage());
		}
		response.add("result", result);
		JsonObject answer = new JsonObject();
		answer.addProperty("apiVersion", "apiextensions.k8s.io/v1");
		answer.addProperty("kind", "ConversionReview");
		answer.add("response", response);
		return new Answer(answer, code, failure);
	}

	/**
	 * Converts one object to a version, through the hub.
	 * @param object the object as JSON
	 * @param desiredApiVersion the API version to convert to
	 * @return the converted object as JSON
	 */
	JsonObject convert(JsonObject object, String desiredApiVersion) {
		String apiVersion = AdmissionEndpoint.string(object, "apiVersion");
		String kindName = AdmissionEndpoint.string(object, "kind");
		if (desiredApiVersion.equals(apiVersion)) {
			return object;
		}
		String group = group(apiVersion);
		if (!group.equals(group(desiredApiVersion))) {
			throw new ConversionException("cannot convert " + apiVersion + " to another group: " + desiredApiVersion);
		}
		Kind kind = this.kinds.get(group + "/" + kindName);
		if (kind == null) {
			throw new ConversionException("no VersionConverter beans for " + group + " " + kindName);
		}
		KubernetesObject hub = kind.toHub(read(kind, version(apiVersion), object), version(apiVersion));
		KubernetesObject desired = kind.fromHub(hub, version(desiredApiVersion));
		JsonObject json = this.gson.toJsonTree(desired).getAsJsonObject();
		json.addProperty("apiVersion", desiredApiVersion);
		json.addProperty("kind", kindName);
		// the API server rejects a conversion that changes metadata other than labels
		// and annotations: what came in goes out
		json.add("metadata", object.get("metadata"));
		return json;
	}

	private KubernetesObject read(Kind kind, String version, JsonObject object) {
		Class<? extends KubernetesObject> type = kind.type(version);
		try {
			return this.gson.fromJson(object, type);
		}
		catch (RuntimeException ex) {
			throw new ConversionException("could not read " + AdmissionEndpoint.string(object, "apiVersion") + " "
					+ AdmissionEndpoint.string(object, "kind") + " as " + type.getName() + ": " + ex.getMessage());
		}
	}

	private static String group(String apiVersion) {
		int slash = apiVersion.indexOf('/');
		return (slash < 0) ? "" : apiVersion.substring(0, slash);
	}

	private static String version(String apiVersion) {
		return apiVersion.substring(apiVersion.indexOf('/') + 1);
	}

	/**
	 * The versions of one group and kind.
	 */
	private static final class Kind {

		private final String hubVersion;

		private final Class<? extends KubernetesObject> hubType;

		private final Map<String, Spoke> spokes = new LinkedHashMap<>();

		Kind(String hubVersion, Class<? extends KubernetesObject> hubType) {
			this.hubVersion = hubVersion;
			this.hubType = hubType;
		}

		Class<? extends KubernetesObject> type(String version) {
			if (version.equals(this.hubVersion)) {
				return this.hubType;
			}
			return spoke(version).type();
		}

		@SuppressWarnings({ "unchecked", "rawtypes" })
		KubernetesObject toHub(KubernetesObject object, String version) {
			if (version.equals(this.hubVersion)) {
				return object;
			}
			return ((VersionConverter) spoke(version).converter()).toHub(object);
		}

		@SuppressWarnings({ "unchecked", "rawtypes" })
		KubernetesObject fromHub(KubernetesObject hub, String version) {
			if (version.equals(this.hubVersion)) {
				return hub;
			}
			return ((VersionConverter) spoke(version).converter()).fromHub(hub);
		}

		private Spoke spoke(String version) {
			Spoke spoke = this.spokes.get(version);
			if (spoke == null) {
				throw new ConversionException("no VersionConverter bean converts version " + version + " (hub "
						+ this.hubVersion + ", converters for " + this.spokes.keySet() + ")");
			}
			return spoke;
		}

	}

	private record Spoke(Class<? extends KubernetesObject> type, VersionConverter<?, ?> converter) {

	}

	/**
	 * A conversion the review asks for that no converter can make.
	 */
	static final class ConversionException extends RuntimeException {

		ConversionException(String message) {
			super(message);
		}

	}

}
