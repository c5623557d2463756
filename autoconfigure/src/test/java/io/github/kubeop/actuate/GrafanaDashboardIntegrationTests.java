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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.References;
import io.github.kubeop.handler.ReferenceMapper;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Checks the Grafana dashboard shipped with the docs against the metric names a real
 * application exports on {@code /actuator/prometheus}: every metric a panel or variable
 * names is exported, and every Kubeop meter has a panel. Leader election and sharding
 * exclude each other, so two applications are scraped, one with each.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class GrafanaDashboardIntegrationTests {

	/**
	 * The metric families Kubeop exports (Spring Boot's and the JVM's are not its own).
	 */
	private static final Pattern KUBEOP_FAMILY = Pattern
		.compile("^(workqueue|controller_runtime|leader_election|kubeop)_.*");

	private static final Pattern SUFFIX = Pattern.compile("_(bucket|count|sum|max|total)$");

	private static final HttpClient http = HttpClient.newHttpClient();

	private static final Set<String> exported = new TreeSet<>();

	@BeforeAll
	static void scrapeApplications(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		exported.addAll(scrape(controlPlane, namespace, "leader_election_master_status",
				"--kubeop.leader-election.enabled=true",
				"--kubeop.leader-election.lease-namespace=" + namespace.name()));
		exported.addAll(scrape(controlPlane, namespace, "kubeop_sharding_keys", "--kubeop.sharding.enabled=true",
				"--kubeop.sharding.name=dashboard", "--kubeop.sharding.lease-namespace=" + namespace.name(),
				"--kubeop.sharding.identity=replica-1"));
	}

	@Test
	void everyPanelNamesOnlyExportedMetrics() throws Exception {
		assertThat(GrafanaDashboard.SHIPPED).as("the dashboard shipped with the docs").exists();
		GrafanaDashboard dashboard = GrafanaDashboard.read(GrafanaDashboard.SHIPPED);
		Set<String> kubeop = new TreeSet<>(exported);
		kubeop.removeIf((name) -> !KUBEOP_FAMILY.matcher(name).matches());
		assertThat(dashboard.problems(exported))
			.as("panels of %s checked against the exported metrics (Kubeop's: %s)", GrafanaDashboard.SHIPPED, kubeop)
			.isEmpty();
	}

	@Test
	void everyKubeopMeterHasAPanel() throws Exception {
		assertThat(GrafanaDashboard.SHIPPED).as("the dashboard shipped with the docs").exists();
		Set<String> shown = new TreeSet<>();
		GrafanaDashboard.read(GrafanaDashboard.SHIPPED)
			.metricsByPanel()
			.values()
			.forEach((names) -> names.forEach((name) -> shown.add(family(name))));
		Set<String> kubeop = new TreeSet<>();
		for (String name : exported) {
			if (KUBEOP_FAMILY.matcher(name).matches()) {
				kubeop.add(family(name));
			}
		}
		assertThat(kubeop).as("Kubeop's exported metric families").isNotEmpty();
		assertThat(shown).as("metric families the dashboard shows").containsAll(kubeop);
	}

	private static String family(String name) {
		return SUFFIX.matcher(name).replaceFirst("");
	}

	/**
	 * Starts an application with a handler and the given properties, scrapes it once the
	 * meter that only the properties bring is exported, and stops it.
	 */
	private static Set<String> scrape(ControlPlane controlPlane, TestNamespace namespace, String expectedMetric,
			String... properties) throws Exception {
		List<String> arguments = new ArrayList<>(
				List.of("--server.port=0", "--management.endpoints.web.exposure.include=prometheus",
						"--kubeop.informers.namespaces=" + namespace.name()));
		arguments.addAll(List.of(properties));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(DashboardApplication.class)
			.bannerMode(Banner.Mode.OFF)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("apiClient", controlPlane.apiClient()))
			.run(arguments.toArray(String[]::new))) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			URI prometheus = URI.create("http://127.0.0.1:" + port + "/actuator/prometheus");
			String[] body = new String[1];
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				HttpResponse<String> response = http.send(HttpRequest.newBuilder(prometheus).build(),
						HttpResponse.BodyHandlers.ofString());
				body[0] = response.body();
				return response.statusCode() == 200
						&& GrafanaDashboard.exportedMetricNames(body[0]).contains(expectedMetric);
			});
			return GrafanaDashboard.exportedMetricNames(body[0]);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class DashboardApplication {

		@Bean
		Handler handler() {
			return new Handler();
		}

		@Bean
		ReferenceMapper<V1Secret> noPrimaries() {
			return (secret) -> List.of();
		}

	}

	// a mapper, whose failures are metered
	@References(value = V1Secret.class, mapper = "noPrimaries")
	static class Handler {

		@OnAdd
		void added(V1ConfigMap configMap) {
		}

	}

}
