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

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Measures how many handler calls one user change of a {@code StaticSite} makes, from the
 * change until the site is {@code Ready} again and its handler has been idle for a while
 * (a measurement, printed; it asserts only that the change was handled). The calls are
 * counted from the handler's debug lines, by trigger.
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = { Component.CONTROLLER_MANAGER, Component.SCHEDULER, Component.NODES })
@ExtendWith(OutputCaptureExtension.class)
class CallsPerChangeTests {

	private static final Duration QUIET = Duration.ofSeconds(5);

	@BeforeAll
	static void install(ControlPlane controlPlane) {
		Manifests manifests = new Manifests(controlPlane);
		manifests.apply(Path.of("target/classes/META-INF/kubeop/crds/staticsites.sample.kubeop.io.yaml"), null);
	}

	@Test
	void callsPerUserChange(ApiClient admin, TestNamespace namespace, CapturedOutput output) throws ApiException {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleOperatorApplication.class)
			.initializers((applicationContext) -> applicationContext.getBeanFactory()
				.registerSingleton("testConnection", admin))
			.run("--kubeop.informers.namespaces=" + namespace.name(), "--spring.main.banner-mode=off",
					"--server.port=0", "--logging.level.io.github.kubeop.handler.HandlerCallLog=debug")) {
			DynamicKubernetesApi sites = new DynamicKubernetesApi("sample.kubeop.io", "v1alpha1", "staticsites", admin);
			Manifests manifests = new Manifests(admin);
			manifests.apply(site(1), namespace.name());
			awaitReadyAndQuiet(sites, namespace, output, "1 of 1 replicas available");
			int before = output.getOut().length();
			manifests.apply(site(2), namespace.name());
			awaitReadyAndQuiet(sites, namespace, output, "2 of 2 replicas available");
			List<String> calls = calls(output.getOut().substring(before), namespace);
			Map<String, Long> byTrigger = calls.stream()
				.collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
			System.out.println("CALLS PER USER CHANGE: " + calls.size() + " " + byTrigger);
			assertThat(calls).contains("CHANGED");
			SteadyStateRequestsTests.deleteWhileTheOperatorRuns(sites, namespace, "shop");
		}
	}

	private static void awaitReadyAndQuiet(DynamicKubernetesApi sites, TestNamespace namespace, CapturedOutput output,
			String message) {
		await().atMost(Duration.ofSeconds(120)).until(() -> {
			JsonObject site = sites.get(namespace.name(), "shop").throwsApiException().getObject().getRaw();
			return site.has("status") && site.getAsJsonObject("status")
				.getAsJsonArray("conditions")
				.asList()
				.stream()
				.map(JsonElement::getAsJsonObject)
				.anyMatch((condition) -> condition.get("type").getAsString().equals("Ready")
						&& condition.get("status").getAsString().equals("True")
						&& condition.get("message").getAsString().equals(message));
		});
		// a measurement, not an assertion: the calls settle once nothing changed for a
		// while
		long[] last = { output.getOut().length(), System.nanoTime() };
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> {
			int length = output.getOut().length();
			if (length != last[0]) {
				last[0] = length;
				last[1] = System.nanoTime();
			}
			return System.nanoTime() - last[1] > QUIET.toNanos();
		});
	}

	private static List<String> calls(String out, TestNamespace namespace) {
		String prefix = "Handler call: handler=staticSiteReconciler key=" + namespace.name() + "/shop trigger=";
		return Arrays.stream(out.split("\n"))
			.filter((line) -> line.contains(prefix))
			.map((line) -> line.substring(line.indexOf(prefix) + prefix.length()).split(" ")[0])
			.toList();
	}

	private static String site(int replicas) {
		return """
				apiVersion: sample.kubeop.io/v1alpha1
				kind: StaticSite
				metadata:
				  name: shop
				spec:
				  replicas: %d
				  pages:
				    index.html: "<h1>calls</h1>"
				""".formatted(replicas);
	}

}
