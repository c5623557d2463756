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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.annotation.OnAdd;
import io.github.kubeop.annotation.OnDelete;
import io.github.kubeop.annotation.OnUpdate;
import io.github.kubeop.annotation.Owns;
import io.github.kubeop.handler.HandlerContext;
import io.github.kubeop.handler.Trigger;
import io.github.kubeop.informer.CustomResourceDefinitionNotFoundException;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.resource.CustomResource;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.Manifests;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.github.kubeop.typed.Gadget;
import io.github.kubeop.typed.Gizmo;
import io.github.kubeop.typed.Unserved;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.CreateOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Typed custom resources (classes extending {@link CustomResource}) in informers, listers
 * and handlers, against a real API server with their CRDs installed.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class TypedCustomResourcesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static ApiClient client;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class,
				KubeopInformersAutoConfiguration.class, KubeopHandlersAutoConfiguration.class))
		// as @SpringBootApplication in the package of the resource classes does
		.withInitializer((context) -> AutoConfigurationPackages.register((GenericApplicationContext) context,
				Gadget.class.getPackageName()));

	@BeforeAll
	static void installDefinitions(ApiClient apiClient) throws Exception {
		client = apiClient;
		new Manifests(apiClient).apply(
				new ClassPathResource("io/github/kubeop/typed/crds.yaml").getContentAsString(StandardCharsets.UTF_8),
				null);
	}

	private ApplicationContextRunner runner(ControlPlane controlPlane, TestNamespace namespace, String... properties) {
		return this.runner.withBean(ApiClient.class, controlPlane::apiClient)
			.withPropertyValues("kubeop.informers.namespaces=" + namespace.name())
			.withPropertyValues(properties);
	}

	@Test
	void informerFromPropertiesReadsTheTypedClassAndItsListerSeesEveryFieldAsWritten(ControlPlane controlPlane,
			TestNamespace namespace) {
		runner(controlPlane, namespace, "kubeop.informers.resources.gadgets.api-version=typed.kubeop.test/v1",
				"kubeop.informers.resources.gadgets.kind=Gadget")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean("gadgetsInformer", ResourceInformer.class).spec().type())
					.isEqualTo(Gadget.class);
				assertThat(context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Lister.class, Gadget.class)))
					.containsExactly("gadgetsLister");
				assertThat(
						context.getBeanNamesForType(ResolvableType.forClassWithGenerics(Indexer.class, Gadget.class)))
					.containsExactly("gadgetsIndexer");
				@SuppressWarnings("unchecked")
				Lister<Gadget> lister = context.getBean("gadgetsLister", Lister.class);
				Gadget written = richGadget("rich");
				Gadget created = create(namespace, "gadgets", written, Gadget.class);
				Gadget.Status status = new Gadget.Status(created.getMetadata().getGeneration(),
						List.of(new V1Condition().type("Ready")
							.status("True")
							.reason("Built")
							.message("all parts in place")
							.observedGeneration(created.getMetadata().getGeneration())
							.lastTransitionTime(OffsetDateTime.of(2026, 11, 23, 12, 30, 15, 0, ZoneOffset.UTC))));
				created.setStatus(status);
				updateStatus(namespace, "gadgets", created);
				await().atMost(TIMEOUT).until(() -> {
					Gadget cached = lister.namespace(namespace.name()).get("rich");
					return cached != null && cached.getStatus() != null;
				});
				Gadget cached = lister.namespace(namespace.name()).get("rich");
				assertThat(cached.getApiVersion()).isEqualTo("typed.kubeop.test/v1");
				assertThat(cached.getKind()).isEqualTo("Gadget");
				assertThat(cached.getSpec()).isEqualTo(written.getSpec());
				assertThat(cached.getStatus()).isEqualTo(status);
				assertThat(cached.getSpec().limit()).isNull();
			});
	}

	@Test
	void handlerWithATypedParameterGetsAnInformerMadeFromTheAnnotationAndTypedObjects(ControlPlane controlPlane,
			TestNamespace namespace) {
		GadgetHandler handler = new GadgetHandler();
		runner(controlPlane, namespace).withBean(GadgetHandler.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			Gadget written = richGadget("handled");
			Gadget created = create(namespace, "gadgets", written, Gadget.class);
			await().atMost(TIMEOUT).until(() -> handler.calls.contains("add handled"));
			created.setSpec(new Gadget.Spec("second", 2, 7, Gadget.Tier.BRONZE, Map.of(), List.of(),
					new Quantity("1Gi"), new IntOrString(8080), false));
			replace(namespace, "gadgets", created);
			await().atMost(TIMEOUT).until(() -> handler.calls.contains("update handled 3 -> 2"));
			delete(namespace, "gadgets", "handled");
			await().atMost(TIMEOUT).until(() -> handler.calls.contains("delete handled 2"));
			// the namespace is the test class's: objects of other tests are added too
			assertThat(handler.added).filteredOn((added) -> added.getMetadata().getName().equals("handled"))
				.singleElement()
				.satisfies((added) -> {
					assertThat(added).isInstanceOf(Gadget.class);
					assertThat(added.getSpec()).isEqualTo(written.getSpec());
				});
		});
	}

	@Test
	void ownsOfATypedClassTriggersTheOwner(ControlPlane controlPlane, TestNamespace namespace) {
		GadgetHandler handler = new GadgetHandler();
		runner(controlPlane, namespace).withBean(GadgetHandler.class, () -> handler).run((context) -> {
			assertThat(context).hasNotFailed();
			Gadget owner = create(namespace, "gadgets", richGadget("owner"), Gadget.class);
			await().atMost(TIMEOUT).until(() -> handler.calls.contains("add owner"));
			Gizmo gizmo = new Gizmo();
			gizmo.getMetadata()
				.name("owned")
				.addOwnerReferencesItem(new V1OwnerReference().apiVersion(owner.getApiVersion())
					.kind(owner.getKind())
					.name("owner")
					.uid(owner.getMetadata().getUid())
					.controller(true));
			gizmo.setSpec(new Gizmo.Spec(1));
			create(namespace, "gizmos", gizmo, Gizmo.class);
			await().atMost(TIMEOUT).until(() -> handler.ownerTriggers.get() >= 1);
		});
	}

	@Test
	void typedClassWhoseDefinitionIsNotInstalledFailsStartupNamingTheClassAndTheDefinition(ControlPlane controlPlane,
			TestNamespace namespace) {
		runner(controlPlane, namespace).withBean(UnservedHandler.class, UnservedHandler::new).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			CustomResourceDefinitionNotFoundException cause = findCause(failure);
			assertThat(cause).isNotNull();
			assertThat(cause.getMessage()).contains(Unserved.class.getName()).contains("'unserveds.typed.kubeop.test'");
			FailureAnalysis analysis = new CustomResourceDefinitionNotFoundFailureAnalyzer().analyze(failure);
			assertThat(analysis.getAction())
				.contains("Apply the CustomResourceDefinition 'unserveds.typed.kubeop.test'")
				.contains(Unserved.class.getName());
		});
	}

	private static CustomResourceDefinitionNotFoundException findCause(Throwable failure) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof CustomResourceDefinitionNotFoundException found) {
				return found;
			}
		}
		return null;
	}

	private static Gadget richGadget(String name) {
		Gadget gadget = new Gadget();
		gadget.getMetadata().name(name);
		gadget.setSpec(new Gadget.Spec("first", 3, null, Gadget.Tier.GOLD, Map.of("app", "web", "team", "a"),
				List.of(new Gadget.Part("wheel", 1.5, List.of("round", "black")),
						new Gadget.Part("frame", 12.25, List.of())),
				new Quantity("512Mi"), new IntOrString("http"), true));
		return gadget;
	}

	private static DynamicKubernetesApi api(String plural) {
		return new DynamicKubernetesApi("typed.kubeop.test", "v1", plural, client);
	}

	private static <T extends CustomResource<?, ?>> T create(TestNamespace namespace, String plural, T object,
			Class<T> type) {
		return decode(api(plural).create(namespace.name(), dynamic(object), new CreateOptions()), type);
	}

	private static void replace(TestNamespace namespace, String plural, CustomResource<?, ?> object) {
		check(api(plural).update(dynamic(object)));
	}

	private static void updateStatus(TestNamespace namespace, String plural, CustomResource<?, ?> object) {
		check(api(plural).updateStatus(dynamic(object), (dynamic) -> dynamic.getRaw().get("status")));
	}

	private static void delete(TestNamespace namespace, String plural, String name) {
		check(api(plural).delete(namespace.name(), name));
	}

	private static DynamicKubernetesObject dynamic(CustomResource<?, ?> object) {
		JsonObject json = JsonParser.parseString(client.getJSON().serialize(object)).getAsJsonObject();
		return new DynamicKubernetesObject(json);
	}

	private static <T> T decode(KubernetesApiResponse<DynamicKubernetesObject> response, Class<T> type) {
		check(response);
		return client.getJSON().getGson().fromJson(response.getObject().getRaw(), type);
	}

	private static void check(KubernetesApiResponse<DynamicKubernetesObject> response) {
		if (!response.isSuccess()) {
			throw new IllegalStateException(
					"HTTP " + response.getHttpStatusCode() + ": " + response.getStatus().getMessage());
		}
	}

	@Owns(Gizmo.class)
	static class GadgetHandler {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<Gadget> added = new CopyOnWriteArrayList<>();

		final AtomicInteger ownerTriggers = new AtomicInteger();

		@OnAdd
		void added(Gadget gadget) {
			this.added.add(gadget);
			this.calls.add("add " + gadget.getMetadata().getName());
		}

		@OnUpdate
		void changed(Gadget oldGadget, Gadget newGadget, HandlerContext context) {
			if (context.trigger() == Trigger.OWNER) {
				this.ownerTriggers.incrementAndGet();
			}
			this.calls.add("update " + newGadget.getMetadata().getName() + " " + oldGadget.getSpec().replicas() + " -> "
					+ newGadget.getSpec().replicas());
		}

		@OnDelete
		void removed(Gadget gadget) {
			this.calls.add("delete " + gadget.getMetadata().getName() + " " + gadget.getSpec().replicas());
		}

	}

	static class UnservedHandler {

		@OnAdd
		void added(Unserved unserved) {
		}

	}

}
