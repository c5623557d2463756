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

package io.github.kubeop.sample;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import io.github.kubeop.write.Conditions;
import io.github.kubeop.test.Manifests;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.util.ClientBuilder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Runs the sample operator for development: against a local control plane when no cluster
 * is configured, with its CustomResourceDefinition installed and the example site
 * applied. With {@code --demo} it exits once the site is Ready; without it, it runs until
 * Ctrl-C.
 *
 * @author Kubeop authors
 */
public class TestSampleOperatorApplication {

	private static final Log logger = LogFactory.getLog(TestSampleOperatorApplication.class);

	public static void main(String[] args) throws IOException {
		// a free port, so that the demo never collides with whatever listens on 8080
		System.setProperty("server.port", System.getProperty("server.port", "0"));
		ApiClient client = LocalControlPlaneConfiguration.clusterConfigured() ? ClientBuilder.standard().build()
				: LocalControlPlaneConfiguration.sharedControlPlane().apiClient();
		Manifests manifests = new Manifests(client);
		manifests.apply("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kubeop-sample\n", null);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/crds/staticsites.sample.kubeop.io.yaml"), null);
		logger.info("Installed CustomResourceDefinition staticsites.sample.kubeop.io");
		SpringApplication.from(SampleOperatorApplication::main)
			.with(LocalControlPlaneConfiguration.class, ExampleSite.class)
			.run(args);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ExampleSite {

		private static final Log logger = LogFactory.getLog(ExampleSite.class);

		@Bean
		ApplicationRunner applyExampleSite(ApiClient client, ConfigurableApplicationContext context,
				Lister<StaticSite> staticSitesLister) {
			return (arguments) -> {
				new Manifests(client).apply(Path.of("deploy/example.yaml"), "kubeop-sample");
				logger.info("Applied the example site kubeop-sample/hello (deploy/example.yaml)");
				if (isDemo(arguments)) {
					String message = awaitReady(staticSitesLister);
					HealthIndicator health = context.getBean("informersHealthIndicator", HealthIndicator.class);
					logger.info("Demo done: site kubeop-sample/hello is Ready (" + message + "); informers health is "
							+ health.health(false).getStatus());
					System.exit(SpringApplication.exit(context));
				}
			};
		}

		private static boolean isDemo(ApplicationArguments arguments) {
			return arguments.containsOption("demo");
		}

		/**
		 * Waits until the site's {@code Ready} condition is {@code True}, which the
		 * operator reports once the site's Deployment has its replicas available, and
		 * returns the condition's message.
		 */
		private static String awaitReady(Lister<StaticSite> sites) throws InterruptedException {
			Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
			String last = "no status yet";
			while (Instant.now().isBefore(deadline)) {
				StaticSite site = sites.namespace("kubeop-sample").get("hello");
				V1Condition ready = (site != null && site.getStatus() != null)
						? Conditions.find(site.getStatus().conditions(), "Ready").orElse(null) : null;
				if (ready != null) {
					if ("True".equals(ready.getStatus())) {
						return ready.getMessage();
					}
					last = ready.getReason() + ": " + ready.getMessage();
				}
				Thread.sleep(200);
			}
			throw new IllegalStateException("The example site did not become Ready within 120 s (" + last + ")");
		}

	}

}
