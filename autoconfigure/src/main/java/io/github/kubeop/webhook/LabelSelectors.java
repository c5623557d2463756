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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;

/**
 * Reads a label selector written as {@code kubectl -l} takes it
 * ({@code a=b,c!=d,e in (f,g),h notin (i),j,!k}) into the structured form of a webhook
 * configuration's {@code namespaceSelector} and {@code objectSelector}.
 *
 * @author Kubeop authors
 */
final class LabelSelectors {

	private static final Pattern SET = Pattern.compile("^([^\\s!=]+)\\s+(in|notin)\\s*\\(([^)]*)\\)$");

	private static final Pattern KEY = Pattern.compile("^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$");

	private LabelSelectors() {
	}

	/**
	 * Parses a selector.
	 * @param selector the selector, empty for everything
	 * @return the structured selector, or {@code null} for an empty one
	 * @throws IllegalArgumentException if the selector cannot be read
	 */
	static V1LabelSelector parse(String selector) {
		if (selector == null || selector.isBlank()) {
			return null;
		}
		Map<String, String> matchLabels = new LinkedHashMap<>();
		List<V1LabelSelectorRequirement> expressions = new ArrayList<>();
		for (String term : split(selector)) {
			Matcher set = SET.matcher(term);
			if (set.matches()) {
				List<String> values = Arrays.stream(set.group(3).split(",")).map(String::trim).toList();
				if (values.stream().anyMatch(String::isEmpty)) {
					throw new IllegalArgumentException("empty value in \"" + term + "\"");
				}
				expressions.add(new V1LabelSelectorRequirement().key(key(set.group(1)))
					.operator(set.group(2).equals("in") ? "In" : "NotIn")
					.values(values));
			}
			else if (term.contains("!=")) {
				String[] parts = term.split("!=", 2);
				expressions.add(new V1LabelSelectorRequirement().key(key(parts[0].trim()))
					.operator("NotIn")
					.values(List.of(parts[1].trim())));
			}
			else if (term.contains("=")) {
				String[] parts = term.split("==?", 2);
				matchLabels.put(key(parts[0].trim()), parts[1].trim());
			}
			else if (term.startsWith("!")) {
				expressions
					.add(new V1LabelSelectorRequirement().key(key(term.substring(1).trim())).operator("DoesNotExist"));
			}
			else {
				expressions.add(new V1LabelSelectorRequirement().key(key(term)).operator("Exists"));
			}
		}
		return new V1LabelSelector().matchLabels(matchLabels.isEmpty() ? null : matchLabels)
			.matchExpressions(expressions.isEmpty() ? null : expressions);
	}

	private static String key(String key) {
		if (!KEY.matcher(key).matches()) {
			throw new IllegalArgumentException("\"" + key + "\" is not a label key");
		}
		return key;
	}

	private static List<String> split(String selector) {
		List<String> terms = new ArrayList<>();
		int depth = 0;
		StringBuilder current = new StringBuilder();
		for (char c : selector.toCharArray()) {
			if (c == '(') {
				depth++;
			}
			else if (c == ')') {
				depth--;
			}
			if (c == ',' && depth == 0) {
				terms.add(current.toString().trim());
				current.setLength(0);
			}
			else {
				current.append(c);
			}
		}
		terms.add(current.toString().trim());
		if (terms.stream().anyMatch(String::isEmpty) || depth != 0) {
			throw new IllegalArgumentException("\"" + selector + "\" has an empty or unbalanced term");
		}
		return terms;
	}

}
