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

package io.github.kubeop.autoconfigure;

import java.time.Duration;

import io.github.kubeop.informer.InformerStartupException;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that wrong informer configuration fails startup with a message naming the
 * property and the fix, against a real API server that decides what is wrong.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class InformerConfigurationFailureTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class));

	@Test
	void unknownKindNamesTheKindPropertyAndWhatTheGroupServes(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.things.api-version=v1",
					"kubeop.informers.resources.things.kind=ConfigMapp")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.resources.things.kind");
				assertThat(failure.getValue()).isEqualTo("ConfigMapp");
				assertThat(failure.getReason()).contains("no kind or resource named 'ConfigMapp'")
					.contains("ConfigMap, ");
			});
	}

	@Test
	void unknownEncodingNamesTheProperty(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.things.api-version=v1",
					"kubeop.informers.resources.things.kind=ConfigMap",
					"kubeop.informers.resources.things.encoding=protobuff")
			.run((context) -> {
				assertThat(context).hasFailed();
				org.springframework.boot.context.properties.bind.BindException failure = rootCause(
						context.getStartupFailure(),
						org.springframework.boot.context.properties.bind.BindException.class);
				assertThat(failure.getName().toString()).isEqualTo("kubeop.informers.resources.things.encoding");
			});
	}

	@Test
	void stallTimeoutBelowTheBookmarkIntervalNamesTheProperty(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.stall-timeout=10s",
					"kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.stall-timeout");
				assertThat(failure.getReason()).contains("bookmark only every minute")
					.contains("at least 90s")
					.contains("kubeop.informers.ping-interval");
			});
	}

	@Test
	void stallTimeoutOfZeroLeavesDeadConnectionsToPings(ControlPlane controlPlane, TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.stall-timeout=0", "kubeop.informers.ping-interval=5s",
					"kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ResourceInformer<?> informer = context.getBean("settingsInformer", ResourceInformer.class);
				assertThat(informer.spec().stallTimeout()).isZero();
				assertThat(informer.spec().pingInterval()).isEqualTo(Duration.ofSeconds(5));
			});
	}

	@Test
	void apiVersionTheServerDoesNotServeNamesTheApiVersionProperty(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.gadgets.api-version=gadgets.example.com/v1",
					"kubeop.informers.resources.gadgets.kind=Gadget")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.resources.gadgets.api-version");
				assertThat(failure.getReason()).contains(
						"does not serve API version gadgets.example.com/v1 (is its CustomResourceDefinition installed?)");
			});
	}

	@Test
	void malformedLabelSelectorIsRejectedByTheServerAndNamesTheSelectorProperties(ControlPlane controlPlane,
			TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod",
					"kubeop.informers.resources.pods.namespaces=" + namespace.name(),
					"kubeop.informers.resources.pods.label-selector=app in web")
			.run((context) -> {
				InformerStartupException failure = rootCause(context.getStartupFailure(),
						InformerStartupException.class);
				assertThat(failure.getInformerName()).isEqualTo("pods");
				assertThat(failure.getReason()).startsWith("400").contains("unable to parse requirement");
				FailureAnalysis analysis = new InformerStartupFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).contains("kubeop.informers.resources.pods.label-selector");
			});
	}

	@Test
	void unsupportedFieldSelectorIsRejectedByTheServer(ControlPlane controlPlane, TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.settings.api-version=v1",
					"kubeop.informers.resources.settings.kind=ConfigMap",
					"kubeop.informers.resources.settings.namespaces=" + namespace.name(),
					"kubeop.informers.resources.settings.field-selector=data.color=teal")
			.run((context) -> {
				InformerStartupException failure = rootCause(context.getStartupFailure(),
						InformerStartupException.class);
				assertThat(failure.getReason()).startsWith("400").contains("is not a known field selector");
			});
	}

	@Test
	void missingListPermissionFailsStartupWithTheForbiddenReasonAndTheRbacFix(ControlPlane controlPlane,
			TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, () -> controlPlane.apiClientFor("operator-without-rights"))
			.withPropertyValues("kubeop.informers.resources.secrets.api-version=v1",
					"kubeop.informers.resources.secrets.kind=Secret",
					"kubeop.informers.resources.secrets.namespaces=" + namespace.name())
			.run((context) -> {
				InformerStartupException failure = rootCause(context.getStartupFailure(),
						InformerStartupException.class);
				// the first request is a watch-list, or a list where watch-lists are not
				// served
				assertThat(failure.getReason()).startsWith("403")
					.containsPattern("User \"operator-without-rights\" cannot (list|watch) resource \"secrets\"");
				FailureAnalysis analysis = new InformerStartupFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("informer 'secrets'");
				assertThat(analysis.getAction()).contains("'list' and 'watch'")
					.contains("kubeop.informers.resources.secrets.namespaces");
			});
	}

	@Test
	void missingIndexFunctionBeanNamesTheIndexersProperty(ControlPlane controlPlane) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.resources.pods.api-version=v1",
					"kubeop.informers.resources.pods.kind=Pod", "kubeop.informers.resources.pods.indexers=byNode")
			.run((context) -> {
				InvalidConfigurationPropertyValueException failure = rootCause(context.getStartupFailure(),
						InvalidConfigurationPropertyValueException.class);
				assertThat(failure.getName()).isEqualTo("kubeop.informers.resources.pods.indexers");
				assertThat(failure.getReason()).contains("no IndexFunction bean named 'byNode'");
			});
	}

	static <E extends Throwable> E rootCause(Throwable failure, Class<E> type) {
		assertThat(failure).as("startup failure").isNotNull();
		Throwable cause = failure;
		while (cause != null && !type.isInstance(cause)) {
			cause = cause.getCause();
		}
		assertThat(cause)
			.as("cause of type " + type.getSimpleName() + " in " + NestedExceptionUtils.getMostSpecificCause(failure))
			.isNotNull();
		return type.cast(cause);
	}

}
