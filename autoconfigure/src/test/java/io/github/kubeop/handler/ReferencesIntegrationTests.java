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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.References;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.autoconfigure.metrics.KubeopMetricsAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretVolumeSource;
import io.kubernetes.client.openapi.models.V1Volume;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Relations by reference against a real API server: Deployments (the primaries) reference
 * Secrets by the path of their Secret volumes, and by a mapper reading a label on the
 * Secret.
 *
 * @author Kubeop authors
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class ReferencesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	static final String VOLUME_SECRETS = "spec.template.spec.volumes[].secret.secretName";

	static final ReferenceMapper<V1Secret> CONSUMER_LABEL = ReferencesIntegrationTests::consumerLabel;

	private static CoreV1Api core;

	private static AppsV1Api apps;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@BeforeAll
	static void client(ApiClient apiClient) {
		core = new CoreV1Api(apiClient);
		apps = new AppsV1Api(apiClient);
	}

	private ApplicationContextRunner runner(ControlPlane controlPlane, TestNamespace namespace) {
		// one worker: keys are handled in the order they are queued, so a later change
		// that must be handled proves that an earlier one queued nothing
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.handlers.workers=1");
	}

	@Test
	void secretReferencedByPathCallsItsPrimaryWhenCreatedLateChangedAndDeletedAndNotAfterTheReferenceMoved(
			ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ReferencingHandler handler = new ReferencingHandler();
		runner(controlPlane, namespace).withBean(ReferencingHandler.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			createDeployment(namespace, "web", "creds");
			createDeployment(namespace, "api", "api-creds");
			await().atMost(TIMEOUT).until(() -> handler.adds.containsAll(Set.of("web", "api")));
			// after api's add: a Secret seen while api's add waits would be part of that
			// call, not a call of its own
			createSecret(namespace, "api-creds", Map.of());
			await().atMost(TIMEOUT).until(() -> handler.references("api") == 1);
			// created after the Deployment that references it
			createSecret(namespace, "creds", Map.of());
			await().atMost(TIMEOUT).until(() -> handler.references("web") == 1);
			updateSecret(namespace, "creds", "2");
			await().atMost(TIMEOUT).until(() -> handler.references("web") == 2);
			core.deleteNamespacedSecret("creds", namespace.name()).execute();
			await().atMost(TIMEOUT).until(() -> handler.references("web") == 3);
			// the reference moves to a Secret that does not exist yet
			int changes = handler.changes("web");
			referenceSecrets(namespace, "web", "shared");
			await().atMost(TIMEOUT).until(() -> handler.changes("web") > changes);
			createSecret(namespace, "creds", Map.of());
			// a later change that must be handled, of a Secret only api references
			updateSecret(namespace, "api-creds", "2");
			await().atMost(TIMEOUT).until(() -> handler.references("api") == 2);
			assertThat(handler.references("web")).as("calls of web after the Secret it no longer references came")
				.isEqualTo(3);
			createSecret(namespace, "shared", Map.of());
			await().atMost(TIMEOUT).until(() -> handler.references("web") == 4);
			assertThat(handler.references("api")).isEqualTo(2);
		});
	}

	@Test
	void secretMappedByFunctionCallsBothTheOldAndTheNewPrimaryWhenItsLabelMoves(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		PathHandler handler = new PathHandler();
		runner(controlPlane, namespace).withBean(MapperHandler.class, () -> new MapperHandler(handler))
			.withBean("consumerLabel", ReferenceMapper.class, () -> CONSUMER_LABEL)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				createDeployment(namespace, "m-web", "unrelated");
				createDeployment(namespace, "m-api", "unrelated");
				await().atMost(TIMEOUT).until(() -> handler.adds.containsAll(Set.of("m-web", "m-api")));
				createSecret(namespace, "m-token", Map.of("consumer", "m-web"));
				await().atMost(TIMEOUT).until(() -> handler.references("m-web") == 1);
				V1Secret token = core.readNamespacedSecret("m-token", namespace.name()).execute();
				token.getMetadata().setLabels(Map.of("consumer", "m-api"));
				core.replaceNamespacedSecret("m-token", namespace.name(), token).execute();
				// the old state names web, the new one api: both are called
				await().atMost(TIMEOUT)
					.until(() -> handler.references("m-api") == 1 && handler.references("m-web") == 2);
				core.deleteNamespacedSecret("m-token", namespace.name()).execute();
				await().atMost(TIMEOUT).until(() -> handler.references("m-api") == 2);
				assertThat(handler.references("m-web")).isEqualTo(2);
			});
	}

	@Test
	void mapperThatThrowsIsCountedAndLoggedOnceWhileThePathStillMaps(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) throws Exception {
		PathHandler handler = new PathHandler();
		runner(controlPlane, namespace).withBean("bothHandler", BothHandler.class, () -> new BothHandler(handler))
			.withBean("consumerLabel", ReferenceMapper.class, () -> CONSUMER_LABEL)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withConfiguration(AutoConfigurations.of(KubeopMetricsAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				HandlerRegistrar registrar = context.getBean(HandlerRegistrar.class);
				FunctionCounter failures = context.getBean(MeterRegistry.class)
					.get("kubeop.references.mapping.failures")
					.tag("controller", "bothHandler")
					.functionCounter();
				assertThat(failures.count()).isZero();
				createDeployment(namespace, "f-web", "f-broken");
				await().atMost(TIMEOUT).until(() -> handler.adds.contains("f-web"));
				// the mapper throws for a label it cannot read; the path maps it to web
				createSecret(namespace, "f-broken", Map.of("consumer", "f-web.oops"));
				await().atMost(TIMEOUT).until(() -> handler.references("f-web") == 1);
				updateSecret(namespace, "f-broken", "2");
				await().atMost(TIMEOUT).until(() -> handler.references("f-web") == 2);
				assertThat(registrar.referenceMappingFailures("bothHandler")).isEqualTo(3);
				assertThat(failures.count()).isEqualTo(3);
				String key = namespace.name() + "/f-broken";
				assertThat(output.toString()
					.lines()
					.filter((line) -> line.contains("the mapper of V1Secret failed for " + key)))
					.as("log lines of the failing mapper")
					.hasSize(1);
			});
	}

	@Test
	void pathMissingOnThePrimaryFailsStartupNamingClassPathAndHandler(ControlPlane controlPlane,
			TestNamespace namespace) {
		runner(controlPlane, namespace)
			.withBean("missingPathHandler", MissingPathHandler.class, MissingPathHandler::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("V1DeploymentSpec has no field 'credentials'");
				assertThat(context.getStartupFailure()).hasStackTraceContaining("Handler 'missingPathHandler'")
					.hasStackTraceContaining("'spec.credentials'")
					.hasStackTraceContaining(V1Deployment.class.getName());
			});
	}

	@Test
	void pathToANumberFailsStartupSayingItIsNotAString(ControlPlane controlPlane, TestNamespace namespace) {
		runner(controlPlane, namespace).withBean("numberPathHandler", NumberPathHandler.class, NumberPathHandler::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("Handler 'numberPathHandler'")
					.hasStackTraceContaining("'spec.replicas'")
					.hasStackTraceContaining("'replicas' holds Integer, not a string or a list of strings");
			});
	}

	static Collection<String> consumerLabel(V1Secret secret) {
		Map<String, String> labels = secret.getMetadata().getLabels();
		String consumer = (labels != null) ? labels.get("consumer") : null;
		if (consumer == null) {
			return List.of();
		}
		if (consumer.contains(".")) {
			throw new IllegalArgumentException("label consumer must be a name, not " + consumer);
		}
		return List.of(secret.getMetadata().getNamespace() + "/" + consumer);
	}

	static void createDeployment(TestNamespace namespace, String name, String... secrets) throws ApiException {
		V1PodSpec pod = new V1PodSpec().addContainersItem(new V1Container().name("app").image("nginx"));
		for (String secret : secrets) {
			pod.addVolumesItem(new V1Volume().name(secret).secret(new V1SecretVolumeSource().secretName(secret)));
		}
		apps.createNamespacedDeployment(namespace.name(), new V1Deployment().metadata(new V1ObjectMeta().name(name))
			.spec(new V1DeploymentSpec().selector(new V1LabelSelector().matchLabels(Map.of("app", name)))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", name))).spec(pod))))
			.execute();
	}

	static void referenceSecrets(TestNamespace namespace, String deployment, String... secrets) throws ApiException {
		V1Deployment current = apps.readNamespacedDeployment(deployment, namespace.name()).execute();
		V1PodSpec pod = current.getSpec().getTemplate().getSpec();
		pod.setVolumes(new java.util.ArrayList<>());
		for (String secret : secrets) {
			pod.addVolumesItem(new V1Volume().name(secret).secret(new V1SecretVolumeSource().secretName(secret)));
		}
		apps.replaceNamespacedDeployment(deployment, namespace.name(), current).execute();
	}

	static void createSecret(TestNamespace namespace, String name, Map<String, String> labels) throws ApiException {
		core.createNamespacedSecret(namespace.name(),
				new V1Secret().metadata(new V1ObjectMeta().name(name).labels(labels)).stringData(Map.of("v", "1")))
			.execute();
	}

	static void updateSecret(TestNamespace namespace, String name, String version) throws ApiException {
		V1Secret current = core.readNamespacedSecret(name, namespace.name()).execute();
		current.setData(null);
		current.setStringData(Map.of("v", version));
		core.replaceNamespacedSecret(name, namespace.name(), current).execute();
	}

	/**
	 * Records adds, changes and calls for references, per Deployment name.
	 */
	static class PathHandler {

		final Set<String> adds = ConcurrentHashMap.newKeySet();

		final List<String> calls = new CopyOnWriteArrayList<>();

		final Map<String, AtomicInteger> referenceCalls = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> changeCalls = new ConcurrentHashMap<>();

		int references(String name) {
			return this.referenceCalls.computeIfAbsent(name, (key) -> new AtomicInteger()).get();
		}

		int changes(String name) {
			return this.changeCalls.computeIfAbsent(name, (key) -> new AtomicInteger()).get();
		}

		@OnAdd
		void added(V1Deployment deployment) {
			this.adds.add(deployment.getMetadata().getName());
		}

		@OnUpdate
		void changed(V1Deployment deployment, HandlerContext context) {
			String name = deployment.getMetadata().getName();
			this.calls.add(context.trigger() + " " + name);
			Map<String, AtomicInteger> counts = (context.trigger() == Trigger.REFERENCE) ? this.referenceCalls
					: this.changeCalls;
			counts.computeIfAbsent(name, (key) -> new AtomicInteger()).incrementAndGet();
		}

	}

	@References(value = V1Secret.class, path = VOLUME_SECRETS)
	static class ReferencingHandler extends PathHandler {

	}

	@References(value = V1Secret.class, mapper = "consumerLabel")
	static class MapperHandler {

		private final PathHandler recorder;

		MapperHandler(PathHandler recorder) {
			this.recorder = recorder;
		}

		@OnAdd
		void added(V1Deployment deployment) {
			this.recorder.added(deployment);
		}

		@OnUpdate
		void changed(V1Deployment deployment, HandlerContext context) {
			this.recorder.changed(deployment, context);
		}

	}

	@References(value = V1Secret.class, mapper = "consumerLabel")
	@References(value = V1Secret.class, path = VOLUME_SECRETS)
	static class BothHandler extends MapperHandler {

		BothHandler(PathHandler recorder) {
			super(recorder);
		}

	}

	@References(value = V1Secret.class, path = "spec.credentials")
	static class MissingPathHandler {

		@OnAdd
		void added(V1Deployment deployment) {
		}

	}

	@References(value = V1Secret.class, path = "spec.replicas")
	static class NumberPathHandler {

		@OnAdd
		void added(V1Deployment deployment) {
		}

	}

}
