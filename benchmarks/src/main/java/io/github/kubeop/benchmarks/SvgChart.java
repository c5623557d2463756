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

package io.github.kubeop.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A grouped horizontal bar chart rendered as SVG: one group per label (for example an
 * object count), one bar per contender, with the value printed beside each bar.
 *
 * @author Kubeop authors
 */
final class SvgChart {

	private static final String[] COLORS = { "#2e7d32", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457" };

	private static final int WIDTH = 760;

	private static final int LABEL_WIDTH = 190;

	private static final int BAR_HEIGHT = 16;

	private final String title;

	private final String unit;

	private final Map<String, Map<String, Double>> groups = new LinkedHashMap<>();

	private final List<String> series = new ArrayList<>();

	SvgChart(String title, String unit) {
		this.title = title;
		this.unit = unit;
	}

	/**
	 * Adds one bar.
	 * @param group the group label
	 * @param series the contender
	 * @param value the value, drawn from zero
	 * @return this chart
	 */
	SvgChart bar(String group, String series, double value) {
		this.groups.computeIfAbsent(group, (key) -> new LinkedHashMap<>()).put(series, value);
		if (!this.series.contains(series)) {
			this.series.add(series);
		}
		return this;
	}

	boolean isEmpty() {
		return this.groups.isEmpty();
	}

	String render() {
		double max = this.groups.values()
			.stream()
			.flatMap((bars) -> bars.values().stream())
			.mapToDouble(Double::doubleValue)
			.max()
			.orElse(1);
		int plotWidth = WIDTH - LABEL_WIDTH - 110;
		int y = 48;
		StringBuilder bars = new StringBuilder();
		for (Map.Entry<String, Map<String, Double>> group : this.groups.entrySet()) {
			bars.append(text(10, y + 12, group.getKey(), "bold"));
			y += 20;
			for (Map.Entry<String, Double> bar : group.getValue().entrySet()) {
				int width = (int) Math.round(plotWidth * bar.getValue() / max);
				String color = COLORS[this.series.indexOf(bar.getKey()) % COLORS.length];
				bars.append(text(20, y + 12, bar.getKey(), "normal"));
				bars.append(
						String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
								LABEL_WIDTH, y, Math.max(1, width), BAR_HEIGHT, color));
				bars.append(text(LABEL_WIDTH + Math.max(1, width) + 6, y + 12, format(bar.getValue()), "normal"));
				y += BAR_HEIGHT + 4;
			}
			y += 8;
		}
		return String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
						+ "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n%s%s%s</svg>%n",
				WIDTH, y + 10, WIDTH, y + 10, text(10, 20, this.title, "bold"), text(10, 38, this.unit, "normal"),
				bars);
	}

	static String format(double value) {
		if (value >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return String.format(Locale.ROOT, (value >= 10) ? "%.1f" : "%.2f", value);
	}

	private static String text(int x, int y, String content, String weight) {
		String escaped = content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
		return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"%s\">%s</text>%n", x, y, weight,
				escaped);
	}

}
