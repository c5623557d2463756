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

package io.github.kubeop.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A label selector in Kubernetes' string form ({@code app=web,tier!=cache,env in (a,b),
 * !legacy}), evaluated in memory for handler filters.
 *
 * @author Kubeop authors
 */
final class LabelSelector implements Predicate<Map<String, String>> {

	private static final Pattern SET = Pattern.compile("^([\\w./-]+)\\s+(in|notin)\\s+\\(([^)]*)\\)$");

	private static final Pattern EQUALITY = Pattern.compile("^([\\w./-]+)\\s*(==|=|!=)\\s*([\\w.-]*)$");

	private static final Pattern EXISTS = Pattern.compile("^(!?)([\\w./-]+)$");

	private final List<Predicate<Map<String, String>>> requirements;

	private LabelSelector(List<Predicate<Map<String, String>>> requirements) {
		this.requirements = requirements;
	}

	/**
	 * Parses a selector.
	 * @param selector the selector; blank selects everything
	 * @return the selector
	 * @throws IllegalArgumentException naming the requirement that does not parse
	 */
	static LabelSelector parse(String selector) {
		List<Predicate<Map<String, String>>> requirements = new ArrayList<>();
		for (String requirement : splitRequirements(selector)) {
			requirements.add(requirement(requirement.trim()));
		}
		return new LabelSelector(requirements);
	}

	@Override
	public boolean test(Map<String, String> labels) {
		Map<String, String> actual = (labels != null) ? labels : Map.of();
		return this.requirements.stream().allMatch((requirement) -> requirement.test(actual));
	}

	private static Predicate<Map<String, String>> requirement(String requirement) {
		Matcher set = SET.matcher(requirement);
		if (set.matches()) {
			String key = set.group(1);
			Set<String> values = Set.of(set.group(3).trim().split("\\s*,\\s*"));
			return set.group(2).equals("in") ? (labels) -> values.contains(labels.get(key))
					: (labels) -> !values.contains(labels.get(key));
		}
		Matcher equality = EQUALITY.matcher(requirement);
		if (equality.matches()) {
			String key = equality.group(1);
			String value = equality.group(3);
			return equality.group(2).equals("!=") ? (labels) -> !value.equals(labels.get(key))
					: (labels) -> value.equals(labels.get(key));
		}
		Matcher exists = EXISTS.matcher(requirement);
		if (exists.matches()) {
			String key = exists.group(2);
			return exists.group(1).isEmpty() ? (labels) -> labels.containsKey(key)
					: (labels) -> !labels.containsKey(key);
		}
		throw new IllegalArgumentException("'" + requirement + "' is not a label selector requirement");
	}

	private static List<String> splitRequirements(String selector) {
		List<String> parts = new ArrayList<>();
		if (selector == null || selector.isBlank()) {
			return parts;
		}
		int depth = 0;
		int start = 0;
		for (int i = 0; i < selector.length(); i++) {
			char c = selector.charAt(i);
			depth += (c == '(') ? 1 : (c == ')') ? -1 : 0;
			if (c == ',' && depth == 0) {
				parts.add(selector.substring(start, i));
				start = i + 1;
			}
		}
		parts.add(selector.substring(start));
		return parts;
	}

}
