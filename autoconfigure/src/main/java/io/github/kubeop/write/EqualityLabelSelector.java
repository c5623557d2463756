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

package io.github.kubeop.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A label selector of equality-based requirements ({@code a=b}, {@code a==b},
 * {@code a!=b}, {@code a}, {@code !a}), evaluated against a cache. A set-based selector
 * ({@code a in (b, c)}) is left to the API server.
 *
 * @author Kubeop authors
 */
final class EqualityLabelSelector implements Predicate<Map<String, String>> {

	private static final EqualityLabelSelector EVERYTHING = new EqualityLabelSelector(List.of());

	private final List<Predicate<Map<String, String>>> requirements;

	private EqualityLabelSelector(List<Predicate<Map<String, String>>> requirements) {
		this.requirements = requirements;
	}

	/**
	 * Parses a selector.
	 * @param selector the selector, {@code null} or blank for every object
	 * @return the selector, or {@code null} if it is not equality-based
	 */
	static EqualityLabelSelector parse(String selector) {
		if (selector == null || selector.isBlank()) {
			return EVERYTHING;
		}
		if (selector.contains("(") || selector.contains(" in ") || selector.contains(" notin ")) {
			return null;
		}
		List<Predicate<Map<String, String>>> requirements = new ArrayList<>();
		for (String part : selector.split(",")) {
			String requirement = part.trim();
			int notEquals = requirement.indexOf("!=");
			int equals = requirement.indexOf('=');
			if (requirement.isEmpty()) {
				return null;
			}
			if (notEquals > 0) {
				String key = requirement.substring(0, notEquals).trim();
				String value = requirement.substring(notEquals + 2).trim();
				requirements.add((labels) -> !value.equals(labels.get(key)));
			}
			else if (equals > 0) {
				String key = requirement.substring(0, equals).trim();
				String value = requirement.substring(requirement.startsWith("==", equals) ? equals + 2 : equals + 1)
					.trim();
				requirements.add((labels) -> value.equals(labels.get(key)));
			}
			else if (requirement.startsWith("!")) {
				String key = requirement.substring(1).trim();
				requirements.add((labels) -> !labels.containsKey(key));
			}
			else if (requirement.matches("[A-Za-z0-9./_-]+")) {
				requirements.add((labels) -> labels.containsKey(requirement));
			}
			else {
				return null;
			}
		}
		return new EqualityLabelSelector(List.copyOf(requirements));
	}

	@Override
	public boolean test(Map<String, String> labels) {
		Map<String, String> present = (labels != null) ? labels : Map.of();
		return this.requirements.stream().allMatch((requirement) -> requirement.test(present));
	}

}
