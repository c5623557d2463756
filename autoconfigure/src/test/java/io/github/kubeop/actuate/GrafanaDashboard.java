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

package io.github.kubeop.actuate;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The metric names a Grafana dashboard's PromQL queries name, by panel, and the check of
 * those names against the metric names of a Prometheus scrape.
 * <p>
 * Names are found with a small PromQL tokenizer rather than a full parser: it skips
 * strings, label matchers ({@code {...}}), ranges and subqueries ({@code [...]}), Grafana
 * variables ({@code $x}, {@code ${x}}), numbers and durations, keywords, the label lists
 * after {@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left} and
 * {@code group_right} ({@code le} included), every identifier followed by {@code (}
 * (functions and aggregations) and every one followed by {@code by} or {@code without}
 * (aggregations). What is left is a metric name.
 *
 * @author Kubeop authors
 */
final class GrafanaDashboard {

	/**
	 * The dashboard shipped with the docs, from the autoconfigure module's directory
	 * (where Maven runs its tests).
	 */
	static final Path SHIPPED = Path.of(System.getProperty("basedir", "."))
		.resolve("../docs/src/docs/asciidoc/grafana/kubeop-dashboard.json")
		.normalize();

	private static final Set<String> LABEL_LIST_KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
			"group_right");

	private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan", "atan2");

	private final Map<String, Set<String>> metricsByPanel;

	private GrafanaDashboard(Map<String, Set<String>> metricsByPanel) {
		this.metricsByPanel = metricsByPanel;
	}

	/**
	 * Reads a dashboard.
	 * @param path the dashboard's JSON file
	 * @return the dashboard
	 * @throws IOException if the file cannot be read
	 */
	static GrafanaDashboard read(Path path) throws IOException {
		try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
			return of(JsonParser.parseReader(reader).getAsJsonObject());
		}
	}

	/**
	 * Returns the metric names of a dashboard.
	 * @param dashboard the dashboard's JSON
	 * @return the dashboard
	 */
	static GrafanaDashboard of(JsonObject dashboard) {
		Map<String, Set<String>> metrics = new LinkedHashMap<>();
		if (dashboard.has("templating")) {
			for (JsonElement variable : dashboard.getAsJsonObject("templating").getAsJsonArray("list")) {
				JsonObject object = variable.getAsJsonObject();
				if ("query".equals(string(object, "type"))) {
					String query = object.get("query").isJsonObject() ? string(object.getAsJsonObject("query"), "query")
							: string(object, "query");
					metrics.put("variable $" + string(object, "name"), variableMetricNames(query));
				}
			}
		}
		addPanels(dashboard.getAsJsonArray("panels"), null, metrics);
		return new GrafanaDashboard(metrics);
	}

	private static void addPanels(JsonArray panels, String row, Map<String, Set<String>> metrics) {
		if (panels == null) {
			return;
		}
		String currentRow = row;
		for (JsonElement element : panels) {
			JsonObject panel = element.getAsJsonObject();
			String title = string(panel, "title");
			if ("row".equals(string(panel, "type"))) {
				// a collapsed row holds its panels; an open one is followed by them
				currentRow = title;
				addPanels(panel.getAsJsonArray("panels"), title, metrics);
				continue;
			}
			JsonArray targets = panel.getAsJsonArray("targets");
			if (targets == null) {
				// a text panel queries nothing
				continue;
			}
			Set<String> names = new LinkedHashSet<>();
			for (JsonElement target : targets) {
				String expr = string(target.getAsJsonObject(), "expr");
				if (expr != null) {
					names.addAll(metricNames(expr));
				}
			}
			String key = "panel '" + title + "'" + ((currentRow != null) ? " (row '" + currentRow + "')" : "");
			metrics.computeIfAbsent(key, (k) -> new LinkedHashSet<>()).addAll(names);
		}
	}

	/**
	 * Returns the metric names of each panel and query variable, by a description such as
	 * {@code panel 'Depth' (row 'Work queue')} or {@code variable $controller}.
	 * @return the metric names by panel
	 */
	Map<String, Set<String>> metricsByPanel() {
		return this.metricsByPanel;
	}

	/**
	 * Returns, for each panel or variable that names a metric missing from the exported
	 * ones or names none, a line that says which.
	 * @param exported the exported metric names, as PromQL sees them
	 * @return the problems, empty when every panel names exported metrics only
	 */
	List<String> problems(Set<String> exported) {
		List<String> problems = new ArrayList<>();
		this.metricsByPanel.forEach((panel, names) -> {
			if (names.isEmpty()) {
				problems.add(panel + " names no metric");
			}
			for (String name : names) {
				if (!exported.contains(name)) {
					problems.add(panel + " names '" + name + "', which is not exported");
				}
			}
		});
		return problems;
	}

	/**
	 * Returns the metric names of the samples of a Prometheus text scrape (with the
	 * {@code _total}, {@code _bucket}, {@code _count}, {@code _sum} suffixes the samples
	 * carry, and Micrometer's {@code _max} gauges).
	 * @param scrape the scrape
	 * @return the metric names
	 */
	static Set<String> exportedMetricNames(String scrape) {
		Set<String> names = new LinkedHashSet<>();
		for (String line : scrape.split("\n")) {
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			int end = 0;
			while (end < line.length() && isIdentifierPart(line.charAt(end))) {
				end++;
			}
			names.add(line.substring(0, end));
		}
		return names;
	}

	private static Set<String> variableMetricNames(String query) {
		String trimmed = (query != null) ? query.trim() : "";
		if (trimmed.startsWith("label_values(") && trimmed.endsWith(")")) {
			// label_values(selector, label) or label_values(label): the label is no
			// metric
			String arguments = trimmed.substring("label_values(".length(), trimmed.length() - 1);
			int comma = arguments.lastIndexOf(',');
			return (comma >= 0) ? metricNames(arguments.substring(0, comma)) : new LinkedHashSet<>();
		}
		if (trimmed.startsWith("query_result(") && trimmed.endsWith(")")) {
			return metricNames(trimmed.substring("query_result(".length(), trimmed.length() - 1));
		}
		return metricNames(trimmed);
	}

	/**
	 * Returns the metric names a PromQL expression names.
	 * @param expr the expression (Grafana variables allowed)
	 * @return the metric names, in order of appearance
	 */
	static Set<String> metricNames(String expr) {
		Set<String> names = new LinkedHashSet<>();
		int length = expr.length();
		int i = 0;
		while (i < length) {
			char c = expr.charAt(i);
			if (c == '"' || c == '\'' || c == '`') {
				i = skipString(expr, i);
			}
			else if (c == '{') {
				i = skipGroup(expr, i, '{', '}');
			}
			else if (c == '[') {
				i = skipGroup(expr, i, '[', ']');
			}
			else if (c == '$') {
				i = skipVariable(expr, i + 1);
			}
			else if (Character.isDigit(c) || (c == '.' && i + 1 < length && Character.isDigit(expr.charAt(i + 1)))) {
				i = skipNumber(expr, i);
			}
			else if (isIdentifierStart(c)) {
				int start = i;
				while (i < length && isIdentifierPart(expr.charAt(i))) {
					i++;
				}
				String word = expr.substring(start, i);
				int next = skipSpaces(expr, i);
				String keyword = word.toLowerCase(Locale.ROOT);
				if (LABEL_LIST_KEYWORDS.contains(keyword)) {
					// group_left may come without a list
					if (next < length && expr.charAt(next) == '(') {
						i = skipGroup(expr, next, '(', ')');
					}
				}
				else if (!KEYWORDS.contains(keyword) && (next >= length || expr.charAt(next) != '(')
						&& !startsLabelList(expr, next)) {
					names.add(word);
				}
			}
			else {
				i++;
			}
		}
		return names;
	}

	/**
	 * Whether {@code by} or {@code without} starts at the index: what precedes it is an
	 * aggregation ({@code sum by (x) (...)}), not a metric.
	 */
	private static boolean startsLabelList(String expr, int start) {
		int end = start;
		while (end < expr.length() && isIdentifierPart(expr.charAt(end))) {
			end++;
		}
		String word = expr.substring(start, end).toLowerCase(Locale.ROOT);
		return word.equals("by") || word.equals("without");
	}

	private static int skipString(String expr, int start) {
		char quote = expr.charAt(start);
		int i = start + 1;
		while (i < expr.length() && expr.charAt(i) != quote) {
			i += (expr.charAt(i) == '\\' && quote != '`') ? 2 : 1;
		}
		return i + 1;
	}

	private static int skipGroup(String expr, int start, char open, char close) {
		int depth = 0;
		int i = start;
		while (i < expr.length()) {
			char c = expr.charAt(i);
			if (c == '"' || c == '\'' || c == '`') {
				i = skipString(expr, i);
				continue;
			}
			if (c == open) {
				depth++;
			}
			else if (c == close && --depth == 0) {
				return i + 1;
			}
			i++;
		}
		return i;
	}

	private static int skipVariable(String expr, int start) {
		if (start < expr.length() && expr.charAt(start) == '{') {
			return skipGroup(expr, start, '{', '}');
		}
		int i = start;
		while (i < expr.length() && isIdentifierPart(expr.charAt(i))) {
			i++;
		}
		return i;
	}

	private static int skipNumber(String expr, int start) {
		int i = start;
		while (i < expr.length()) {
			char c = expr.charAt(i);
			boolean exponentSign = (c == '+' || c == '-') && i > start
					&& (expr.charAt(i - 1) == 'e' || expr.charAt(i - 1) == 'E') && !expr.startsWith("0x", start);
			if (!Character.isLetterOrDigit(c) && c != '.' && c != '_' && !exponentSign) {
				break;
			}
			i++;
		}
		return i;
	}

	private static int skipSpaces(String expr, int start) {
		int i = start;
		while (i < expr.length() && Character.isWhitespace(expr.charAt(i))) {
			i++;
		}
		return i;
	}

	private static boolean isIdentifierStart(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
	}

	private static boolean isIdentifierPart(char c) {
		return isIdentifierStart(c) || (c >= '0' && c <= '9');
	}

	private static String string(JsonObject object, String member) {
		JsonElement element = object.get(member);
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : null;
	}

}
