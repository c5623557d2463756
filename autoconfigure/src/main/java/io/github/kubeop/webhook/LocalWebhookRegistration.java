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

package io.github.kubeop.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.PatchUtils;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Registers the application's webhooks with the API server it is connected to, for a
 * local run or a test against a local control plane (as envtest's
 * {@code WebhookInstallOptions} does): once the web server listens, the validating and
 * mutating configurations are created with a loopback URL and the {@code caBundle} of the
 * certificate made at startup, and the CustomResourceDefinitions with converters get a
 * webhook {@code conversion}. Startup waits until the API server calls the new
 * configurations (a dry-run probe each configuration carries), so that the first request
 * after startup already goes through the webhooks. At shutdown, before the web server
 * stops, the configurations are deleted and the definitions' conversion restored.
 *
 * @author Kubeop authors
 */
public class LocalWebhookRegistration implements SmartLifecycle {

	/**
	 * Starts after the web server listens, stops before its graceful shutdown.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private static final Log logger = LogFactory.getLog(LocalWebhookRegistration.class);

	private static final String PROBE_LABEL = "kubeop.io/webhook-probe";

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

	private final WebhookRegistry registry;

	private final ApiClient client;

	private final String host;

	private final IntSupplier port;

	private final Supplier<String> caPem;

	private final String applicationName;

	private final List<Runnable> removals = new ArrayList<>();

	private volatile boolean running;

	/**
	 * Creates a registration.
	 * @param registry the webhooks
	 * @param client the client of the API server to register with
	 * @param host the loopback address the API server calls
	 * @param port the webhook port, known once the web server listens
	 * @param caPem the CA of the serving certificate, asked for when there are webhooks
	 * @param applicationName the application's name, part of the configurations' names
	 */
	public LocalWebhookRegistration(WebhookRegistry registry, ApiClient client, String host, IntSupplier port,
			Supplier<String> caPem, String applicationName) {
		this.registry = registry;
		this.client = client;
		this.host = host;
		this.port = port;
		this.caPem = caPem;
		this.applicationName = applicationName;
	}

