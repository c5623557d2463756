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

package io.github.kubeop.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;

/**
 * Explains a key under {@code kubeop.*} that no Kubeop property takes, naming the valid
 * key closest to it. {@link KubeopProperties} refuses unknown keys because an ignored one
 * can turn a configuration into its opposite: an informer whose misspelled
 * {@code label-selecter} is ignored caches every object of its kind. Runs before Spring
 * Boot's generic analyzer of unbound properties, which names the key but not the fix.
 *
 * @author Kubeop authors
 */
class UnknownKubeopPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException>
		implements Ordered {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("kubeop");

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
		List<ConfigurationProperty> unknown = cause.getUnboundProperties()
			.stream()
			.filter((property) -> ROOT.isAncestorOf(property.getName()))
			.toList();
		if (unknown.isEmpty()) {
			return null;
		}
		StringBuilder description = new StringBuilder(
				"Kubeop does not know these properties, and would ignore them otherwise:\n");
		StringBuilder action = new StringBuilder();
		for (ConfigurationProperty property : unknown) {
			description.append("\n    Property: ").append(property.getName());
			if (property.getOrigin() != null) {
				description.append("\n    Origin: ").append(property.getOrigin());
			}
			description.append('\n');
			String closest = closestKnownName(property.getName());
			action.append((closest != null) ? "Replace " + property.getName() + " with " + closest + ".\n"
					: "Remove " + property.getName() + ", or move it under a Kubeop property.\n");
		}
		action.append("The Kubeop properties are listed in the reference documentation and completed by IDEs.");
		return new FailureAnalysis(description.toString(), action.toString(), cause);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/**
	 * Returns the valid name closest to an unknown one: the part that binds is kept, and
	 * the first element that does not is replaced with the property of that level whose
	 * name is the fewest edits away.
	 * @param unknown a name under {@code kubeop} that no property takes
	 * @return the closest valid name, or {@code null} if none is close
	 */
	static String closestKnownName(ConfigurationPropertyName unknown) {
		ResolvableType type = ResolvableType.forClass(KubeopProperties.class);
		StringBuilder known = new StringBuilder(ROOT.toString());
		for (int i = ROOT.getNumberOfElements(); i < unknown.getNumberOfElements(); i++) {
			String element = unknown.getElement(i, Form.DASHED);
			Class<?> container = type.toClass();
			if (Map.class.isAssignableFrom(container)) {
				known.append('.').append(element);
				type = type.asMap().getGeneric(1);
				continue;
			}
			if (Collection.class.isAssignableFrom(container) || type.isArray()) {
				if (!unknown.isNumericIndex(i)) {
					return null;
				}
				known.append('[').append(element).append(']');
				type = type.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0);
				continue;
			}
			Map<String, ResolvableType> properties = properties(type);
			ResolvableType property = properties.get(element);
			if (property == null) {
				String closest = closest(element, properties.keySet());
				return (closest != null) ? known + "." + closest + rest(unknown, i + 1) : null;
			}
			known.append('.').append(element);
			type = property;
		}
		return null;
	}

	private static String rest(ConfigurationPropertyName name, int from) {
		StringBuilder rest = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, Form.DASHED);
			rest.append(name.isNumericIndex(i) ? "[" + element + "]" : "." + element);
		}
		return rest.toString();
	}

	private static Map<String, ResolvableType> properties(ResolvableType type) {
		Map<String, ResolvableType> properties = new TreeMap<>();
		Class<?> beanClass = type.toClass();
		if (beanClass.getName().startsWith("java.") || beanClass.isPrimitive() || beanClass.isEnum()) {
			return properties;
		}
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(beanClass)) {
			if (descriptor.getReadMethod() != null && !"class".equals(descriptor.getName())) {
				properties.put(DataObjectPropertyName.toDashedForm(descriptor.getName()),
						ResolvableType.forMethodReturnType(descriptor.getReadMethod(), beanClass));
			}
		}
		return properties;
	}

	/**
	 * Returns the candidate the fewest edits away from a name, if it is close enough to
	 * be a likely misspelling (at most a third of the name's length, and at least two
	 * edits, away).
	 */
	private static String closest(String name, Collection<String> candidates) {
		String closest = null;
		int fewest = Math.max(2, name.length() / 3) + 1;
		for (String candidate : candidates) {
			int distance = editDistance(name, candidate);
			if (distance < fewest) {
				fewest = distance;
				closest = candidate;
			}
		}
		return closest;
	}

	/**
	 * Levenshtein distance: the fewest insertions, deletions and substitutions that turn
	 * one string into the other.
	 */
	static int editDistance(String from, String to) {
		int[] previous = new int[to.length() + 1];
		int[] current = new int[to.length() + 1];
		for (int j = 0; j <= to.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= from.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= to.length(); j++) {
				int substitution = previous[j - 1] + ((from.charAt(i - 1) == to.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[to.length()];
	}

}
