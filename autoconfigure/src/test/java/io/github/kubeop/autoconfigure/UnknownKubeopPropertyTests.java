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

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Tests that a key under {@code kubeop.*} that no property takes fails startup, naming
 * the key and the valid key closest to it, instead of being ignored.
 *
 * @author Kubeop authors
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownKubeopPropertyTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeopClientAutoConfiguration.class, KubeopInformersAutoConfiguration.class))
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1"));

	@Test
	void misspelledInformerKeyFailsStartupAndNamesTheKeyItMeant() {
		this.runner
			.withPropertyValues("kubeop.informers.resources.web.api-version=v1",
					"kubeop.informers.resources.web.kind=ConfigMap",
					"kubeop.informers.resources.web.label-selecter=app=web")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasRootCauseInstanceOf(UnboundConfigurationPropertiesException.class);
				FailureAnalysis analysis = new UnknownKubeopPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("kubeop.informers.resources.web.label-selecter");
				assertThat(analysis.getAction()).contains("Replace kubeop.informers.resources.web.label-selecter with "
						+ "kubeop.informers.resources.web.label-selector");
			});
	}

	@Test
	void misspelledKeysAtEveryLevelAreRefused() {
		assertRefused("kubeop.informer.namespaces=a", "kubeop.informers.namespaces");
		assertRefused("kubeop.informers.page-sise=10", "kubeop.informers.page-size");
		assertRefused("kubeop.handlers.controllers.web.worker=2", "kubeop.handlers.controllers.web.workers");
		assertRefused("kubeop.handlers.rate-limiter.base-dalay=1s", "kubeop.handlers.rate-limiter.base-delay");
		assertRefused("kubeop.leader-election.lease-durration=20s", "kubeop.leader-election.lease-duration");
		assertRefused("kubeop.client.contxt=staging", "kubeop.client.context");
	}

	@Test
	void correctKeysBind() {
		// informers off: no API server to resolve the resource with
		this.runner
			.withPropertyValues("kubeop.informers.enabled=false", "kubeop.informers.resources.web.api-version=v1",
					"kubeop.informers.resources.web.kind=ConfigMap",
					"kubeop.informers.resources.web.label-selector=app=web",
					"kubeop.informers.resources.web.namespaces[0]=a", "kubeop.handlers.controllers.web.workers=2",
					"kubeop.handlers.controllers.web.rate-limiter.qps=5", "kubeop.leader-election.lease-duration=20s",
					"kubeop.health.readiness=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(KubeopProperties.class)
					.getInformers()
					.getResources()
					.get("web")
					.getLabelSelector()).isEqualTo("app=web");
			});
	}

	@Test
	void farFromAnyKeyIsRefusedWithoutAGuess() {
		assertThat(UnknownKubeopPropertyFailureAnalyzer
			.closestKnownName(ConfigurationPropertyName.of("kubeop.informers.resources.web.something-else"))).isNull();
		assertThat(UnknownKubeopPropertyFailureAnalyzer.editDistance("label-selecter", "label-selector")).isOne();
		assertThat(UnknownKubeopPropertyFailureAnalyzer.editDistance("", "abc")).isEqualTo(3);
	}

	@Test
	void applicationReportsTheAnalysisInsteadOfSpringBootsGenericOne(CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(MisconfiguredApplication.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.run("--kubeop.informers.resources.web.api-version=v1", "--kubeop.informers.resources.web.kind=ConfigMap",
					"--kubeop.informers.resources.web.label-selecter=app=web"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Kubeop does not know these properties")
			.contains("Replace kubeop.informers.resources.web.label-selecter with "
					+ "kubeop.informers.resources.web.label-selector");
	}

	private void assertRefused(String property, String suggestion) {
		this.runner.withPropertyValues(property).run((context) -> {
			assertThat(context.getStartupFailure()).as(property).isNotNull();
			FailureAnalysis analysis = new UnknownKubeopPropertyFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).as(property).isNotNull();
			assertThat(analysis.getAction()).as(property).contains("with " + suggestion + ".");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class MisconfiguredApplication {

	}

}
