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

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.kubeop.maven.CrdGenerator.DeclaredRule;
import io.github.kubeop.resource.ResourceType;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Verifies generated CustomResourceDefinitions with a real API server: each is created
 * with {@code dryRun=All} (or, when one of that name exists, replaced with
 * {@code dryRun=All}), so that the API server runs its whole validation of a definition,
 * CEL rules compiled and their cost estimated included, and stores nothing. A definition
 * it refuses fails with the class and field each refused rule was declared on, the rule
 * and the API server's message, which is what cel-java at build time cannot give for a
 * rule refused for its estimated cost.
 * <p>
 * Replacing an existing definition is validated as an update: the API server does not
 * check again the rules of a version whose schema is unchanged, so only a create (on an
 * API server without the definition) checks every rule.
 *
 * @author Kubeop authors
 */
final class CrdVerifier {

	private static final String DEFINITIONS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

	private static final MediaType JSON_TYPE = MediaType.get("application/json");

	private static final Pattern VERSION_SCHEMA = Pattern
		.compile("^spec\\.versions\\[(\\d+)]\\.schema\\.openAPIV3Schema");

	private static final String COMMON_SCHEMA = "spec.validation.openAPIV3Schema";

	private final ObjectMapper objectMapper = new ObjectMapper();

	private final ApiClient client;

	private final CrdGenerator generator;

	/**
	 * Creates a verifier.
	 * @param client the client of the API server to verify with
	 * @param generator the generator of the definitions
	 */
	CrdVerifier(ApiClient client, CrdGenerator generator) {
		this.client = client;
		this.generator = generator;
	}

	/**
	 * Verifies the definitions of the given resource classes, one per kind.
	 * @param resourceClasses the classes
	 * @return the names of the definitions verified
	 * @throws IllegalArgumentException naming the class, field, rule and the API server's
	 * message for every rule of every definition it refuses
	 * @throws IllegalStateException if the API server cannot be asked
	 */
	List<String> verify(Collection<Class<?>> resourceClasses) {
		List<String> verified = new ArrayList<>();
		List<String> refusals = new ArrayList<>();
		for (Map.Entry<String, List<Class<?>>> definition : CrdGenerator.byDefinition(resourceClasses).entrySet()) {
			String refusal = verify(definition.getKey(), definition.getValue());
			if (refusal != null) {
				refusals.add(refusal);
			}
			verified.add(definition.getKey());
		}
		if (!refusals.isEmpty()) {
			throw new IllegalArgumentException(String.join("\n", refusals));
		}
		return verified;
	}

	private String verify(String name, List<Class<?>> versionClasses) {
		Map<String, DeclaredRule> rules = new LinkedHashMap<>();
		ObjectNode definition = this.generator.customResourceDefinition(versionClasses, rules);
		Answer answer = send(new Request.Builder().url(this.client.getBasePath() + DEFINITIONS + "?dryRun=All")
			.post(RequestBody.create(definition.toString(), JSON_TYPE))
			.build());
		if (answer.code() == 409) {
			answer = send(
					new Request.Builder().url(this.client.getBasePath() + DEFINITIONS + "/" + name).get().build());
			if (answer.code() != 200) {
				throw unexpected(name, answer);
			}
			definition.with("metadata")
				.put("resourceVersion", answer.body().path("metadata").path("resourceVersion").asText());
			answer = send(
					new Request.Builder().url(this.client.getBasePath() + DEFINITIONS + "/" + name + "?dryRun=All")
						.put(RequestBody.create(definition.toString(), JSON_TYPE))
						.build());
		}
		if (answer.code() == 200 || answer.code() == 201) {
			return null;
		}
		if (answer.code() != 422) {
			throw unexpected(name, answer);
		}
		return refusal(name, versionClasses, rules, answer.body(), definition);
	}

