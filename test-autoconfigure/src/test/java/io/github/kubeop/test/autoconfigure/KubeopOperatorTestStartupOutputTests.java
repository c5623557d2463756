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

package io.github.kubeop.test.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a {@link KubeopOperatorTest} starts its operator on custom resources that
 * are already served: no informer of a just-created CustomResourceDefinition meets
 * {@code 429 storage is (re)initializing}. The output is captured from before the
 * application context starts until a sentinel resource has been handled.
 *
 * @author Kubeop authors
 */
@ExtendWith(OutputCaptureExtension.class)
@KubeopOperatorTest(manifests = "src/test/resources/beacons.yaml",
		properties = { "kubeop.informers.resources.beacons.api-version=startup.kubeop.test/v1",
				"kubeop.informers.resources.beacons.kind=Beacon" })
class KubeopOperatorTestStartupOutputTests {

	@Autowired
	private BeaconHandler handler;

	@Test
	void contextStartsWithoutTooManyRequests(ApiClient admin, TestNamespace namespace, CapturedOutput output) {
		new Manifests(admin).apply("""
				apiVersion: startup.kubeop.test/v1
				kind: Beacon
				metadata:
				  name: sentinel
				""", namespace.name());
		await().atMost(Duration.ofSeconds(30)).until(() -> this.handler.names.contains("sentinel"));
		assertThat(output.getAll().lines()).noneMatch((line) -> line.contains("(re)initializing")
				|| line.matches(".*\\b(HTTP|code|status|Status)\\b[ :=]*429\\b.*")
				|| line.contains("Too Many Requests"));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class BeaconOperator {

		@Bean
		BeaconHandler beaconHandler() {
			return new BeaconHandler();
		}

	}

	static class BeaconHandler {

		final List<String> names = new CopyOnWriteArrayList<>();

		@OnAdd(informer = "beacons")
		void added(DynamicKubernetesObject beacon) {
			this.names.add(beacon.getMetadata().getName());
		}

	}

}