	@Override
	public void start() {
		if (this.registry.isEmpty()) {
			this.running = true;
			return;
		}
		int port = this.port.getAsInt();
		String caPem = this.caPem.get();
		String baseUrl = "https://" + (this.host.contains(":") ? "[" + this.host + "]" : this.host) + ":" + port;
		String name = "kubeop-" + this.applicationName + "-" + port;
		String probe = UUID.randomUUID().toString();
		try {
			List<CountDownLatch> probes = new ArrayList<>();
			List<WebhookDefinition> webhooks = this.registry.admissionWebhooks();
			V1ValidatingWebhookConfiguration validating = WebhookConfigurations.validating(name, Map.of(), webhooks,
					WebhookConfigurations.url(baseUrl, caPem));
			if (validating != null) {
				probes.add(probe("/kubeop-probe-validating"));
				validating.getWebhooks()
					.add(validatingProbe(probe,
							WebhookConfigurations.url(baseUrl, caPem).apply("/kubeop-probe-validating")));
				createValidating(validating);
			}
			V1MutatingWebhookConfiguration mutating = WebhookConfigurations.mutating(name, Map.of(), webhooks,
					WebhookConfigurations.url(baseUrl, caPem));
			if (mutating != null) {
				probes.add(probe("/kubeop-probe-mutating"));
				mutating.getWebhooks()
					.add(mutatingProbe(probe,
							WebhookConfigurations.url(baseUrl, caPem).apply("/kubeop-probe-mutating")));
				createMutating(mutating);
			}
			for (String definition : this.registry.convertedDefinitions()) {
				convertThroughWebhook(definition, baseUrl + this.registry.conversionPath(definition), caPem);
			}
			awaitProbes(probe, probes);
			logger.info("Registered webhooks on " + baseUrl + " as " + name);
		}
		catch (ApiException ex) {
			throw new IllegalStateException(
					"Could not register the webhooks with the API server: " + ex.getCode() + " " + ex.getResponseBody(),
					ex);
		}
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		for (Runnable removal : this.removals) {
			try {
				removal.run();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not remove a webhook registration: " + ex.getMessage());
			}
		}
		this.removals.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void createValidating(V1ValidatingWebhookConfiguration configuration) throws ApiException {
		AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(this.client);
		String name = configuration.getMetadata().getName();
		deleteQuietly(() -> api.deleteValidatingWebhookConfiguration(name).execute());
		api.createValidatingWebhookConfiguration(configuration).execute();
		this.removals.add(() -> deleteQuietly(() -> api.deleteValidatingWebhookConfiguration(name).execute()));
	}

	private void createMutating(V1MutatingWebhookConfiguration configuration) throws ApiException {
		AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(this.client);
		String name = configuration.getMetadata().getName();
		deleteQuietly(() -> api.deleteMutatingWebhookConfiguration(name).execute());
		api.createMutatingWebhookConfiguration(configuration).execute();
		this.removals.add(() -> deleteQuietly(() -> api.deleteMutatingWebhookConfiguration(name).execute()));
	}

	private void convertThroughWebhook(String definition, String url, String caPem) throws ApiException {
		ApiextensionsV1Api api = new ApiextensionsV1Api(this.client);
		V1CustomResourceDefinition crd = api.readCustomResourceDefinition(definition).execute();
		JsonElement original = (crd.getSpec().getConversion() != null)
				? this.client.getJSON().getGson().toJsonTree(crd.getSpec().getConversion()) : null;
		JsonObject clientConfig = new JsonObject();
		clientConfig.addProperty("url", url);
		clientConfig.addProperty("caBundle",
				Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8)));
		JsonObject webhook = new JsonObject();
		JsonArray versions = new JsonArray();
		versions.add("v1");
		webhook.add("conversionReviewVersions", versions);
		webhook.add("clientConfig", clientConfig);
		JsonObject conversion = new JsonObject();
		conversion.addProperty("strategy", "Webhook");
		conversion.add("webhook", webhook);
		// a merge patch, not a replace: the client's model of a CRD schema writes back
		// fields the API server refuses (empty "dependencies")
		patchConversion(api, definition, conversion);
		this.removals.add(() -> restoreConversion(api, definition, original));
	}

	private void restoreConversion(ApiextensionsV1Api api, String definition, JsonElement original) {
		JsonObject conversion = (original != null && original.isJsonObject()) ? original.getAsJsonObject().deepCopy()
				: new JsonObject();
		if (!conversion.has("strategy")) {
			conversion.addProperty("strategy", "None");
		}
		if (!conversion.has("webhook")) {
			conversion.add("webhook", JsonNull.INSTANCE);
		}
		try {
			patchConversion(api, definition, conversion);
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw new IllegalStateException(ex.getCode() + " " + ex.getResponseBody(), ex);
			}
		}
	}

	private void patchConversion(ApiextensionsV1Api api, String definition, JsonObject conversion) throws ApiException {
		JsonObject spec = new JsonObject();
		spec.add("conversion", conversion);
		JsonObject patch = new JsonObject();
		patch.add("spec", spec);
		PatchUtils.patch(V1CustomResourceDefinition.class,
				() -> api.patchCustomResourceDefinition(definition, new V1Patch(patch.toString())).buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

	private CountDownLatch probe(String path) {
		CountDownLatch called = new CountDownLatch(1);
		this.registry.registerEndpoint(new ProbeEndpoint(path, called));
		return called;
	}

	private void awaitProbes(String probe, List<CountDownLatch> probes) throws ApiException {
		if (probes.isEmpty()) {
			return;
		}
		CoreV1Api core = new CoreV1Api(this.client);
		V1ConfigMap configMap = new V1ConfigMap()
			.metadata(new V1ObjectMeta().generateName("kubeop-webhook-probe-").labels(Map.of(PROBE_LABEL, probe)));
		long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			core.createNamespacedConfigMap("default", configMap).dryRun("All").execute();
			boolean all = true;
			for (CountDownLatch called : probes) {
				try {
					all &= called.await(100, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
			if (all) {
				return;
			}
		}
		logger.warn("The API server did not call the webhooks within " + PROBE_TIMEOUT.toSeconds()
				+ " s of their registration; requests made now may not go through them yet");
	}

	private static V1ValidatingWebhook validatingProbe(String probe,
			io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig clientConfig) {
		return new V1ValidatingWebhook().name("probe.webhooks.kubeop.io")
			.admissionReviewVersions(List.of("v1"))
			.clientConfig(clientConfig)
			.rules(List.of(probeRule()))
			.failurePolicy("Ignore")
			.sideEffects("None")
			.timeoutSeconds(5)
			.objectSelector(new V1LabelSelector().matchLabels(Map.of(PROBE_LABEL, probe)));
	}

	private static V1MutatingWebhook mutatingProbe(String probe,
			io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig clientConfig) {
		return new V1MutatingWebhook().name("probe.webhooks.kubeop.io")
			.admissionReviewVersions(List.of("v1"))
			.clientConfig(clientConfig)
			.rules(List.of(probeRule()))
			.failurePolicy("Ignore")
			.sideEffects("None")
			.timeoutSeconds(5)
			.objectSelector(new V1LabelSelector().matchLabels(Map.of(PROBE_LABEL, probe)));
	}

	private static V1RuleWithOperations probeRule() {
		return new V1RuleWithOperations().apiGroups(List.of(""))
			.apiVersions(List.of("v1"))
			.resources(List.of("configmaps"))
			.operations(List.of("CREATE"))
			.scope("Namespaced");
	}

	private static void deleteQuietly(Call call) {
		try {
			call.run();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw new IllegalStateException(ex.getCode() + " " + ex.getResponseBody(), ex);
			}
		}
	}

	@FunctionalInterface
	private interface Call {

		void run() throws ApiException;

	}

	/**
	 * Allows every request, and tells that the API server called it.
	 */
	private record ProbeEndpoint(String path, CountDownLatch called) implements WebhookEndpoint {

		@Override
		public Answer answer(JsonObject review) {
			this.called.countDown();
			JsonObject response = new JsonObject();
			response.addProperty("uid", AdmissionEndpoint.string(review.getAsJsonObject("request"), "uid"));
			response.addProperty("allowed", true);
			JsonObject answer = new JsonObject();
			answer.addProperty("apiVersion", "admission.k8s.io/v1");
			answer.addProperty("kind", "AdmissionReview");
			answer.add("response", response);
			return new Answer(answer, 200, null);
		}

	}

}
