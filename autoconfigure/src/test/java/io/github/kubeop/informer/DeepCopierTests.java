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

package io.github.kubeop.informer;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonNull;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.github.kubeop.typed.Gadget;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DeepCopier}: a copy equals its original, shares no mutable object with
 * it (every node of both graphs is walked by reflection), and changing the copy leaves
 * the original as it was.
 *
 * @author Kubeop authors
 */
class DeepCopierTests {

	private static final String POD = """
			{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop","uid":"u-1",\
			"resourceVersion":"42","generation":3,"creationTimestamp":"2026-01-01T00:00:00Z",\
			"labels":{"app":"web","tier":"frontend"},"annotations":{"example.com/revision":"42"},\
			"finalizers":["example.com/cleanup"],\
			"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u-0",\
			"controller":true,"blockOwnerDeletion":true}]},\
			"spec":{"nodeName":"node-1","nodeSelector":{"zone":"a"},\
			"containers":[{"name":"web","image":"web:1","args":["--port=8080"],\
			"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],\
			"env":[{"name":"LOG","value":"info"},{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],\
			"resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"cpu":"1","memory":"512Mi"}},\
			"readinessProbe":{"httpGet":{"path":"/ready","port":8080},"periodSeconds":10},\
			"livenessProbe":{"httpGet":{"path":"/healthz","port":"http"}},\
			"volumeMounts":[{"name":"config","mountPath":"/etc/web","readOnly":true}]}],\
			"volumes":[{"name":"config","configMap":{"name":"web-config","defaultMode":420}}],\
			"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",\
			"tolerationSeconds":300}]},\
			"status":{"phase":"Running","podIP":"10.1.0.1","podIPs":[{"ip":"10.1.0.1"}],\
			"startTime":"2026-01-01T00:00:01Z",\
			"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:02Z"},\
			{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}],\
			"containerStatuses":[{"name":"web","ready":true,"started":true,"restartCount":0,"image":"web:1",\
			"imageID":"web@sha256:1","state":{"running":{"startedAt":"2026-01-01T00:00:03Z"}}}]}}""";

	private final JSON json = new JSON();

	@Test
	void podCopyEqualsItsOriginalAndSharesNoMutableObject() {
		V1Pod pod = this.json.deserialize(POD, V1Pod.class);
		V1Pod copy = DeepCopier.copy(pod);
		assertThat(copy).isEqualTo(pod).isNotSameAs(pod);
		assertThat(this.json.serialize(copy)).isEqualTo(this.json.serialize(pod));
		assertSharesNoMutableObject(pod, copy);
	}

	@Test
	void podCopySharesItsImmutableLeaves() {
		V1Pod pod = this.json.deserialize(POD, V1Pod.class);
		V1Pod copy = DeepCopier.copy(pod);
		// pooled strings stay pooled; timestamps and quantities cannot change
		assertThat(copy.getMetadata().getLabels().get("app")).isSameAs(pod.getMetadata().getLabels().get("app"));
		assertThat(copy.getMetadata().getCreationTimestamp()).isSameAs(pod.getMetadata().getCreationTimestamp());
		assertThat(copy.getSpec().getContainers().get(0).getResources().getLimits().get("cpu"))
			.isSameAs(pod.getSpec().getContainers().get(0).getResources().getLimits().get("cpu"));
		assertThat(copy.getSpec().getContainers().get(0).getReadinessProbe().getHttpGet().getPort())
			.isSameAs(pod.getSpec().getContainers().get(0).getReadinessProbe().getHttpGet().getPort());
	}

