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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.github.kubeop.annotation.Cleanup;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.Reconcile;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.Component;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.PatchUtils;
import okhttp3.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Objects applied from a handler are owned by the handled object, and go with it: the
 * garbage collector of a real kube-controller-manager deletes them. Ownership is never
 * taken from another controller, and a delete call owns nothing.
 *
 * @author Kubeop authors
 */
@KubernetesTest(components = Component.CONTROLLER_MANAGER)
@ExtendWith(OutputCaptureExtension.class)
class OwnedObjectsIntegrationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@Test
	void appliedObjectIsControlledByTheHandledOneAndCollectedWithIt(ControlPlane controlPlane,
			TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Copier copier = new Copier();
		this.runner.withBean(io.kubernetes.client.openapi.ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Copier.class, () -> copier)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				copier.template = context.getBean(KubernetesTemplate.class);
				V1ConfigMap source = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().name("source").labels(Map.of("role", "source")))
								.data(Map.of("greeting", "hello")))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> exists(api, namespace, "source-copy"));
				V1ConfigMap copy = api.readNamespacedConfigMap("source-copy", namespace.name()).execute();
				assertThat(copy.getData()).containsEntry("greeting", "hello");
				assertThat(copy.getMetadata().getOwnerReferences()).singleElement().satisfies((owner) -> {
					assertThat(owner)
						.extracting(V1OwnerReference::getApiVersion, V1OwnerReference::getKind,
								V1OwnerReference::getName, V1OwnerReference::getUid, V1OwnerReference::getController,
								V1OwnerReference::getBlockOwnerDeletion)
						.containsExactly("v1", "ConfigMap", "source", source.getMetadata().getUid(), true, true);
				});
				api.deleteNamespacedConfigMap("source", namespace.name()).execute();
				// nothing of Kubeop deletes the copy: the garbage collector does
				await().atMost(Duration.ofSeconds(60)).until(() -> !exists(api, namespace, "source-copy"));
			});
	}

	@Test
	void objectAppliedInOnDeleteIsNotOwnedByTheDeadObjectAndSurvivesIt(ControlPlane controlPlane,
			TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Tombstoner tombstoner = new Tombstoner();
		this.runner.withBean(io.kubernetes.client.openapi.ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Tombstoner.class, () -> tombstoner)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				tombstoner.template = context.getBean(KubernetesTemplate.class);
				for (String name : List.of("departed", "witness")) {
					api.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("role", "queue"))))
						.execute();
				}
				await().atMost(Duration.ofSeconds(30))
					.until(() -> exists(api, namespace, "departed-owned") && exists(api, namespace, "witness-owned"));
				api.deleteNamespacedConfigMap("departed", namespace.name()).execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> tombstoner.tombstone != null);
				assertThat(tombstoner.tombstone.getMetadata().getOwnerReferences()).isNullOrEmpty();
				assertThat(api.readNamespacedConfigMap("departed-tombstone", namespace.name())
					.execute()
					.getMetadata()
					.getOwnerReferences()).isNullOrEmpty();
				// the sentinel: the garbage collector, which sees ConfigMap events in
				// order,
				// collects what the witness owned after it saw the tombstone appear
				api.deleteNamespacedConfigMap("witness", namespace.name()).execute();
				await().atMost(Duration.ofSeconds(60)).until(() -> !exists(api, namespace, "witness-owned"));
				await().atMost(Duration.ofSeconds(60)).until(() -> !exists(api, namespace, "departed-owned"));
				assertThat(exists(api, namespace, "departed-tombstone")).isTrue();
			});
	}

	@Test
	void cleanupOwnsNothingNewButWhatTheObjectOwnsStillGoesWithIt(ControlPlane controlPlane, TestNamespace namespace) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Drainer drainer = new Drainer();
		this.runner.withBean(io.kubernetes.client.openapi.ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Drainer.class, () -> drainer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				drainer.template = context.getBean(KubernetesTemplate.class);
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("pool").labels(Map.of("role", "pool"))))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> exists(api, namespace, "pool-owned"));
				api.deleteNamespacedConfigMap("pool", namespace.name()).execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> exists(api, namespace, "pool-record"));
				assertThat(api.readNamespacedConfigMap("pool-record", namespace.name())
					.execute()
					.getMetadata()
					.getOwnerReferences()).isNullOrEmpty();
				// what the pool owned, updated by the cleanup, still goes with it; that
				// is the sentinel for the record, which the garbage collector leaves
				await().atMost(Duration.ofSeconds(60)).until(() -> !exists(api, namespace, "pool-owned"));
				assertThat(exists(api, namespace, "pool")).isFalse();
				assertThat(exists(api, namespace, "pool-record")).isTrue();
			});
	}

	@Test
	void objectControlledByAnotherPrimaryIsNotTaken(ControlPlane controlPlane, TestNamespace namespace,
			CapturedOutput output) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		Sharer sharer = new Sharer();
		this.runner.withBean(io.kubernetes.client.openapi.ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Sharer.class, () -> sharer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				sharer.template = context.getBean(KubernetesTemplate.class);
				V1ConfigMap first = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap()
								.metadata(new V1ObjectMeta().name("first").labels(Map.of("role", "sharer"))))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> exists(api, namespace, "shared-cm"));
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name("second").labels(Map.of("role", "sharer"))))
					.execute();
				await().atMost(Duration.ofSeconds(30)).until(() -> !sharer.refused.isEmpty());
				assertThat(sharer.refused.get(0).getOwner().getUid()).isEqualTo(first.getMetadata().getUid());
				assertThat(sharer.refused.get(0)).hasMessageContaining(
						"ConfigMap '" + namespace.name() + "/shared-cm' is already controlled by ConfigMap 'first'");
				assertThat(api.readNamespacedConfigMap("shared-cm", namespace.name())
					.execute()
					.getMetadata()
					.getOwnerReferences()).singleElement()
					.satisfies((owner) -> assertThat(owner.getUid()).isEqualTo(first.getMetadata().getUid()));
				await().atMost(Duration.ofSeconds(30))
					.until(() -> output.getOut().contains("failed for " + namespace.name() + "/second"));
			});
	}

	@Test
	void controllerReferenceWrittenBetweenCheckAndApplyIsNotReplacedWhenTheObjectIsNew(ControlPlane controlPlane,
			TestNamespace namespace) {
		controllerReferenceWrittenBetweenCheckAndApplyIsNotReplaced(controlPlane, namespace, "new", false);
	}

	@Test
	void controllerReferenceWrittenBetweenCheckAndApplyIsNotReplacedWhenTheObjectExists(ControlPlane controlPlane,
			TestNamespace namespace) {
		controllerReferenceWrittenBetweenCheckAndApplyIsNotReplaced(controlPlane, namespace, "existing", true);
	}

	/**
	 * The race of two primaries applying one object: the second's check sees no
	 * controller, and the first's handler (same field manager) applies its controller
	 * reference just before the second's apply reaches the server. An interceptor on the
	 * second's apply makes that order certain.
	 */
	private void controllerReferenceWrittenBetweenCheckAndApplyIsNotReplaced(ControlPlane controlPlane,
			TestNamespace namespace, String variant, boolean existsUncontrolled) {
		CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
		String contestedName = "contested-" + variant;
		String secondName = "latecomer-" + variant;
		Latecomer latecomer = new Latecomer();
		AtomicReference<Runnable> firstApplies = new AtomicReference<>();
		AtomicBoolean raced = new AtomicBoolean();
		ApiClient client = controlPlane.apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			Request request = chain.request();
			if (request.method().equals("PATCH") && request.url().encodedPath().endsWith("/configmaps/" + contestedName)
					&& firstApplies.get() != null && raced.compareAndSet(false, true)) {
				firstApplies.get().run();
			}
			return chain.proceed(request);
		}).build());
		this.runner.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withBean(Latecomer.class, () -> latecomer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				KubernetesTemplate template = context.getBean(KubernetesTemplate.class);
				latecomer.template = template;
				V1ConfigMap first = api
					.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name("claimer-" + variant)))
					.execute();
				if (existsUncontrolled) {
					api.createNamespacedConfigMap(namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(contestedName)))
						.execute();
				}
				firstApplies.set(() -> applyAsFirstPrimary(controlPlane.apiClient(), template.getFieldManager(),
						namespace, contestedName, first));
				api.createNamespacedConfigMap(namespace.name(),
						new V1ConfigMap()
							.metadata(new V1ObjectMeta().name(secondName).labels(Map.of("role", "latecomer")))
							.data(Map.of("applies", contestedName)))
					.execute();
				await("latecomer applied or refused").atMost(Duration.ofSeconds(60))
					.until(() -> latecomer.refused.containsKey(secondName) || latecomer.applied.contains(secondName));
				V1ConfigMap contested = api.readNamespacedConfigMap(contestedName, namespace.name()).execute();
				assertThat(contested.getMetadata().getOwnerReferences()).singleElement()
					.satisfies((owner) -> assertThat(owner.getUid())
						.as("controller of %s (%s is the latecomer's)", contestedName, owner.getName())
						.isEqualTo(first.getMetadata().getUid()));
				assertThat(contested.getData()).containsEntry("by", first.getMetadata().getName());
				assertThat(latecomer.applied).doesNotContain(secondName);
				assertThat(raced).isTrue();
				assertThat(latecomer.refused.get(secondName).getOwner().getUid())
					.isEqualTo(first.getMetadata().getUid());
			});
	}

	/**
	 * Applies the contested object as the first primary's handler would have: its
	 * controller reference, under the same field manager.
	 */
	private static void applyAsFirstPrimary(ApiClient client, String fieldManager, TestNamespace namespace, String name,
			V1ConfigMap first) {
		String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\","
				+ "\"namespace\":\"" + namespace.name() + "\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
				+ "\"kind\":\"ConfigMap\",\"name\":\"" + first.getMetadata().getName() + "\",\"uid\":\""
				+ first.getMetadata().getUid() + "\",\"controller\":true,\"blockOwnerDeletion\":true}]},"
				+ "\"data\":{\"by\":\"" + first.getMetadata().getName() + "\"}}";
		try {
			PatchUtils.patch(V1ConfigMap.class,
					() -> new CoreV1Api(client).patchNamespacedConfigMap(name, namespace.name(), new V1Patch(body))
						.fieldManager(fieldManager)
						.force(true)
						.buildCall(null),
					V1Patch.PATCH_FORMAT_APPLY_YAML, client);
		}
		catch (ApiException ex) {
			throw new IllegalStateException(ex.getResponseBody(), ex);
		}
	}

	private static boolean exists(CoreV1Api api, TestNamespace namespace, String name) throws ApiException {
		try {
			api.readNamespacedConfigMap(name, namespace.name()).execute();
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * Applies a copy of every source ConfigMap's data.
	 */
	static class Copier {

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=source")
		void reconcile(V1ConfigMap source) throws ApiException {
			this.template.apply(
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(source.getMetadata().getName() + "-copy")
							.namespace(source.getMetadata().getNamespace()))
						.data(source.getData()));
		}

	}

	/**
	 * Applies an owned ConfigMap for each queue, and a tombstone for each queue deleted.
	 */
	static class Tombstoner {

		volatile KubernetesTemplate template;

		volatile V1ConfigMap tombstone;

		@Reconcile(labelSelector = "role=queue")
		void reconcile(V1ConfigMap queue) throws ApiException {
			this.template
				.apply(new V1ConfigMap().metadata(new V1ObjectMeta().name(queue.getMetadata().getName() + "-owned")
					.namespace(queue.getMetadata().getNamespace())));
		}

		@OnDelete(labelSelector = "role=queue")
		void departed(V1ConfigMap queue) throws ApiException {
			this.tombstone = this.template.apply(new V1ConfigMap()
				.metadata(new V1ObjectMeta().name(queue.getMetadata().getName() + "-tombstone")
					.namespace(queue.getMetadata().getNamespace()))
				.data(Map.of("departed", queue.getMetadata().getUid())));
		}

	}

	/**
	 * Applies an owned ConfigMap for each pool; its cleanup marks that one draining and
	 * leaves a record behind.
	 */
	static class Drainer {

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=pool")
		void reconcile(V1ConfigMap pool) throws ApiException {
			apply(pool, "-owned", Map.of("state", "serving"));
		}

		@Cleanup(finalizer = "test.kubeop.io/drain")
		void cleanup(V1ConfigMap pool) throws ApiException {
			apply(pool, "-owned", Map.of("state", "draining"));
			apply(pool, "-record", Map.of("drained", pool.getMetadata().getUid()));
		}

		private void apply(V1ConfigMap pool, String suffix, Map<String, String> data) throws ApiException {
			this.template.apply(
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(pool.getMetadata().getName() + suffix)
							.namespace(pool.getMetadata().getNamespace()))
						.data(data));
		}

	}

	/**
	 * Applies the ConfigMap its primary names, which another primary may claim first.
	 */
	static class Latecomer {

		final Map<String, AlreadyOwnedException> refused = new ConcurrentHashMap<>();

		final Set<String> applied = ConcurrentHashMap.newKeySet();

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=latecomer")
		void reconcile(V1ConfigMap latecomer) throws ApiException {
			try {
				this.template.apply(new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(latecomer.getData().get("applies"))
						.namespace(latecomer.getMetadata().getNamespace()))
					.data(Map.of("by", latecomer.getMetadata().getName())));
				this.applied.add(latecomer.getMetadata().getName());
			}
			catch (AlreadyOwnedException ex) {
				this.refused.putIfAbsent(latecomer.getMetadata().getName(), ex);
				throw ex;
			}
		}

	}

	/**
	 * Applies one ConfigMap of a fixed name from every sharer: a mistake the template
	 * must refuse rather than hand the object from owner to owner.
	 */
	static class Sharer {

		final List<AlreadyOwnedException> refused = new CopyOnWriteArrayList<>();

		volatile KubernetesTemplate template;

		@Reconcile(labelSelector = "role=sharer")
		void reconcile(V1ConfigMap sharer) throws ApiException {
			try {
				this.template.apply(new V1ConfigMap()
					.metadata(new V1ObjectMeta().name("shared-cm").namespace(sharer.getMetadata().getNamespace()))
					.data(Map.of("by", sharer.getMetadata().getName())));
			}
			catch (AlreadyOwnedException ex) {
				this.refused.add(ex);
				throw ex;
			}
		}

	}

}
