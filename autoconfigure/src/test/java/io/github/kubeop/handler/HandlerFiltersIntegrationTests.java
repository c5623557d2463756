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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.autoconfigure.KubeopClientAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopHandlersAutoConfiguration;
import io.github.kubeop.autoconfigure.KubeopInformersAutoConfiguration;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handler filters, owned objects and handler beans created late, against a real API
 * server. Absence is proven with a sentinel: an object written after the ones that must
 * not be handled, handled by the same single worker, whose call means that every earlier
 * key has been dealt with.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class HandlerFiltersIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static CoreV1Api api;

	private static String otherNamespace;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class));

	@BeforeAll
	static void client(ApiClient apiClient, TestNamespace namespace) throws ApiException {
		api = new CoreV1Api(apiClient);
		otherNamespace = namespace.name() + "-other";
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(otherNamespace))).execute();
	}

	@AfterAll
	static void deleteOtherNamespace() throws ApiException {
		api.deleteNamespace(otherNamespace).execute();
	}

	private ApplicationContextRunner runner(ControlPlane controlPlane, TestNamespace namespace, String... properties) {
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name(), "kubeop.handlers.workers=1")
			.withPropertyValues(properties);
	}

	@Test
	void labelSelectorsTreatAMissingKeyAsKubernetesDoes(ControlPlane controlPlane, TestNamespace namespace) {
		InSelector in = new InSelector();
		NotInSelector notIn = new NotInSelector();
		runner(controlPlane, namespace).withBean(InSelector.class, () -> in)
			.withBean(NotInSelector.class, () -> notIn)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace.name(), "keys-bare", null);
				create(namespace.name(), "keys-other", Map.of("other", "x"));
				create(namespace.name(), "keys-db", Map.of("tier", "db"));
				create(namespace.name(), "keys-web", Map.of("tier", "web"));
				create(namespace.name(), "keys-sentinel", Map.of("tier", "cache"));
				await().atMost(TIMEOUT)
					.until(() -> in.added.contains("keys-sentinel") && notIn.added.contains("keys-sentinel"));
				assertThat(startingWith("keys-", in.added)).containsExactlyInAnyOrder("keys-web", "keys-sentinel");
				assertThat(startingWith("keys-", notIn.added)).containsExactlyInAnyOrder("keys-bare", "keys-other",
						"keys-web", "keys-sentinel");
			});
	}

	@Test
	void namespaceFilterAndNotinSelectObjectsLackingTheKey(ControlPlane controlPlane, TestNamespace namespace) {
		// no informer namespaces: one watch over every namespace delivers in one order,
		// so
		// the sentinel comes after the object written before it in the other namespace
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.handlers.workers=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<String> added = new CopyOnWriteArrayList<>();
				context.getBean(HandlerRegistrar.class)
					.register(HandlerEndpoint.builder("namespaced", V1ConfigMap.class)
						.namespaces(namespace.name())
						.labelSelector("tier notin (db)")
						.onAdd((configMap) -> added
							.add(configMap.getMetadata().getNamespace() + "/" + configMap.getMetadata().getName()))
						.build());
				create(otherNamespace, "ns-elsewhere", null);
				create(namespace.name(), "ns-bare", null);
				create(namespace.name(), "ns-db", Map.of("tier", "db"));
				create(otherNamespace, "ns-elsewhere-web", Map.of("tier", "web"));
				create(namespace.name(), "ns-sentinel", Map.of("tier", "web"));
				await().atMost(TIMEOUT).until(() -> added.contains(namespace.name() + "/ns-sentinel"));
				assertThat(added.stream().filter((key) -> key.contains("/ns-")))
					.containsExactlyInAnyOrder(namespace.name() + "/ns-bare", namespace.name() + "/ns-sentinel");
			});
	}

	@Test
	void objectLeavingTheSelectorIsDeletedAsLastSeenAndAddedWhenItReturns(ControlPlane controlPlane,
			TestNamespace namespace) {
		WebTier handler = new WebTier();
		runner(controlPlane, namespace).withBean(WebTier.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			create(namespace.name(), "mover", Map.of("tier", "web"), Map.of("version", "1"));
			await().atMost(TIMEOUT).until(() -> handler.added.size() == 1);
			V1ConfigMap seen = handler.added.get(0);
			// the label key goes away entirely, and the data changes with it
			V1ConfigMap left = api.readNamespacedConfigMap("mover", namespace.name()).execute();
			left.getMetadata().setLabels(null);
			left.setData(Map.of("version", "2"));
			api.replaceNamespacedConfigMap("mover", namespace.name(), left).execute();
			await().atMost(TIMEOUT).until(() -> handler.deleted.size() == 1);
			V1ConfigMap finalState = handler.deleted.get(0);
			assertThat(finalState.getMetadata().getResourceVersion())
				.isEqualTo(seen.getMetadata().getResourceVersion());
			assertThat(finalState.getMetadata().getLabels()).containsEntry("tier", "web");
			assertThat(finalState.getData()).containsEntry("version", "1");
			V1ConfigMap back = api.readNamespacedConfigMap("mover", namespace.name()).execute();
			back.getMetadata().setLabels(Map.of("tier", "web"));
			back.setData(Map.of("version", "3"));
			api.replaceNamespacedConfigMap("mover", namespace.name(), back).execute();
			await().atMost(TIMEOUT).until(() -> handler.added.size() == 2);
			assertThat(handler.added.get(1).getData()).containsEntry("version", "3");
			assertThat(handler.deleted).hasSize(1);
		});
	}

	@Test
	void objectLeavingTheSelectorWhileItsAddRunsIsDeleted(ControlPlane controlPlane, TestNamespace namespace) {
		BlockingWebTier handler = new BlockingWebTier();
		runner(controlPlane, namespace, "kubeop.handlers.workers=2").withBean(BlockingWebTier.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace.name(), "racer", Map.of("tier", "web"));
				assertThat(handler.blocked.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
				V1ConfigMap left = api.readNamespacedConfigMap("racer", namespace.name()).execute();
				left.getMetadata().setLabels(Map.of("tier", "db"));
				api.replaceNamespacedConfigMap("racer", namespace.name(), left).execute();
				// the second worker handling a later object of the same watch means that
				// the
				// racer's change has passed the informer callback
				create(namespace.name(), "racer-sentinel", Map.of("tier", "web"));
				await().atMost(TIMEOUT).until(() -> handler.added.contains("racer-sentinel"));
				handler.release.countDown();
				await().atMost(TIMEOUT).until(() -> handler.deleted.contains("racer"));
			});
	}

	@Test
	void namespaceFilterOnAClusterScopedKindFailsStartupNamingTheAttribute(ControlPlane controlPlane,
			TestNamespace namespace) {
		this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withBean("namespacesOfNamespaces", NamespacesOfNamespaces.class, NamespacesOfNamespaces::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("Handler 'namespacesOfNamespaces' is limited to namespaces [default]")
					.hasMessageContaining("is cluster-scoped")
					.hasMessageContaining("Remove the 'namespaces' attribute");
			});
	}

	@Test
	void movedControllerReferenceTriggersTheOldAndTheNewOwner(ControlPlane controlPlane, TestNamespace namespace) {
		SecretOwner handler = new SecretOwner();
		runner(controlPlane, namespace).withBean(SecretOwner.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			V1Secret ownerA = createSecret(namespace.name(), "owner-a");
			V1Secret ownerB = createSecret(namespace.name(), "owner-b");
			await().atMost(TIMEOUT).until(() -> handler.added.containsAll(List.of("owner-a", "owner-b")));
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("moving-owned")
						.addOwnerReferencesItem(controllerReference("v1", "Secret", ownerA))))
				.execute();
			await().atMost(TIMEOUT).until(() -> handler.ownerTriggers("owner-a") >= 1);
			int triggersOfA = handler.ownerTriggers("owner-a");
			int triggersOfB = handler.ownerTriggers("owner-b");
			V1ConfigMap owned = api.readNamespacedConfigMap("moving-owned", namespace.name()).execute();
			owned.getMetadata().setOwnerReferences(List.of(controllerReference("v1", "Secret", ownerB)));
			api.replaceNamespacedConfigMap("moving-owned", namespace.name(), owned).execute();
			await().atMost(TIMEOUT).until(() -> handler.ownerTriggers("owner-b") > triggersOfB);
			await().atMost(TIMEOUT).until(() -> handler.ownerTriggers("owner-a") > triggersOfA);
		});
	}

	@Test
	void controllerReferenceWithAnotherVersionOfTheOwnersGroupTriggersTheOwner(ControlPlane controlPlane,
			TestNamespace namespace) {
		LeaseOwner handler = new LeaseOwner();
		runner(controlPlane, namespace).withBean(LeaseOwner.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			V1Lease lease = new CoordinationV1Api(controlPlane.apiClient())
				.createNamespacedLease(namespace.name(),
						new V1Lease().metadata(new V1ObjectMeta().name("holder"))
							.spec(new V1LeaseSpec().holderIdentity("someone")))
				.execute();
			await().atMost(TIMEOUT).until(() -> handler.added.get() == 1);
			// the informer serves coordination.k8s.io/v1; the reference was written with
			// v1beta1, as an object created before its owner's kind moved to v1 keeps it
			api.createNamespacedConfigMap(namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("lease-owned")
						.addOwnerReferencesItem(controllerReference("coordination.k8s.io/v1beta1", "Lease", lease))))
				.execute();
			await().atMost(TIMEOUT).until(() -> handler.ownerTriggers.get() >= 1);
		});
	}

	@Test
	void lazyHandlerBeanAskedForAfterStartupIsCalled(ControlPlane controlPlane, TestNamespace namespace) {
		runner(controlPlane, namespace)
			.withBean("lazyHandler", LateHandler.class, LateHandler::new, (definition) -> definition.setLazyInit(true))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace.name(), "late-before", null);
				LateHandler handler = context.getBean(LateHandler.class);
				await().atMost(TIMEOUT).until(() -> handler.added.contains("late-before"));
				create(namespace.name(), "late-after", null);
				await().atMost(TIMEOUT).until(() -> handler.added.contains("late-after"));
			});
	}

	@Test
	void handlersWorkWithLazyInitialization(ControlPlane controlPlane, TestNamespace namespace) {
		LateHandler handler = new LateHandler();
		runner(controlPlane, namespace)
			// what spring.main.lazy-initialization=true makes SpringApplication add
			.withInitializer(
					(context) -> context.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
			.withBean(LateHandler.class, () -> handler)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				create(namespace.name(), "everything-lazy", null);
				await().atMost(TIMEOUT).until(() -> handler.added.contains("everything-lazy"));
			});
	}

	@Test
	void prototypeHandlerBeanFailsStartupNamingTheBean(ControlPlane controlPlane, TestNamespace namespace) {
		runner(controlPlane, namespace)
			.withBean("prototypeHandler", LateHandler.class, LateHandler::new,
					(definition) -> definition.setScope("prototype"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.isInstanceOf(InvalidHandlerMethodException.class)
					.hasMessageContaining("LateHandler.added(V1ConfigMap)")
					.hasMessageContaining("bean 'prototypeHandler' of scope 'prototype'");
			});
	}

	private static List<String> startingWith(String prefix, List<String> names) {
		return names.stream().filter((name) -> name.startsWith(prefix)).toList();
	}

	private static void create(String namespace, String name, Map<String, String> labels) throws ApiException {
		create(namespace, name, labels, null);
	}

	private static void create(String namespace, String name, Map<String, String> labels, Map<String, String> data)
			throws ApiException {
		api.createNamespacedConfigMap(namespace,
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(data))
			.execute();
	}

	private static V1Secret createSecret(String namespace, String name) throws ApiException {
		return api.createNamespacedSecret(namespace, new V1Secret().metadata(new V1ObjectMeta().name(name))).execute();
	}

	private static V1OwnerReference controllerReference(String apiVersion, String kind, KubernetesObject owner) {
		return new V1OwnerReference().apiVersion(apiVersion)
			.kind(kind)
			.name(owner.getMetadata().getName())
			.uid(owner.getMetadata().getUid())
			.controller(true);
	}

	static class InSelector {

		final List<String> added = new CopyOnWriteArrayList<>();

		@OnAdd(labelSelector = "tier in (web, cache)")
		void added(V1ConfigMap configMap) {
			this.added.add(configMap.getMetadata().getName());
		}

	}

	static class NotInSelector {

		final List<String> added = new CopyOnWriteArrayList<>();

		@OnAdd(labelSelector = "tier notin (db)")
		void added(V1ConfigMap configMap) {
			this.added.add(configMap.getMetadata().getName());
		}

	}

	static class WebTier {

		final List<V1ConfigMap> added = new CopyOnWriteArrayList<>();

		final List<V1ConfigMap> deleted = new CopyOnWriteArrayList<>();

		@OnAdd(labelSelector = "tier in (web)")
		void added(V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().equals("mover")) {
				this.added.add(configMap);
			}
		}

		@OnDelete
		void deleted(V1ConfigMap configMap) {
			if (configMap.getMetadata().getName().equals("mover")) {
				this.deleted.add(configMap);
			}
		}

	}

	static class BlockingWebTier {

		final List<String> added = new CopyOnWriteArrayList<>();

		final List<String> deleted = new CopyOnWriteArrayList<>();

		final CountDownLatch blocked = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@OnAdd(labelSelector = "tier=web")
		void added(V1ConfigMap configMap) throws InterruptedException {
			String name = configMap.getMetadata().getName();
			if (name.equals("racer")) {
				this.blocked.countDown();
				this.release.await();
			}
			this.added.add(name);
		}

		@OnDelete
		void deleted(V1ConfigMap configMap) {
			this.deleted.add(configMap.getMetadata().getName());
		}

	}

	static class NamespacesOfNamespaces {

		@OnAdd(namespaces = "default")
		void added(V1Namespace namespace) {
		}

	}

	@Owns(V1ConfigMap.class)
	static class SecretOwner {

		final List<String> added = new CopyOnWriteArrayList<>();

		final Map<String, AtomicInteger> ownerTriggers = new ConcurrentHashMap<>();

		@OnAdd
		void added(V1Secret secret) {
			this.added.add(secret.getMetadata().getName());
		}

		@OnUpdate
		void changed(V1Secret secret, HandlerContext context) {
			if (context.trigger() == Trigger.OWNER) {
				this.ownerTriggers.computeIfAbsent(secret.getMetadata().getName(), (name) -> new AtomicInteger())
					.incrementAndGet();
			}
		}

		int ownerTriggers(String name) {
			AtomicInteger triggers = this.ownerTriggers.get(name);
			return (triggers != null) ? triggers.get() : 0;
		}

	}

	@Owns(V1ConfigMap.class)
	static class LeaseOwner {

		final AtomicInteger added = new AtomicInteger();

		final AtomicInteger ownerTriggers = new AtomicInteger();

		@OnAdd
		void added(V1Lease lease) {
			this.added.incrementAndGet();
		}

		@OnUpdate
		void changed(V1Lease lease, HandlerContext context) {
			if (context.trigger() == Trigger.OWNER) {
				this.ownerTriggers.incrementAndGet();
			}
		}

	}

	static class LateHandler {

		final List<String> added = new CopyOnWriteArrayList<>();

		@OnAdd
		void added(V1ConfigMap configMap) {
			this.added.add(configMap.getMetadata().getName());
		}

	}

}