	@Test
	void changingThePodCopyLeavesTheOriginalAsItWas() {
		V1Pod pod = this.json.deserialize(POD, V1Pod.class);
		String before = this.json.serialize(pod);
		V1Pod copy = DeepCopier.copy(pod);
		copy.getMetadata().putLabelsItem("changed", "yes");
		copy.getMetadata().getAnnotations().clear();
		copy.getMetadata().getFinalizers().add("example.com/other");
		copy.getMetadata().getOwnerReferences().get(0).setController(false);
		copy.getMetadata().setResourceVersion("43");
		copy.getSpec().getContainers().get(0).getResources().putLimitsItem("cpu", new Quantity("2"));
		copy.getSpec().getContainers().get(0).getEnv().remove(0);
		copy.getSpec().getContainers().get(0).getLivenessProbe().getHttpGet().setPort(new IntOrString(9090));
		copy.getSpec().getNodeSelector().put("zone", "b");
		copy.getStatus().getConditions().get(0).setStatus("False");
		copy.getStatus().getConditions().get(0).setLastTransitionTime(OffsetDateTime.now());
		copy.getStatus().addConditionsItem(new V1PodCondition().type("Extra").status("True"));
		copy.getStatus().getContainerStatuses().get(0).getState().getRunning().setStartedAt(OffsetDateTime.now());
		assertThat(this.json.serialize(pod)).isEqualTo(before);
	}

	@Test
	void bytesOfASecretAreCopied() {
		V1Secret secret = new V1Secret().metadata(new V1ObjectMeta().name("s"))
			.data(new java.util.HashMap<>(Map.of("password", "hunter2".getBytes(StandardCharsets.UTF_8))));
		V1Secret copy = DeepCopier.copy(secret);
		assertThat(copy.getData().get("password")).isEqualTo(secret.getData().get("password"))
			.isNotSameAs(secret.getData().get("password"));
		copy.getData().get("password")[0] = 'X';
		assertThat(new String(secret.getData().get("password"), StandardCharsets.UTF_8)).isEqualTo("hunter2");
		assertSharesNoMutableObject(secret, copy);
	}

	@Test
	void typedCustomResourceWithRecordsIsCopied() {
		Gadget gadget = this.json.getGson()
			.fromJson("""
					{"apiVersion":"typed.kubeop.test/v1","kind":"Gadget","metadata":{"name":"g","namespace":"n",\
					"labels":{"a":"b"}},"spec":{"title":"t","replicas":2,"limit":5,"tier":"GOLD","labels":{"x":"y"},\
					"parts":[{"name":"p","weight":1.5,"tags":["one","two"]}],"memory":"1Gi","port":"http",\
					"enabled":true},"status":{"observedGeneration":1,"conditions":[{"type":"Ready",\
					"status":"True","reason":"Done","message":"ok","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""",
					Gadget.class);
		String before = this.json.serialize(gadget);
		Gadget copy = DeepCopier.copy(gadget);
		assertThat(copy).isEqualTo(gadget).isNotSameAs(gadget);
		assertSharesNoMutableObject(gadget, copy);
		copy.getSpec().parts().get(0).tags().add("three");
		copy.getSpec().labels().put("x", "z");
		copy.getStatus().conditions().get(0).setStatus("False");
		copy.getStatus().conditions().add(new V1Condition().type("Other"));
		copy.getMetadata().putLabelsItem("c", "d");
		assertThat(this.json.serialize(gadget)).isEqualTo(before);
	}

	@Test
	void objectWithFinalFieldsAndNoDefaultConstructorIsCopied() {
		Holder holder = new Holder("name", new ArrayList<>(List.of(new Holder("inner", new ArrayList<>()))));
		Holder copy = DeepCopier.copy(holder);
		assertThat(copy.name).isSameAs(holder.name);
		assertThat(copy.children).isNotSameAs(holder.children).hasSize(1);
		assertThat(copy.children.get(0)).isNotSameAs(holder.children.get(0));
		assertThat(copy.children.get(0).name).isEqualTo("inner");
		assertSharesNoMutableObject(holder, copy);
	}

