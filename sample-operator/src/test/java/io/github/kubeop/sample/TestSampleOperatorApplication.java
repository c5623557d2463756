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

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Runs the sample operator for development: against a local control plane when no cluster
 * is configured, with the example greeting applied. With {@code --demo} it exits once the
 * reply is there; without it, it runs until Ctrl-C.
 *
 * @author Kubeop authors
 */
public class TestSampleOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.from(SampleOperatorApplication::main)
			.with(LocalControlPlaneConfiguration.class, ExampleGreeting.class)
			.run(args);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ExampleGreeting {

		private static final Log logger = LogFactory.getLog(ExampleGreeting.class);

		@Bean
		ApplicationRunner applyExampleGreeting(ApiClient client, ConfigurableApplicationContext context) {
			return (arguments) -> {
				CoreV1Api api = new CoreV1Api(client);
				createIgnoringConflict(
						() -> api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("kubeop-sample")))
							.execute());
				createIgnoringConflict(
						() -> api
							.createNamespacedConfigMap("kubeop-sample",
									new V1ConfigMap()
										.metadata(new V1ObjectMeta().name("hello")
											.labels(Map.of(GreetingReconciler.GREETING_LABEL, "true")))
										.data(Map.of("from", "the Kubeop sample")))
							.execute());
				logger.info("Applied example greeting kubeop-sample/hello");
				if (isDemo(arguments)) {
					awaitReply(api);
					System.exit(SpringApplication.exit(context));
				}
			};
		}

		private static boolean isDemo(ApplicationArguments arguments) {
			return arguments.containsOption("demo");
		}

		private static void awaitReply(CoreV1Api api) throws ApiException, InterruptedException {
			Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
			while (Instant.now().isBefore(deadline)) {
				try {
					V1ConfigMap reply = api.readNamespacedConfigMap("hello-reply", "kubeop-sample").execute();
					logger.info("Demo done: kubeop-sample/hello-reply says '" + reply.getData().get("reply") + "'");
					return;
				}
				catch (ApiException ex) {
					if (ex.getCode() != 404) {
						throw ex;
					}
				}
				Thread.sleep(200);
			}
			throw new IllegalStateException("The sample operator did not reply to kubeop-sample/hello within 30 s");
		}

		private static void createIgnoringConflict(Creation creation) throws ApiException {
			try {
				creation.create();
			}
			catch (ApiException ex) {
				if (ex.getCode() != 409) {
					throw ex;
				}
			}
		}

		@FunctionalInterface
		interface Creation {

			void create() throws ApiException;

		}

	}

}
