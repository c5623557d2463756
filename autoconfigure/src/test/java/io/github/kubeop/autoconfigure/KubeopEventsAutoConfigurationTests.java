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

import io.github.kubeop.event.DefaultEventRecorder;
import io.github.kubeop.event.EventRecorder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link KubeopEventsAutoConfiguration}. The recorder only talks to the API
 * server when an Event is written; its behaviour is tested against a real one in
 * {@code EventRecorderIntegrationTests}.
 *
 * @author Kubeop authors
 */
class KubeopEventsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopEventsAutoConfiguration.class))
		.withBean(ApiClient.class, ApiClient::new);

	@Test
	void recorderReportsAsTheApplicationFromThisHost() {
		this.runner.withPropertyValues("spring.application.name=static-site-operator").run((context) -> {
			DefaultEventRecorder recorder = context.getBean(DefaultEventRecorder.class);
			assertThat(context).getBean(EventRecorder.class).isSameAs(recorder);
			assertThat(recorder.reportingController()).isEqualTo("static-site-operator");
			assertThat(recorder.reportingInstance()).startsWith("static-site-operator-").hasSizeGreaterThan(21);
		});
	}

	@Test
	void reportingControllerDefaultsToKubeopAndFollowsTheProperty() {
		this.runner.run((context) -> assertThat(context.getBean(DefaultEventRecorder.class).reportingController())
			.isEqualTo("kubeop"));
		this.runner
			.withPropertyValues("spring.application.name=app", "kubeop.events.reporting-controller=example.com/sites")
			.run((context) -> assertThat(context.getBean(DefaultEventRecorder.class).reportingController())
				.isEqualTo("example.com/sites"));
	}

	@Test
	void tooLongReportingControllerFailsNamingTheProperty() {
		this.runner.withPropertyValues("kubeop.events.reporting-controller=" + "x".repeat(129))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("kubeop.events.reporting-controller"));
	}

	@Test
	void backsOffToTheUsersRecorder() {
		EventRecorder mine = (regarding, type, reason, action, note) -> {
		};
		this.runner.withBean(EventRecorder.class, () -> mine).run((context) -> {
			assertThat(context).getBean(EventRecorder.class).isSameAs(mine);
			assertThat(context).doesNotHaveBean(DefaultEventRecorder.class);
		});
	}

	@Test
	void switchedOffByItsFlag() {
		this.runner.withPropertyValues("kubeop.events.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorder.class));
	}

	@Test
	void absentWithoutTheKubernetesClient() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopEventsAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(ApiClient.class))
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorder.class));
	}

	@Test
	void meterCountsEventsByResultFromZero() {
		this.runner.run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(MeterBinder.class).bindTo(registry);
			for (String result : new String[] { "created", "series", "dropped", "failed" }) {
				assertThat(registry.get("kubeop.events").tag("result", result).functionCounter().count()).isZero();
			}
			DefaultEventRecorder recorder = context.getBean(DefaultEventRecorder.class);
			// a closed recorder drops what it is given, without asking the server
			recorder.close();
			recorder.normal(new V1ConfigMap().metadata(new V1ObjectMeta().name("late").namespace("default")), "Late",
					"Sync", null);
			assertThat(registry.get("kubeop.events").tag("result", "dropped").functionCounter().count()).isOne();
		});
	}

	@Test
	void meterBinderAbsentWithoutMicrometer() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).hasSingleBean(DefaultEventRecorder.class)
				.doesNotHaveBean("kubeopEventsMeterBinder"));
	}

}
