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

import java.util.Set;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link GrafanaDashboard}: which identifiers of a PromQL query are metric
 * names, and what the check says about a panel that names a metric not exported.
 *
 * @author Kubeop authors
 */
class GrafanaDashboardTests {

	@Test
	void histogramQuantileNamesOnlyTheBucketSeries() {
		assertThat(GrafanaDashboard.metricNames(
				"histogram_quantile(0.99, sum by (controller, le) (rate(controller_runtime_reconcile_time_seconds_bucket"
						+ "{job=~\"$job\", controller=~\"$controller\"}[$__rate_interval])))"))
			.containsExactly("controller_runtime_reconcile_time_seconds_bucket");
	}

	@Test
	void labelListsKeywordsNumbersAndVariablesAreNoMetricNames() {
		assertThat(GrafanaDashboard.metricNames("sum(rate(a_total{x=\"le by rate\"}[5m] offset 1h)) without (le, name)"
				+ " / on (controller) group_left b_seconds * 1e-9 > bool 0.5 and c unless d or ${var} + $__range_s"
				+ " + e[1h:5m] @ end() ignoring(le) f"))
			.containsExactly("a_total", "b_seconds", "c", "d", "e", "f");
	}

	@Test
	void groupLeftWithoutALabelListKeepsTheFunctionThatFollows() {
		assertThat(GrafanaDashboard.metricNames("a * on (x) group_left sum(b) by (y)")).containsExactly("a", "b");
	}

	@Test
	void recordingRuleNamesWithColonsAreMetricNames() {
		assertThat(GrafanaDashboard.metricNames("job:workqueue_depth:sum{name=\"q\"}"))
			.containsExactly("job:workqueue_depth:sum");
	}

	@Test
	void exportedNamesAreTheSampleNamesOfTheScrape() {
		String scrape = """
				# HELP workqueue_adds_total Adds handled by the work queue
				# TYPE workqueue_adds_total counter
				workqueue_adds_total{controller="h",name="h"} 3.0
				# TYPE t_seconds histogram
				t_seconds_bucket{le="+Inf"} 1
				t_seconds_count 1
				t_seconds_sum 0.2
				t_seconds_max 0.2
				""";
		assertThat(GrafanaDashboard.exportedMetricNames(scrape)).containsExactly("workqueue_adds_total",
				"t_seconds_bucket", "t_seconds_count", "t_seconds_sum", "t_seconds_max");
	}

	@Test
	void aPanelThatNamesAMetricNotExportedIsNamedWithTheMetric() {
		JsonObject dashboard = JsonParser.parseString("""
				{"templating": {"list": [
				  {"name": "controller", "type": "query",
				   "query": {"query": "label_values(workqueue_adds_total, controller)"}}]},
				 "panels": [
				  {"type": "row", "title": "Queue", "panels": []},
				  {"type": "timeseries", "title": "Adds", "targets": [{"expr": "rate(workqueue_adds_total[5m])"}]},
				  {"type": "timeseries", "title": "Depth", "targets": [{"expr": "sum(workqueue_dpeth)"}]},
				  {"type": "text", "title": "Read me"},
				  {"type": "row", "title": "Collapsed", "collapsed": true, "panels": [
				    {"type": "stat", "title": "Nothing", "targets": [{"expr": "vector(1)"}]}]}]}
				""").getAsJsonObject();
		GrafanaDashboard checked = GrafanaDashboard.of(dashboard);
		assertThat(checked.metricsByPanel()).containsKeys("variable $controller", "panel 'Adds' (row 'Queue')",
				"panel 'Depth' (row 'Queue')", "panel 'Nothing' (row 'Collapsed')");
		assertThat(checked.problems(Set.of("workqueue_adds_total"))).containsExactly(
				"panel 'Depth' (row 'Queue') names 'workqueue_dpeth', which is not exported",
				"panel 'Nothing' (row 'Collapsed') names no metric");
	}

}