	private String refusal(String name, List<Class<?>> versionClasses, Map<String, DeclaredRule> rules, JsonNode status,
			JsonNode definition) {
		// the API server may refuse one rule for several reasons: one line per rule
		Map<String, List<String>> messages = new LinkedHashMap<>();
		for (JsonNode cause : status.path("details").path("causes")) {
			String field = cause.path("field").asText("");
			String message = cause.path("message").asText("");
			Set<DeclaredRule> declared = declaredRules(field, rules);
			String subject;
			if (declared.isEmpty()) {
				subject = field + versionClass(field, versionClasses, definition);
			}
			else {
				DeclaredRule first = declared.iterator().next();
				List<String> origins = declared.stream().map(DeclaredRule::origin).distinct().toList();
				subject = "rule \"" + first.rule() + "\" on " + String.join(" and ", origins);
			}
			messages.computeIfAbsent(subject, (key) -> new ArrayList<>()).add(message);
		}
		List<String> lines = new ArrayList<>();
		messages.forEach((subject, reasons) -> lines.add(subject + ": " + String.join("; ", reasons)));
		if (lines.isEmpty()) {
			lines.add(status.path("message").asText(status.toString()));
		}
		List<String> classes = versionClasses.stream().map(Class::getName).toList();
		return "The API server refuses the CustomResourceDefinition " + name + " of " + String.join(", ", classes)
				+ ":\n  - " + String.join("\n  - ", lines);
	}

	// what is not one rule's, such as the cost of a version's rules together, is named
	// after the class of that version
	private static String versionClass(String field, List<Class<?>> versionClasses, JsonNode definition) {
		Matcher version = VERSION_SCHEMA.matcher(field);
		if (!version.find()) {
			return "";
		}
		String versionName = definition.path("spec")
			.path("versions")
			.path(Integer.parseInt(version.group(1)))
			.path("name")
			.asText();
		return versionClasses.stream()
			.filter((candidate) -> ResourceType.of(candidate).version().equals(versionName))
			.findFirst()
			.map((candidate) -> " (version " + versionName + ", " + candidate.getName() + ")")
			.orElse("");
	}

	// the API server names a schema that all versions share spec.validation, and the
	// schema of one version spec.versions[i].schema
	private static Set<DeclaredRule> declaredRules(String field, Map<String, DeclaredRule> rules) {
		Set<DeclaredRule> declared = new LinkedHashSet<>();
		List<String> candidates = new ArrayList<>();
		if (field.startsWith(COMMON_SCHEMA)) {
			String rest = field.substring(COMMON_SCHEMA.length());
			for (String key : rules.keySet()) {
				Matcher version = VERSION_SCHEMA.matcher(key);
				if (version.find()) {
					candidates.add(version.group() + rest);
				}
			}
		}
		else {
			candidates.add(field);
		}
		for (String candidate : candidates) {
			DeclaredRule rule = null;
			int longest = -1;
			for (Map.Entry<String, DeclaredRule> entry : rules.entrySet()) {
				String key = entry.getKey();
				boolean within = candidate.equals(key) || candidate.startsWith(key + ".");
				if (within && key.length() > longest) {
					rule = entry.getValue();
					longest = key.length();
				}
			}
			if (rule != null) {
				declared.add(rule);
			}
		}
		return declared;
	}

	private Answer send(Request request) {
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			String body = (response.body() != null) ? response.body().string() : "";
			JsonNode json;
			try {
				json = body.isEmpty() ? this.objectMapper.createObjectNode() : this.objectMapper.readTree(body);
			}
			catch (IOException ex) {
				json = this.objectMapper.createObjectNode().put("message", body);
			}
			return new Answer(response.code(), json);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not reach the API server at " + this.client.getBasePath()
					+ " to verify the CustomResourceDefinitions: " + ex.getMessage(), ex);
		}
	}

	private IllegalStateException unexpected(String name, Answer answer) {
		return new IllegalStateException("The API server at " + this.client.getBasePath()
				+ " could not dry-run the CustomResourceDefinition " + name + ": HTTP " + answer.code() + " "
				+ answer.body().path("message").asText(answer.body().toString()));
	}

	private record Answer(int code, JsonNode body) {
	}

}