	@Test
	void dynamicObjectCopiesItsRawJson() {
		DynamicKubernetesObject object = new DynamicKubernetesObject(JsonParser.parseString("""
				{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"n",\
				"labels":{"a":"b"}},"spec":{"size":3,"items":[{"name":"x"}]}}""").getAsJsonObject());
		DynamicKubernetesObject copy = DeepCopier.copy(object);
		assertThat(copy.getRaw()).isEqualTo(object.getRaw()).isNotSameAs(object.getRaw());
		assertSharesNoMutableObject(object, copy);
		copy.getRaw().getAsJsonObject("spec").addProperty("size", 4);
		copy.getRaw().getAsJsonObject("spec").getAsJsonArray("items").get(0).getAsJsonObject().addProperty("name", "y");
		copy.getRaw().getAsJsonObject("metadata").getAsJsonObject("labels").addProperty("c", "d");
		assertThat(object.getRaw().getAsJsonObject("spec").get("size").getAsInt()).isEqualTo(3);
		assertThat(object.getRaw().toString()).doesNotContain("\"y\"").doesNotContain("\"c\"");
	}

	@Test
	void partialObjectMetadataIsCopied() {
		PartialObjectMetadata object = new PartialObjectMetadata("v1", "Pod",
				new V1ObjectMeta().name("p").namespace("n").putLabelsItem("a", "b"));
		PartialObjectMetadata copy = DeepCopier.copy(object);
		assertThat(copy).isEqualTo(object);
		assertSharesNoMutableObject(object, copy);
	}

	/**
	 * Walks both graphs and checks that no object that can change is reachable from both;
	 * only objects {@link DeepCopier} treats as immutable may be shared.
	 */
	private static void assertSharesNoMutableObject(Object original, Object copy) {
		Set<Object> originalNodes = mutableNodes(original);
		Set<Object> copyNodes = mutableNodes(copy);
		assertThat(originalNodes).hasSameSizeAs(copyNodes);
		Set<Object> shared = Collections.newSetFromMap(new IdentityHashMap<>());
		shared.addAll(originalNodes);
		shared.retainAll(copyNodes);
		assertThat(shared).as("mutable objects reachable from both the original and its copy").isEmpty();
	}

	private static Set<Object> mutableNodes(Object root) {
		Set<Object> nodes = Collections.newSetFromMap(new IdentityHashMap<>());
		walk(root, nodes);
		return nodes;
	}

	private static void walk(Object node, Set<Object> nodes) {
		if (node == null || isImmutable(node.getClass()) || !nodes.add(node)) {
			return;
		}
		if (node instanceof Collection<?> collection) {
			collection.forEach((element) -> walk(element, nodes));
		}
		else if (node instanceof Map<?, ?> map) {
			map.forEach((key, value) -> {
				walk(key, nodes);
				walk(value, nodes);
			});
		}
		else if (node instanceof JsonObject object) {
			object.entrySet().forEach((entry) -> walk(entry.getValue(), nodes));
		}
		else if (node instanceof JsonArray array) {
			array.forEach((element) -> walk(element, nodes));
		}
		else if (node instanceof JsonElement) {
			// primitives and null are immutable
		}
		else if (node instanceof Object[] array) {
			for (Object element : array) {
				walk(element, nodes);
			}
		}
		else if (!node.getClass().isArray()) {
			for (Class<?> type = node.getClass(); type != Object.class; type = type.getSuperclass()) {
				for (Field field : type.getDeclaredFields()) {
					if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
						field.setAccessible(true);
						try {
							walk(field.get(node), nodes);
						}
						catch (IllegalAccessException ex) {
							throw new IllegalStateException(ex);
						}
					}
				}
			}
		}
	}

	/**
	 * The classes whose objects cannot change, listed here rather than asked of the
	 * copier, so that a copier that took a mutable class for immutable fails.
	 */
	private static boolean isImmutable(Class<?> type) {
		return Set
			.of(String.class, Boolean.class, Integer.class, Long.class, Double.class, BigDecimal.class,
					OffsetDateTime.class, Quantity.class, IntOrString.class, JsonPrimitive.class, JsonNull.class)
			.contains(type) || type.isEnum() || (type.getSuperclass() != null && type.getSuperclass().isEnum());
	}

	/**
	 * A class with final fields and no constructor without arguments.
	 */
	static final class Holder {

		private final String name;

		private final List<Holder> children;

		Holder(String name, List<Holder> children) {
			this.name = name;
			this.children = children;
		}

	}

}
