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

package io.github.kubeop.handler;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import com.google.gson.JsonParser;
import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.typed.Gizmo;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a user reads with {@code logging.level.io.github.kubeop=DEBUG}, against a real API
 * server: one line per handler call (handler, key, trigger, attempt, outcome, duration),
 * one per requeue with its reason, one per finalizer added or removed, one per write
 * (verb, resource, object, status code) and never a Secret's data; at INFO none of them.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class HandlerCallLogIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String FINALIZER = "logs.kubeop.test/cleanup";

	private static final String SECRET_VALUE = "hunter2-must-never-be-logged";

	private static final Pattern PER_CALL_LINE = Pattern
		.compile("Handler call:|Handler requeue:|Finalizer added:|Finalizer removed:|Write:|Read:");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@BeforeAll
	static void installDefinitions(ApiClient client) throws Exception {
		new Manifests(client).apply(
				new ClassPathResource("io/github/kubeop/typed/crds.yaml").getContentAsString(StandardCharsets.UTF_8),
				null);
	}

	@Test
	void debugLogsEveryCallRequeueFinalizerChangeAndWrite(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client, CapturedOutput output) {
		DynamicKubernetesApi gizmos = new DynamicKubernetesApi("typed.kubeop.test", "v1", "gizmos", client);
		Gizmos handler = new Gizmos();
		String key = namespace.name() + "/site";
		// the context runner does not apply logging.level.* (SpringApplication's
		// logging listener does): the level is set as that property sets it
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		LogLevel before = logging.getLoggerConfiguration("io.github.kubeop").getConfiguredLevel();
		logging.setLogLevel("io.github.kubeop", LogLevel.DEBUG);
		try {
			run(controlPlane, namespace, handler, () -> {
				create(gizmos, namespace, "site");
				await().atMost(TIMEOUT).until(() -> handler.calls("site").size() >= 2);
				assertThat(gizmos.delete(namespace.name(), "site").isSuccess()).isTrue();
				await().atMost(TIMEOUT).until(() -> gizmos.get(namespace.name(), "site").getHttpStatusCode() == 404);
				List<String> calls = handler.calls("site");
				assertThat(calls).startsWith("reconcile ADDED 1", "reconcile REQUEUE 2").endsWith("cleanup DELETING 1");
				String handlerName = handler.name;
				// each line is written once its call returned: waited for, not slept on
				await().atMost(TIMEOUT).untilAsserted(() -> {
					List<String> lines = linesOf(output, key);
					List<String> callLines = lines.stream().filter((line) -> line.contains("Handler call:")).toList();
					assertThat(callLines).as("one line per call").hasSameSizeAs(calls);
					for (int i = 0; i < calls.size(); i++) {
						String[] call = calls.get(i).split(" ");
						String outcome = (i == 0) ? "requeue" : "success";
						assertThat(callLines.get(i)).contains("DEBUG")
							.containsPattern("Handler call: handler=" + Pattern.quote(handlerName) + " key="
									+ Pattern.quote(key) + " trigger=" + call[1] + " attempt=" + call[2] + " outcome="
									+ outcome + " duration=\\d+\\.\\dms$");
					}
					assertThat(lines).filteredOn((line) -> line.contains("Handler requeue:"))
						.anySatisfy((line) -> assertThat(line).endsWith("Handler requeue: handler=" + handlerName
								+ " key=" + key + " after=back-off reason=the handler asked to be called again"));
					assertThat(lines).filteredOn((line) -> line.contains("Finalizer added:"))
						.singleElement()
						.satisfies((line) -> assertThat(line).endsWith(
								"Finalizer added: handler=" + handlerName + " key=" + key + " finalizer=" + FINALIZER));
					assertThat(lines).filteredOn((line) -> line.contains("Finalizer removed:"))
						.singleElement()
						.satisfies((line) -> assertThat(line).endsWith("Finalizer removed: handler=" + handlerName
								+ " key=" + key + " finalizer=" + FINALIZER));
					// the finalizer's own writes: its add and its remove
					assertThat(lines)
						.filteredOn((line) -> line.contains(
								"Write: verb=patch resource=gizmos.typed.kubeop.test object=" + key + " code=200"))
						.hasSize(2);
					// one line per write the handler made: each reconcile applied both,
					// sent or
					// found unchanged
					long reconciles = calls.stream().filter((call) -> call.startsWith("reconcile")).count();
					assertThat(lines)
						.filteredOn((line) -> line
							.matches(".*Write: verb=apply resource=configmaps object=" + Pattern.quote(key)
									+ "-owned code=(20[01]|none \\(unchanged, not sent\\)) handler=.*"))
						.hasSize((int) reconciles);
					assertThat(lines)
						.filteredOn((line) -> line
							.matches(".*Write: verb=apply resource=secrets object=" + Pattern.quote(key)
									+ "-secret code=(20[01]|none \\(unchanged, not sent\\)) handler=.*"))
						.hasSize((int) reconciles);
				});
				assertThat(output.toString()).doesNotContain(SECRET_VALUE)
					.doesNotContain(Base64.getEncoder().encodeToString(SECRET_VALUE.getBytes(StandardCharsets.UTF_8)));
			});
		}
		finally {
			logging.setLogLevel("io.github.kubeop", before);
		}
	}

	@Test
	void infoLogsNothingPerCall(ControlPlane controlPlane, TestNamespace namespace, ApiClient client,
			CapturedOutput output) {
		DynamicKubernetesApi gizmos = new DynamicKubernetesApi("typed.kubeop.test", "v1", "gizmos", client);
		Gizmos handler = new Gizmos();
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		LogLevel before = logging.getLoggerConfiguration("io.github.kubeop").getConfiguredLevel();
		logging.setLogLevel("io.github.kubeop", LogLevel.INFO);
		try {
			run(controlPlane, namespace, handler, () -> {
				create(gizmos, namespace, "quiet");
				await().atMost(TIMEOUT).until(() -> handler.calls("quiet").size() >= 2);
				assertThat(gizmos.delete(namespace.name(), "quiet").isSuccess()).isTrue();
				await().atMost(TIMEOUT).until(() -> gizmos.get(namespace.name(), "quiet").getHttpStatusCode() == 404);
				assertThat(handler.calls("quiet")).startsWith("reconcile ADDED 1", "reconcile REQUEUE 2")
					.endsWith("cleanup DELETING 1");
				// the sentinel: with one worker, its call starts only after every call of
				// the first object has returned and logged whatever it logs
				create(gizmos, namespace, "sentinel");
				await().atMost(TIMEOUT).until(() -> !handler.calls("sentinel").isEmpty());
				assertThat(output.toString().lines().filter((line) -> PER_CALL_LINE.matcher(line).find()))
					.as("lines per call at INFO")
					.isEmpty();
				// no object of this test outlives it holding the finalizer
				assertThat(gizmos.delete(namespace.name(), "sentinel").isSuccess()).isTrue();
				await().atMost(TIMEOUT)
					.until(() -> gizmos.get(namespace.name(), "sentinel").getHttpStatusCode() == 404);
			});
		}
		finally {
			logging.setLogLevel("io.github.kubeop", before);
		}
	}

	private void run(ControlPlane controlPlane, TestNamespace namespace, Gizmos handler, ThrowingRunnable test) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.handlers.workers=1")
			.withBean(Gizmos.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				handler.template = context.getBean(KubernetesTemplate.class);
				test.run();
			});
	}

	private static void create(DynamicKubernetesApi gizmos, TestNamespace namespace, String name) {
		DynamicKubernetesObject gizmo = new DynamicKubernetesObject(JsonParser
			.parseString("{\"apiVersion\":\"typed.kubeop.test/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"" + name
					+ "\",\"namespace\":\"" + namespace.name() + "\"},\"spec\":{\"size\":3}}")
			.getAsJsonObject());
		assertThat(gizmos.create(gizmo).isSuccess()).isTrue();
	}

	private static List<String> linesOf(CapturedOutput output, String key) {
		return output.toString()
			.lines()
			.filter((line) -> line.contains("key=" + key + " ") || line.endsWith(key))
			.toList();
	}

	@FunctionalInterface
	interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * Applies an owned ConfigMap and Secret, and asks once per object to be called again.
	 */
	static class Gizmos {

		final Map<String, List<String>> calls = new ConcurrentHashMap<>();

		private final Set<String> requeued = ConcurrentHashMap.newKeySet();

		volatile KubernetesTemplate template;

		volatile String name;

		@Reconcile
		Result reconcile(Gizmo gizmo, HandlerContext context) throws ApiException {
			record("reconcile", gizmo, context);
			V1ObjectMeta metadata = gizmo.getMetadata();
			this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name(metadata.getName() + "-owned").namespace(metadata.getNamespace()))
				.data(Map.of("size", Integer.toString(gizmo.getSpec().size()))));
			this.template.apply(new V1Secret()
				.metadata(new V1ObjectMeta().name(metadata.getName() + "-secret").namespace(metadata.getNamespace()))
				.data(Map.of("password", SECRET_VALUE.getBytes(StandardCharsets.UTF_8))));
			return this.requeued.add(metadata.getName()) ? Result.requeueAfter(Duration.ZERO) : Result.done();
		}

		@Cleanup(finalizer = FINALIZER)
		void cleanUp(Gizmo gizmo, HandlerContext context) {
			record("cleanup", gizmo, context);
		}

		List<String> calls(String name) {
			return List.copyOf(this.calls.getOrDefault(name, List.of()));
		}

		private void record(String method, Gizmo gizmo, HandlerContext context) {
			this.name = context.handler();
			this.calls.computeIfAbsent(gizmo.getMetadata().getName(), (name) -> new CopyOnWriteArrayList<>())
				.add(method + " " + context.trigger() + " " + context.attempt());
		}

	}

}
