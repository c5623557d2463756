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

import io.github.kubeop.webhook.ValidatingWebhook;
import io.github.kubeop.webhook.WebServerMissingException;
import io.github.kubeop.webhook.WebhookRegistry;
import io.github.kubeop.webhook.Widget;
import io.github.kubeop.webhook.WidgetConverter;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeopWebhooksAutoConfiguration}: startup failures for webhooks that
 * cannot be served or called, explained by their failure analyzers, and the switch.
 *
 * @author Kubeop authors
 */
class WebhooksAutoConfigurationTests {

	private final ApplicationContextRunner nonWeb = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopWebhooksAutoConfiguration.class));

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopWebhooksAutoConfiguration.class));

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopWebhooksAutoConfiguration.class));

	@Test
	void webhooksInANonWebApplicationFailStartupNamingTheDependency() {
		this.nonWeb.withBean(GoodWebhooks.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("it is neither a servlet nor a reactive web application");
			assertThat(analysis.getAction()).contains("org.springframework.boot:spring-boot-starter-webmvc")
				.contains("org.springframework.boot:spring-boot-starter-webflux")
				.contains("kubeop.webhooks.enabled=false");
		});
	}

	@Test
	void convertersInANonWebApplicationFailStartupToo() {
		this.nonWeb.withBean(WidgetConverter.class)
			.run((context) -> assertThat(context).getFailure().isInstanceOf(WebServerMissingException.class));
	}

	@Test
	void aNonWebApplicationWithoutWebhooksStarts() {
		this.nonWeb.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aWrongSignatureFailsStartupNamingTheMethodAndTheFix() {
		this.web.withBean(WrongWebhooks.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo(
					"Webhook method " + WrongWebhooks.class.getName() + ".validate(Widget) returns java.lang.String");
			assertThat(analysis.getAction()).startsWith("Return Admission");
		});
	}

	@Test
	void anApplicationWithoutWebhooksGetsNoWebhookPort() {
		this.web.run((context) -> {
			TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
			context.getBean(TomcatWebhookConnector.class).customize(factory);
			assertThat(factory.getAdditionalConnectors()).isEmpty();
		});
	}

	@Test
	void anApplicationWithoutWebhooksGeneratesNoCertificate() {
		this.web.run((context) -> {
			TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
			context.getBean(TomcatWebhookConnector.class).customize(factory);
			assertThat(context.getBeanFactory().containsSingleton("kubeopWebhookCertificates")).isFalse();
		});
	}

	@Test
	void anApplicationWithWebhooksGetsATlsConnectorOnTheWebhookPort() {
		this.web.withBean(GoodWebhooks.class).withPropertyValues("kubeop.webhooks.port=9555").run((context) -> {
			TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
			context.getBean(TomcatWebhookConnector.class).customize(factory);
			assertThat(factory.getAdditionalConnectors()).singleElement().satisfies((connector) -> {
				assertThat(connector.getPort()).isEqualTo(9555);
				assertThat(connector.getSecure()).isTrue();
				assertThat(connector.findSslHostConfigs()).hasSize(1);
			});
			assertThat(context.getBeanFactory().containsSingleton("kubeopWebhookCertificates")).isTrue();
		});
	}

	@Test
	void aReactiveApplicationWithWebhooksGetsAReactorNettyServerOfItsOwn() {
		this.reactive.withBean(GoodWebhooks.class).withPropertyValues("kubeop.webhooks.port=0").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(NettyWebhookServer.class);
			assertThat(context).doesNotHaveBean(TomcatWebhookConnector.class);
			assertThat(context.getBeanFactory().containsSingleton("kubeopWebhookCertificates")).isTrue();
		});
	}

	@Test
	void aReactiveApplicationWithoutWebhooksGeneratesNoCertificate() {
		this.reactive.withPropertyValues("kubeop.webhooks.port=0").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeanFactory().containsSingleton("kubeopWebhookCertificates")).isFalse();
		});
	}

	@Test
	void aReactiveApplicationWithoutReactorNettyFailsStartupNamingTheDependency() {
		this.reactive.withBean(GoodWebhooks.class)
			.withClassLoader(new FilteredClassLoader(HttpServer.class))
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("Reactor Netty is not on its class path");
				assertThat(analysis.getAction()).contains("org.springframework.boot:spring-boot-starter-webflux");
			});
	}

	@Test
	void theSwitchTurnsWebhooksOff() {
		this.nonWeb.withBean(GoodWebhooks.class).withPropertyValues("kubeop.webhooks.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(WebhookRegistry.class);
		});
	}

	private static FailureAnalysis analyze(Throwable failure) {
		for (FailureAnalyzer analyzer : List.of(new WebServerMissingFailureAnalyzer(),
				new InvalidWebhookFailureAnalyzer())) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		throw new AssertionError("No analysis of " + failure);
	}

	static class GoodWebhooks {

		@ValidatingWebhook
		void validate(Widget widget) {
		}

	}

	static class WrongWebhooks {

		@ValidatingWebhook
		String validate(Widget widget) {
			return "fine";
		}

	}

}
