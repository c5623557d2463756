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

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import io.kubernetes.client.util.KubeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of what only a separate operator process shows, against a real API server: how it
 * finds its kubeconfig from the environment it inherits, and that it exits once its
 * startup has failed.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ChildProcessIntegrationTests {

	/**
	 * Far below the minute that OkHttp's idle dispatcher threads kept a JVM alive after
	 * its failure, far above what a JVM needs to stop.
	 */
	private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

	private static final String FAILED_TO_START = "APPLICATION FAILED TO START";

	@Test
	void startupFailingOnForbiddenExitsPromptly(ControlPlane controlPlane, ApiClient client, TestNamespace namespace,
			@TempDir Path directory) throws Exception {
		Path kubeconfig = Files.writeString(directory.resolve("kubeconfig"),
				tokenKubeconfig(controlPlane, serviceAccountToken(client, namespace.name(), "no-rights")));
		Path output = directory.resolve("output.txt");
		Process process = ChildOperator.start(environmentWithout("KUBECONFIG", "KUBERNETES_SERVICE_HOST"), Map.of(),
				output, "--kubeop.client.kubeconfig=" + kubeconfig,
				"--kubeop.informers.resources.settings.api-version=v1",
				"--kubeop.informers.resources.settings.kind=ConfigMap",
				"--kubeop.informers.resources.settings.namespaces=" + namespace.name());
		// how long a JVM takes to start Spring depends on the machine: the bound starts
		// when the failure has been reported
		await().atMost(Duration.ofMinutes(2))
			.until(() -> !process.isAlive() || ChildOperator.read(output).contains(FAILED_TO_START));
		long reported = System.nanoTime();
		boolean exited = ChildOperator.exited(process, EXIT_TIMEOUT);
		String log = ChildOperator.read(output);
		assertThat(exited).as("the JVM exited within %s of reporting its failure; its output:%n%s", EXIT_TIMEOUT, log)
			.isTrue();
		System.out.printf("failed operator JVM exited %d ms after reporting its failure%n",
				Duration.ofNanos(System.nanoTime() - reported).toMillis());
		assertThat(process.exitValue()).isNotZero();
		assertThat(log).contains(FAILED_TO_START)
			.contains("403")
			.contains("kubeop.informers.resources.settings")
			.doesNotContain(ChildOperator.STARTED);
	}

	@Test
	void kubeconfigIsFoundUnderHomeAsKubectlFindsIt(ControlPlane controlPlane, ApiClient client,
			TestNamespace namespace, @TempDir Path directory) throws Exception {
		new CoreV1Api(client)
			.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("found").labels(Map.of("test", "home"))))
			.execute();
		Path home = Files.createDirectories(directory.resolve("home"));
		Files.createDirectories(home.resolve(".kube"));
		Files.writeString(home.resolve(".kube").resolve("config"), controlPlane.kubeconfig());
		// Java's user.home names another directory, without a kubeconfig: kubectl and the
		// official client look under $HOME
		Path javaUserHome = Files.createDirectories(directory.resolve("java-user-home"));
		Map<String, String> environment = environmentWithout("KUBECONFIG", "KUBERNETES_SERVICE_HOST");
		environment.put("HOME", home.toString());
		Path output = directory.resolve("output.txt");
		Process process = ChildOperator.start(environment, Map.of("user.home", javaUserHome.toString()), output,
				"--kubeop.informers.resources.settings.api-version=v1",
				"--kubeop.informers.resources.settings.kind=ConfigMap",
				"--kubeop.informers.resources.settings.label-selector=test=home",
				"--kubeop.informers.resources.settings.namespaces=" + namespace.name());
		boolean exited = ChildOperator.exited(process, Duration.ofSeconds(90));
		String log = ChildOperator.read(output);
		assertThat(log).as("output of the operator JVM")
			.contains(ChildOperator.STARTED + controlPlane.serverUrl() + ", objects 1");
		assertThat(exited).isTrue();
		assertThat(process.exitValue()).isZero();
	}

	private static Map<String, String> environmentWithout(String... names) {
		Map<String, String> environment = new HashMap<>();
		for (String name : names) {
			environment.put(name, null);
		}
		return environment;
	}

	private static String serviceAccountToken(ApiClient client, String namespace, String name) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		api.createNamespacedServiceAccount(namespace, new V1ServiceAccount().metadata(new V1ObjectMeta().name(name)))
			.execute();
		return api
			.createNamespacedServiceAccountToken(name, namespace,
					new AuthenticationV1TokenRequest().spec(new V1TokenRequestSpec().audiences(List.of())))
			.execute()
			.getStatus()
			.getToken();
	}

	private static String tokenKubeconfig(ControlPlane controlPlane, String token) throws Exception {
		KubeConfig admin = KubeConfig.loadKubeConfig(new StringReader(controlPlane.kubeconfig()));
		return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: test
				  cluster:
				    server: %s
				    certificate-authority-data: %s
				users:
				- name: no-rights
				  user:
				    token: %s
				contexts:
				- name: test
				  context:
				    cluster: test
				    user: no-rights
				current-context: test
				""".formatted(controlPlane.serverUrl(), admin.getCertificateAuthorityData(), token);
	}

}
