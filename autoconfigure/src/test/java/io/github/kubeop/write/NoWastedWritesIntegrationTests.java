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

package io.github.kubeop.write;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.informer.InformerRegistry;
import io.github.kubeop.test.ApiServerRequests;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.PolicyV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LimitRange;
import io.kubernetes.client.openapi.models.V1LimitRangeItem;
import io.kubernetes.client.openapi.models.V1LimitRangeSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An apply whose state the live object already has is not sent, and every real change is,
 * counted at the API server ({@code apiserver_request_total}). The resources written
 * (LimitRanges, PodDisruptionBudgets) are ones no other test of the run writes, so the
 * server's counts are this test's.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class NoWastedWritesIntegrationTests {

	private static final String[] RESOURCES = { "limitranges", "poddisruptionbudgets" };

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void applyOfTheStateLastAppliedIsNotSentAsTheServerNormalisesIt(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		// the server stores "1000m" as "1" and "0.5Gi" as "512Mi" (a generated model's
		// Quantity is canonical already: a dynamic object sends the text as written),
		// "50%" stays a string, and defaults are added
		template.apply(dynamicLimits(namespace, "normalised"));
		template.apply(budget(namespace, "normalised", new IntOrString("50%")));
		template.apply(limits(namespace, "typed", "1000m", Map.of("tier", "gold")));
		long writes = writes(client);
		DynamicKubernetesObject unchanged = template.apply(dynamicLimits(namespace, "normalised"));
		template.apply(budget(namespace, "normalised", new IntOrString("50%")));
		template.apply(limits(namespace, "typed", "1000m", Map.of("tier", "gold")));
		assertThat(writes(client)).isEqualTo(writes);
		JsonObject max = unchanged.getRaw()
			.getAsJsonObject("spec")
			.getAsJsonArray("limits")
			.get(0)
			.getAsJsonObject()
			.getAsJsonObject("max");
		assertThat(max.get("cpu").getAsString()).isEqualTo("1");
		assertThat(max.get("memory").getAsString()).isEqualTo("512Mi");
		assertThat(unchanged.getMetadata().getResourceVersion()).isNotNull();
	}

	@Test
	void everyRealChangeIsSent(ControlPlane controlPlane, TestNamespace namespace) throws Exception {
		ApiClient client = controlPlane.apiClient();
		CoreV1Api api = new CoreV1Api(client);
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		KubernetesTemplate other = new KubernetesTemplate(client, new InformerRegistry(client), "other", true);
		template.apply(limits(namespace, "changed", "1000m", Map.of("tier", "gold", "team", "web")));
		long writes = writes(client);
		// a quantity
		template.apply(limits(namespace, "changed", "1500m", Map.of("tier", "gold", "team", "web")));
		assertThat(writes(client)).isEqualTo(writes + 1);
		assertThat(maxCpu(api, namespace, "changed")).isEqualTo("1500m");
		// a label's value
		template.apply(limits(namespace, "changed", "1500m", Map.of("tier", "silver", "team", "web")));
		assertThat(writes(client)).isEqualTo(writes + 2);
		// a label removed from the desired state: the live object still has every value
		// the desired one states, yet the apply must be sent to remove the label
		template.apply(limits(namespace, "changed", "1500m", Map.of("tier", "silver")));
		assertThat(writes(client)).isEqualTo(writes + 3);
		assertThat(api.readNamespacedLimitRange("changed", namespace.name()).execute().getMetadata().getLabels())
			.doesNotContainKey("team");
		// an int-or-string from a percentage to a number
		template.apply(budget(namespace, "changed", new IntOrString("50%")));
		template.apply(budget(namespace, "changed", new IntOrString(1)));
		assertThat(new PolicyV1Api(client).readNamespacedPodDisruptionBudget("changed", namespace.name())
			.execute()
			.getSpec()
			.getMinAvailable()).isEqualTo(new IntOrString(1));
		assertThat(writes(client)).isEqualTo(writes + 5);
		// drift: another manager takes a field over; the same desired state repairs it
		other.apply(limits(namespace, "changed", "2", Map.of()));
		assertThat(maxCpu(api, namespace, "changed")).isEqualTo("2");
		template.apply(limits(namespace, "changed", "1500m", Map.of("tier", "silver")));
		assertThat(maxCpu(api, namespace, "changed")).isEqualTo("1500m");
		assertThat(writes(client)).isEqualTo(writes + 7);
		// and the repaired state is steady again
		template.apply(limits(namespace, "changed", "1500m", Map.of("tier", "silver")));
		assertThat(writes(client)).isEqualTo(writes + 7);
	}

	@Test
	void applyIsSentWhenTheLiveObjectNoLongerNamesThisManagersApply(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		ApiClient client = controlPlane.apiClient();
		KubernetesTemplate template = new KubernetesTemplate(client, new InformerRegistry(client), "operator", true);
		KubernetesTemplate other = new KubernetesTemplate(client, new InformerRegistry(client), "other", true);
		template.apply(limits(namespace, "reset", "1", Map.of("tier", "gold")));
		// managedFields reset: every value is still there, but nobody owns it
		other.patch(V1LimitRange.class, namespace.name(), "reset",
				Patch.merge("{\"metadata\": {\"managedFields\": [{}]}}"));
		long writes = writes(client);
		template.apply(limits(namespace, "reset", "1", Map.of("tier", "gold")));
		assertThat(writes(client)).isEqualTo(writes + 1);
	}

	@Test
	void steadyStateReconcileMakesNoRequestAndRealChangesAreWritten(ControlPlane controlPlane,
			TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		LimitsKeeper keeper = new LimitsKeeper();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.apps.api-version=v1", "kubeop.informers.resources.apps.kind=ConfigMap",
					"kubeop.informers.resources.apps.label-selector=role=app",
					"kubeop.informers.resources.limits.api-version=v1",
					"kubeop.informers.resources.limits.kind=LimitRange",
					"kubeop.informers.resources.budgets.api-version=policy/v1",
					"kubeop.informers.resources.budgets.kind=PodDisruptionBudget")
			.withBean(LimitsKeeper.class, () -> keeper)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				keeper.template = context.getBean(KubernetesTemplate.class);
				ApiClient client = controlPlane.apiClient();
				KubernetesTemplate tester = new KubernetesTemplate(client, new InformerRegistry(client), "tester",
						true);
				api.createNamespacedConfigMap(namespace.name(), app(namespace, "1000m", "gold", "0")).execute();
				await().atMost(Duration.ofSeconds(60)).until(() -> keeper.calls.get() >= 1);
				long writes = writes(client);
				long reads = ApiServerRequests.count(client, ApiServerRequests.READS, RESOURCES);
				// steady state: three reconciles that change nothing the handler writes
				for (int i = 1; i <= 3; i++) {
					int calls = keeper.calls.get();
					tester.patch(V1ConfigMap.class, namespace.name(), "shop",
							Patch.merge(Map.of("metadata", Map.of("annotations", Map.of("touched", "" + i)))));
					await().atMost(Duration.ofSeconds(60)).until(() -> keeper.calls.get() > calls);
				}
				assertThat(writes(client)).isEqualTo(writes);
				assertThat(ApiServerRequests.count(client, ApiServerRequests.READS, RESOURCES)).isEqualTo(reads);
				// a real change is written
				api.replaceNamespacedConfigMap("shop", namespace.name(), app(namespace, "1500m", "silver", "1"))
					.execute();
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(maxCpu(api, namespace, "shop")).isEqualTo("1500m"));
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(
							api.readNamespacedLimitRange("shop", namespace.name()).execute().getMetadata().getLabels())
						.containsEntry("tier", "silver"));
			});
	}

	private static long writes(ApiClient client) throws Exception {
		return ApiServerRequests.count(client, ApiServerRequests.WRITES, RESOURCES);
	}

	private static String maxCpu(CoreV1Api api, TestNamespace namespace, String name) throws ApiException {
		return api.readNamespacedLimitRange(name, namespace.name())
			.execute()
			.getSpec()
			.getLimits()
			.get(0)
			.getMax()
			.get("cpu")
			.toSuffixedString();
	}

	private static V1ConfigMap app(TestNamespace namespace, String cpu, String tier, String generation) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name("shop").namespace(namespace.name()).labels(Map.of("role", "app")))
			.data(Map.of("cpu", cpu, "tier", tier, "generation", generation));
	}

	static V1LimitRange limits(TestNamespace namespace, String name, String maxCpu, Map<String, String> labels) {
		return new V1LimitRange()
			.metadata(
					new V1ObjectMeta().name(name).namespace(namespace.name()).labels(labels.isEmpty() ? null : labels))
			.spec(new V1LimitRangeSpec().limits(List.of(new V1LimitRangeItem().type("Container")
				.max(Map.of("cpu", new Quantity(maxCpu)))
				.defaultRequest(Map.of("memory", new Quantity("64Mi"))))));
	}

	private static DynamicKubernetesObject dynamicLimits(TestNamespace namespace, String name) {
		return new DynamicKubernetesObject(JsonParser
			.parseString("""
					{"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "%s", "namespace": "%s"},
					 "spec": {"limits": [{"type": "Container", "max": {"cpu": "1000m", "memory": "0.5Gi"}}]}}"""
				.formatted(name, namespace.name()))
			.getAsJsonObject());
	}

	static V1PodDisruptionBudget budget(TestNamespace namespace, String name, IntOrString minAvailable) {
		return new V1PodDisruptionBudget().metadata(new V1ObjectMeta().name(name).namespace(namespace.name()))
			.spec(new V1PodDisruptionBudgetSpec().minAvailable(minAvailable)
				.selector(new V1LabelSelector().matchLabels(Map.of("app", name))));
	}

	/**
	 * Keeps a LimitRange and a PodDisruptionBudget for each app, from its data.
	 */
	static class LimitsKeeper {

		final AtomicInteger calls = new AtomicInteger();

		volatile KubernetesTemplate template;

		@Reconcile(informer = "apps")
		void reconcile(V1ConfigMap app) throws ApiException {
			Map<String, String> data = app.getData();
			TestNamespace namespace = new TestNamespace(app.getMetadata().getNamespace());
			this.template.apply(
					limits(namespace, app.getMetadata().getName(), data.get("cpu"), Map.of("tier", data.get("tier"))));
			this.template.apply(budget(namespace, app.getMetadata().getName(), new IntOrString("50%")));
			this.calls.incrementAndGet();
		}

	}

}
