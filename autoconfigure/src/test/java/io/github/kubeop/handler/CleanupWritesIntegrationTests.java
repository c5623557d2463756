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

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.write.KubernetesTemplate;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handlers that write the object they handle, against a real API server, which alone
 * decides the conflicts their writes cause: a cleanup that writes its own object runs
 * once and lets the object go, and nothing a handler's writes leave per key outlives the
 * key.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class CleanupWritesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String FINALIZER = "cleanup.kubeop.test/writes";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void cleanupThatWritesItsObjectRunsOnceAndTheObjectGoes(ControlPlane controlPlane, TestNamespace namespace) {
		Terminating handler = new Terminating(true);
		run(controlPlane, namespace, handler, (context) -> {
			CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
			create(api, namespace, "leaving");
			await().atMost(TIMEOUT).until(() -> handler.reconciled.contains("leaving"));
			api.deleteNamespacedConfigMap("leaving", namespace.name()).execute();
			// a second cleanup call, or the delete handled, whichever comes first: the
			// delete reaches @OnDelete only after every earlier change of the key
			await().atMost(TIMEOUT)
				.until(() -> handler.deleted.contains("leaving") || handler.cleanups("leaving").size() > 1);
			assertThat(handler.cleanups("leaving")).as("cleanup calls for one delete").containsExactly("attempt-1");
			assertThat(handler.deleted).contains("leaving");
			assertThat(gone(api, namespace, "leaving")).isTrue();
		});
	}

	@Test
	void cleanupRunsOnceWhenItsFinalizerRemovalFailsAFewTimes(ControlPlane controlPlane, TestNamespace namespace) {
		Terminating handler = new Terminating(false);
		FailingRemovals removals = new FailingRemovals(namespace, "refused", 3);
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(removals).build());
		run(() -> client, namespace, handler, (context) -> {
			CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
			create(api, namespace, "refused");
			await().atMost(TIMEOUT).until(() -> handler.reconciled.contains("refused"));
			// the finalizer is on: from now on every merge patch of the object is its
			// removal
			removals.arm();
			api.deleteNamespacedConfigMap("refused", namespace.name()).execute();
			// the delete reaches @OnDelete only once the object is gone, after every
			// cleanup call and removal
			await().atMost(TIMEOUT).until(() -> handler.deleted.contains("refused"));
			assertThat(removals.refused()).as("removals answered 500").isEqualTo(3);
			assertThat(handler.cleanups("refused")).as("cleanup calls for one delete").containsExactly("attempt-1");
			assertThat(gone(api, namespace, "refused")).isTrue();
		});
	}

	@Test
	void nothingOfADeletedKeyStaysWhenItsLastCallWrote(ControlPlane controlPlane, TestNamespace namespace) {
		// the reconcile writes the object, the cleanup only through the finalizer's
		// removal
		Terminating handler = new Terminating(false);
		int primaries = 10;
		run(controlPlane, namespace, handler, (context) -> {
			CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
			for (int i = 0; i < primaries; i++) {
				create(api, namespace, "churn-" + i);
			}
			await().atMost(TIMEOUT)
				.until(() -> handler.reconciled.stream()
					.filter((name) -> name.startsWith("churn-"))
					.distinct()
					.count() == primaries);
			for (int i = 0; i < primaries; i++) {
				api.deleteNamespacedConfigMap("churn-" + i, namespace.name()).execute();
			}
			for (int i = 0; i < primaries; i++) {
				String name = "churn-" + i;
				await().atMost(TIMEOUT).until(() -> handler.deleted.contains(name));
			}
			// the sentinel: created and deleted after the others, its delete handled
			create(api, namespace, "sentinel");
			await().atMost(TIMEOUT).until(() -> handler.reconciled.contains("sentinel"));
			api.deleteNamespacedConfigMap("sentinel", namespace.name()).execute();
			await().atMost(TIMEOUT).until(() -> handler.deleted.contains("sentinel"));
			// the bookkeeping of the last delete follows its call: waited for, bounded
			Controller<?> controller = context.getBean(HandlerRegistrar.class).controllers().iterator().next();
			await().atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(controller.retainedKeys())
					.as("per-key entries held after every key was deleted")
					.isZero());
		});
	}

	private void run(ControlPlane controlPlane, TestNamespace namespace, Terminating handler,
			ThrowingConsumer<AssertableApplicationContext> test) {
		run(controlPlane::apiClient, namespace, handler, test);
	}

	private void run(Supplier<ApiClient> client, TestNamespace namespace, Terminating handler,
			ThrowingConsumer<AssertableApplicationContext> test) {
		this.runner.withBean(ApiClient.class, client)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Terminating.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				handler.template = context.getBean(KubernetesTemplate.class);
				test.accept(context);
			});
	}

	private static void create(CoreV1Api api, TestNamespace namespace, String name) throws ApiException {
		api.createNamespacedConfigMap(namespace.name(),
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("k", "v")))
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

	/**
	 * Answers the first removals of one object's finalizer with a 500, as an API server
	 * in trouble would, before the request reaches it: the merge patches of that object
	 * once armed (the handler writes it otherwise only by server-side apply).
	 */
	static final class FailingRemovals implements Interceptor {

		private final String path;

		private final int failures;

		private final AtomicInteger refused = new AtomicInteger();

		private volatile boolean armed;

		FailingRemovals(TestNamespace namespace, String name, int failures) {
			this.path = "/api/v1/namespaces/" + namespace.name() + "/configmaps/" + name;
			this.failures = failures;
		}

		void arm() {
			this.armed = true;
		}

		int refused() {
			return this.refused.get();
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			Request request = chain.request();
			MediaType type = (request.body() != null) ? request.body().contentType() : null;
			if (this.armed && "PATCH".equals(request.method()) && request.url().encodedPath().equals(this.path)
					&& type != null && "merge-patch+json".equals(type.subtype())
					&& this.refused.getAndUpdate((n) -> (n < this.failures) ? n + 1 : n) < this.failures) {
				return new Response.Builder().request(request)
					.protocol(Protocol.HTTP_1_1)
					.code(500)
					.message("Internal Server Error")
					.body(ResponseBody.create(
							"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
									+ "\"message\":\"injected by the test\",\"reason\":\"InternalError\",\"code\":500}",
							MediaType.get("application/json")))
					.build();
			}
			return chain.proceed(request);
		}

	}

	@FunctionalInterface
	interface ThrowingConsumer<T> {

		void accept(T value) throws Exception;

	}

	/**
	 * Writes its object: the reconcile marks it, the cleanup (if asked to) writes which
	 * attempt it is, differently each time, as a "Terminating" status would.
	 */
	static class Terminating {

		final List<String> reconciled = new CopyOnWriteArrayList<>();

		final List<String> cleanups = new CopyOnWriteArrayList<>();

		final List<String> deleted = new CopyOnWriteArrayList<>();

		private final boolean cleanupWrites;

		volatile KubernetesTemplate template;

		Terminating(boolean cleanupWrites) {
			this.cleanupWrites = cleanupWrites;
		}

		@Reconcile
		void reconcile(V1ConfigMap configMap) throws ApiException {
			V1ObjectMeta metadata = configMap.getMetadata();
			this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name(metadata.getName()).namespace(metadata.getNamespace()))
				.data(Map.of("reconciled", "yes")));
			this.reconciled.add(metadata.getName());
		}

		@Cleanup(finalizer = FINALIZER)
		void cleanUp(V1ConfigMap configMap) throws ApiException {
			V1ObjectMeta metadata = configMap.getMetadata();
			String attempt = "attempt-" + (cleanups(metadata.getName()).size() + 1);
			this.cleanups.add(metadata.getName() + " " + attempt);
			if (!this.cleanupWrites) {
				return;
			}
			this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name(metadata.getName()).namespace(metadata.getNamespace()))
				.data(Map.of("reconciled", "yes", "terminating", attempt)));
		}

		@OnDelete
		void deleted(V1ConfigMap configMap) {
			this.deleted.add(configMap.getMetadata().getName());
		}

		List<String> cleanups(String name) {
			return this.cleanups.stream()
				.filter((cleanup) -> cleanup.startsWith(name + " "))
				.map((cleanup) -> cleanup.substring(name.length() + 1))
				.toList();
		}

	}

}
