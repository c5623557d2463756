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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopProperties;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The per-call timeout against a real API server: a call past it is interrupted, counts
 * as failed (also when it swallows the interrupt and returns), and is retried with
 * back-off; a negative timeout fails startup naming the property.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class CallTimeoutIntegrationTests {

	private static final Duration BOUND = Duration.ofSeconds(60);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void callPastItsTimeoutIsInterruptedAndRetriedWithBackOff(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Sleeper sleeper = new Sleeper();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.handlers.controllers.sleeper.call-timeout=2s")
			.withBean("sleeper", Sleeper.class, () -> sleeper)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("nap").labels(Map.of("role", "sleeper"))))
					.execute();
				// the first call would sleep past the bound without the timeout
				await().atMost(BOUND).until(() -> sleeper.calls.size() == 2);
				assertThat(sleeper.calls).containsExactly("attempt 1 interrupted", "attempt 2 done");
				await().atMost(BOUND).until(() -> output.getOut().contains("ran past its timeout of PT2S"));
			});
	}

	@Test
	void defaultCallTimeoutIsFiveMinutes() {
		assertThat(new KubeopProperties().getHandlers().getCallTimeout()).isEqualTo(Duration.ofMinutes(5));
		assertThat(CallTimeout.DEFAULT).isEqualTo(Duration.ofMinutes(5));
	}

	@Test
	void negativeCallTimeoutFailsStartupNamingTheProperty(ControlPlane controlPlane) {
		for (String property : List.of("kubeop.handlers.call-timeout",
				"kubeop.handlers.controllers.sleeper.call-timeout")) {
			this.runner.withBean(ApiClient.class, controlPlane::apiClient)
				.withPropertyValues(property + "=-1s")
				.withBean("sleeper", Sleeper.class, Sleeper::new)
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(InvalidConfigurationPropertyValueException.class)
						.hasMessageContaining("Property " + property + " with value 'PT-1S' is invalid")
						.hasMessageContaining("must not be negative");
				});
		}
	}

	/**
	 * Sleeps far past its timeout in its first call, swallowing the interrupt.
	 */
	static class Sleeper {

		final List<String> calls = new CopyOnWriteArrayList<>();

		@Reconcile(labelSelector = "role=sleeper")
		void reconcile(V1ConfigMap object, HandlerContext context) {
			if (context.attempt() > 1) {
				this.calls.add("attempt " + context.attempt() + " done");
				return;
			}
			try {
				Thread.sleep(BOUND.toMillis() * 2);
				this.calls.add("attempt 1 slept");
			}
			catch (InterruptedException ex) {
				// swallowed: the call still counts as failed
				this.calls.add("attempt 1 interrupted");
			}
		}

	}

}
