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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.typed.Gizmo;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link Cleanup} against a real API server (one namespace for the class: each test looks
 * at its own objects only): the finalizer is on the object before the first call, the
 * cleanup runs once the delete starts while the object stays, the object goes only after
 * the cleanup returned, a failing cleanup is retried while the object stays, and other
 * finalizers survive.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class CleanupIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String FINALIZER = "cleanup.kubeop.test/cleanup";

	private static final String OTHER = "other.kubeop.test/keep";

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
	void finalizerIsOnTheServerBeforeTheFirstCallAndTheCallSeesIt(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		Sites sites = new Sites(api, namespace);
		run(controlPlane, namespace, Sites.class, sites, () -> {
			create(api, namespace, "first", List.of());
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(sites.reconciled("first")).hasSize(1));
			Call first = sites.reconciled("first").get(0);
			assertThat(first.finalizers()).containsExactly(FINALIZER);
			assertThat(first.serverFinalizers()).containsExactly(FINALIZER);
			assertThat(first.trigger()).isEqualTo(Trigger.ADDED);
		});
	}

	@Test
	void cleanupRunsOnceTheDeleteStartsAndTheObjectGoesOnlyAfterItReturned(ControlPlane controlPlane,
			TestNamespace namespace, ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		Sites sites = new Sites(api, namespace);
		sites.release = new CountDownLatch(1);
		run(controlPlane, namespace, Sites.class, sites, () -> {
			create(api, namespace, "site", List.of());
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(sites.reconciled("site")).hasSize(1));
			api.deleteNamespacedConfigMap("site", namespace.name()).execute();
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(sites.cleanups("site")).hasSize(1));
			Call cleanup = sites.cleanups("site").get(0);
			assertThat(cleanup.deleting()).isTrue();
			assertThat(cleanup.trigger()).isEqualTo(Trigger.DELETING);
			// while the cleanup blocks, the delete waits for it
			V1ConfigMap held = api.readNamespacedConfigMap("site", namespace.name()).execute();
			assertThat(held.getMetadata().getDeletionTimestamp()).isNotNull();
			assertThat(held.getMetadata().getFinalizers()).containsExactly(FINALIZER);
			sites.release.countDown();
			await().atMost(TIMEOUT).until(() -> gone(api, namespace, "site"));
			// @OnDelete still comes once the object is gone: it is queued after every
			// earlier change of the key, so by then no reconcile of the deleting object
			// could still be on its way
			await().atMost(TIMEOUT).until(() -> sites.deleted.contains("site"));
			assertThat(sites.cleanups("site")).hasSize(1);
			assertThat(sites.reconciled("site")).extracting(Call::deleting).containsOnly(false);
		});
	}

	@Test
	void failingCleanupIsRetriedWithRisingAttemptsWhileTheObjectStays(ControlPlane controlPlane,
			TestNamespace namespace, ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		Sites sites = new Sites(api, namespace);
		sites.failures = 2;
		run(controlPlane, namespace, Sites.class, sites, () -> {
			create(api, namespace, "flaky", List.of());
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(sites.reconciled("flaky")).hasSize(1));
			api.deleteNamespacedConfigMap("flaky", namespace.name()).execute();
			await().atMost(TIMEOUT).until(() -> gone(api, namespace, "flaky"));
			assertThat(sites.cleanups("flaky")).extracting(Call::attempt).containsExactly(1, 2, 3);
			// every attempt found the object still on the server, holding the finalizer
			assertThat(sites.cleanups("flaky")).extracting(Call::serverFinalizers).containsOnly(List.of(FINALIZER));
		});
	}

	@Test
	void anotherFinalizerSurvivesTheAddAndTheRemove(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		Sites sites = new Sites(api, namespace);
		run(controlPlane, namespace, Sites.class, sites, () -> {
			create(api, namespace, "shared", List.of(OTHER));
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(sites.reconciled("shared")).hasSize(1));
			assertThat(sites.reconciled("shared").get(0).serverFinalizers()).containsExactly(OTHER, FINALIZER);
			api.deleteNamespacedConfigMap("shared", namespace.name()).execute();
			await().atMost(TIMEOUT)
				.until(() -> List.of(OTHER)
					.equals(api.readNamespacedConfigMap("shared", namespace.name())
						.execute()
						.getMetadata()
						.getFinalizers()));
			assertThat(sites.cleanups("shared")).hasSize(1);
			// the other finalizer's owner lets go: the delete completes
			PatchUtils.patch(V1ConfigMap.class,
					() -> api
						.patchNamespacedConfigMap("shared", namespace.name(),
								new V1Patch("{\"metadata\":{\"finalizers\":null}}"))
						.buildCall(null),
					V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
			await().atMost(TIMEOUT).until(() -> gone(api, namespace, "shared"));
		});
	}

	@Test
	void objectBeingDeletedWithoutTheFinalizerGetsNoCall(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) throws Exception {
		CoreV1Api api = new CoreV1Api(client);
		// held by another finalizer only, and being deleted before the handler starts
		create(api, namespace, "leaving", List.of(OTHER));
		api.deleteNamespacedConfigMap("leaving", namespace.name()).execute();
		Sites sites = new Sites(api, namespace);
		run(controlPlane, namespace, Sites.class, sites, () -> {
			// the sentinel: a later object that must be reconciled
			create(api, namespace, "sentinel", List.of());
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(sites.reconciled("sentinel")).hasSize(1));
			assertThat(sites.reconciled("leaving")).isEmpty();
			assertThat(sites.cleanups("leaving")).isEmpty();
			assertThat(api.readNamespacedConfigMap("leaving", namespace.name()).execute().getMetadata().getFinalizers())
				.containsExactly(OTHER);
		});
	}

	@Test
	void typedCustomResourceGetsItsFinalizerAndItsCleanup(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) throws Exception {
		DynamicKubernetesApi gizmos = new DynamicKubernetesApi("typed.kubeop.test", "v1", "gizmos", client);
		Gizmos handler = new Gizmos();
		run(controlPlane, namespace, Gizmos.class, handler, () -> {
			JsonObject gizmo = JsonParser
				.parseString("{\"apiVersion\":\"typed.kubeop.test/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":"
						+ "\"small\",\"namespace\":\"" + namespace.name() + "\"},\"spec\":{\"size\":3}}")
				.getAsJsonObject();
			assertThat(gizmos.create(new DynamicKubernetesObject(gizmo)).isSuccess()).isTrue();
			await().atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(handler.reconciled)
					.filteredOn((candidate) -> "small".equals(candidate.getMetadata().getName()))
					.hasSize(1));
			Gizmo first = handler.reconciled.stream()
				.filter((candidate) -> "small".equals(candidate.getMetadata().getName()))
				.findFirst()
				.get();
			assertThat(first.getMetadata().getFinalizers()).containsExactly(FINALIZER);
			assertThat(first.getSpec().size()).isEqualTo(3);
			assertThat(gizmos.delete(namespace.name(), "small").isSuccess()).isTrue();
			await().atMost(TIMEOUT).until(() -> gizmos.get(namespace.name(), "small").getHttpStatusCode() == 404);
			assertThat(handler.cleanedUp).filteredOn((cleanup) -> cleanup.startsWith("small "))
				.containsExactly("small size=3");
		});
	}

	@Test
	void dynamicObjectsGetTheirFinalizerAndTheirCleanup(ControlPlane controlPlane, TestNamespace namespace,
			ApiClient client) throws Exception {
		DynamicKubernetesApi gizmos = new DynamicKubernetesApi("typed.kubeop.test", "v1", "gizmos", client);
		DynamicGizmos handler = new DynamicGizmos();
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(),
					"kubeop.informers.resources.dynamicGizmos.api-version=typed.kubeop.test/v1",
					"kubeop.informers.resources.dynamicGizmos.kind=Gizmo",
					"kubeop.informers.resources.dynamicGizmos.type=" + DynamicKubernetesObject.class.getName())
			.withBean(DynamicGizmos.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JsonObject gizmo = JsonParser
					.parseString("{\"apiVersion\":\"typed.kubeop.test/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":"
							+ "\"plain\",\"namespace\":\"" + namespace.name() + "\"},\"spec\":{\"size\":5}}")
					.getAsJsonObject();
				assertThat(gizmos.create(new DynamicKubernetesObject(gizmo)).isSuccess()).isTrue();
				await().atMost(TIMEOUT).untilAsserted(() -> assertThat(handler.added("plain")).hasSize(1));
				assertThat(handler.added("plain").get(0).getMetadata().getFinalizers()).containsExactly(FINALIZER);
				assertThat(gizmos.delete(namespace.name(), "plain").isSuccess()).isTrue();
				await().atMost(TIMEOUT).until(() -> gizmos.get(namespace.name(), "plain").getHttpStatusCode() == 404);
				assertThat(handler.cleanedUp).filteredOn("plain"::equals).containsExactly("plain");
			});
	}

	private <H> void run(ControlPlane controlPlane, TestNamespace namespace, Class<H> type, H handler,
			ThrowingRunnable test) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(type, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				test.run();
			});
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name, List<String> finalizers)
			throws ApiException {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(name).finalizers(finalizers.isEmpty() ? null : finalizers))
					.data(Map.of("k", "v")))
			.execute();
	}

	private static boolean gone(CoreV1Api api, TestNamespace namespace, String name) {
		try {
			api.readNamespacedConfigMap(name, namespace.name()).execute();
			return false;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return true;
			}
			throw new IllegalStateException(ex);
		}
	}

	@FunctionalInterface
	interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * One call, with what the object said and what the server said during the call.
	 */
	record Call(String name, Trigger trigger, int attempt, boolean deleting, List<String> finalizers,
			List<String> serverFinalizers) {

	}

	static class Sites {

		final List<Call> reconciled = new CopyOnWriteArrayList<>();

		final List<Call> cleanups = new CopyOnWriteArrayList<>();

		final List<String> deleted = new CopyOnWriteArrayList<>();

		private final CoreV1Api api;

		private final TestNamespace namespace;

		volatile CountDownLatch release;

		volatile int failures;

		Sites(CoreV1Api api, TestNamespace namespace) {
			this.api = api;
			this.namespace = namespace;
		}

		@Reconcile
		void reconcile(V1ConfigMap site, HandlerContext context) throws ApiException {
			this.reconciled.add(call(site, context));
		}

		@Cleanup(finalizer = FINALIZER)
		void cleanUp(V1ConfigMap site, HandlerContext context) throws Exception {
			this.cleanups.add(call(site, context));
			if (this.release != null && !this.release.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				throw new IllegalStateException("not released");
			}
			if (context.attempt() <= this.failures) {
				throw new IllegalStateException("cleanup failed, attempt " + context.attempt());
			}
		}

		@OnDelete
		void deleted(V1ConfigMap site) {
			this.deleted.add(site.getMetadata().getName());
		}

		List<Call> reconciled(String name) {
			return this.reconciled.stream().filter((call) -> call.name().equals(name)).toList();
		}

		List<Call> cleanups(String name) {
			return this.cleanups.stream().filter((call) -> call.name().equals(name)).toList();
		}

		private Call call(V1ConfigMap site, HandlerContext context) throws ApiException {
			V1ObjectMeta metadata = site.getMetadata();
			List<String> serverFinalizers;
			try {
				serverFinalizers = this.api.readNamespacedConfigMap(metadata.getName(), this.namespace.name())
					.execute()
					.getMetadata()
					.getFinalizers();
			}
			catch (ApiException ex) {
				if (ex.getCode() != 404) {
					throw ex;
				}
				// gone from the server: recorded, so that a test can tell
				serverFinalizers = List.of("(gone)");
			}
			return new Call(metadata.getName(), context.trigger(), context.attempt(),
					metadata.getDeletionTimestamp() != null, metadata.getFinalizers(), serverFinalizers);
		}

	}

	static class Gizmos {

		final List<Gizmo> reconciled = new CopyOnWriteArrayList<>();

		final List<String> cleanedUp = new CopyOnWriteArrayList<>();

		@Reconcile
		void reconcile(Gizmo gizmo) {
			this.reconciled.add(gizmo);
		}

		@Cleanup(finalizer = FINALIZER)
		void cleanUp(Gizmo gizmo) {
			this.cleanedUp.add(gizmo.getMetadata().getName() + " size=" + gizmo.getSpec().size());
		}

	}

	static class DynamicGizmos {

		final List<DynamicKubernetesObject> added = new CopyOnWriteArrayList<>();

		final List<String> cleanedUp = new CopyOnWriteArrayList<>();

		@OnAdd(informer = "dynamicGizmos")
		void added(DynamicKubernetesObject gizmo) {
			this.added.add(gizmo);
		}

		List<DynamicKubernetesObject> added(String name) {
			return this.added.stream().filter((gizmo) -> gizmo.getMetadata().getName().equals(name)).toList();
		}

		@Cleanup(finalizer = FINALIZER, informer = "dynamicGizmos")
		void cleanUp(DynamicKubernetesObject gizmo) {
			this.cleanedUp.add(gizmo.getMetadata().getName());
		}

	}

}
