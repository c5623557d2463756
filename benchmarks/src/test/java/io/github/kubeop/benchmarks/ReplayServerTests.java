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

package io.github.kubeop.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReplayServer}: each client is answered in the wire format and over the
 * transport it asks for, and handles every armed event.
 *
 * @author Kubeop authors
 */
class ReplayServerTests {

	private static final String NAMESPACE = "events";

	private static final int EVENTS = 500;

	@TempDir
	Path directory;

	@Test
	void fabric8WatchesOverAWebSocketAndHandlesEveryEvent() throws Exception {
		try (ReplayServer server = ReplayServer.start(NAMESPACE, "configmaps", "ConfigMap", recordedList(), null)) {
			server.arm(EVENTS);
			Path kubeconfig = server.writeKubeconfig(this.directory);
			AtomicLong updates = new AtomicLong();
			CountDownLatch all = new CountDownLatch(1);
			try (KubernetesClient client = new KubernetesClientBuilder()
				.withConfig(Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8)))
				.build()) {
				// started without waiting for it, so that a watch that never starts fails
				// the
				// test rather than hanging it
				SharedIndexInformer<ConfigMap> informer = client.configMaps()
					.inNamespace(NAMESPACE)
					.runnableInformer(0);
				informer.addEventHandler(new ResourceEventHandler<>() {

					@Override
					public void onAdd(ConfigMap obj) {
					}

					@Override
					public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
						if (updates.incrementAndGet() == EVENTS) {
							all.countDown();
						}
					}

					@Override
					public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
					}

				});
				informer.start();
				assertThat(all.await(1, TimeUnit.MINUTES)).as("fabric8 handled all %d events", EVENTS).isTrue();
				informer.stop();
			}
			assertThat(server.lastWatchFormat()).isEqualTo("JSON over a WebSocket");
			assertThat(server.firstEventMicros()).isPositive();
		}
	}

	@Test
	void clientGoGetsProtobufByDefaultAndHandlesEveryEvent() throws Exception {
		Path clientGo = ClientGo.build();
		assertThat(clientGo).as("the client-go program builds").isNotNull();
		try (ReplayServer server = ReplayServer.start(NAMESPACE, "configmaps", "ConfigMap", recordedList(), clientGo)) {
			JsonObject result = replay(server, clientGo, "configmaps", false);
			assertThat(server.lastWatchFormat()).isEqualTo("protobuf over a chunked HTTP response");
			assertThat(result.get("completed").getAsBoolean()).isTrue();
			assertThat(result.get("events").getAsLong()).isEqualTo(EVENTS);
		}
	}

	@Test
	void clientGoGetsJsonWhenItAsksForJsonAndHandlesEveryEvent() throws Exception {
		Path clientGo = ClientGo.build();
		assertThat(clientGo).as("the client-go program builds").isNotNull();
		try (ReplayServer server = ReplayServer.start(NAMESPACE, "configmaps", "ConfigMap", recordedList(), clientGo)) {
			JsonObject result = replay(server, clientGo, "configmaps", true);
			assertThat(server.lastWatchFormat()).isEqualTo("JSON over a chunked HTTP response");
			assertThat(result.get("completed").getAsBoolean()).isTrue();
			assertThat(result.get("events").getAsLong()).isEqualTo(EVENTS);
		}
	}

	@Test
	void clientGoGetsPodsAsProtobufAndHandlesEveryEvent() throws Exception {
		Path clientGo = ClientGo.build();
		assertThat(clientGo).as("the client-go program builds").isNotNull();
		JsonObject list = JsonParser.parseString("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{}}")
			.getAsJsonObject();
		JsonArray items = new JsonArray();
		for (int i = 0; i < 3; i++) {
			JsonObject pod = Payloads.servedPod(NAMESPACE, i);
			pod.remove("apiVersion");
			pod.remove("kind");
			items.add(pod);
		}
		list.add("items", items);
		try (ReplayServer server = ReplayServer.start(NAMESPACE, "pods", "Pod", list, clientGo)) {
			JsonObject result = replay(server, clientGo, "pods", false);
			assertThat(server.lastWatchFormat()).isEqualTo("protobuf over a chunked HTTP response");
			assertThat(result.get("completed").getAsBoolean()).isTrue();
			assertThat(result.get("events").getAsLong()).isEqualTo(EVENTS);
		}
	}

	private JsonObject replay(ReplayServer server, Path clientGo, String resource, boolean json) throws Exception {
		server.arm(EVENTS);
		Path kubeconfig = server.writeKubeconfig(this.directory);
		Process process = ClientGo.replay(clientGo, kubeconfig, NAMESPACE, resource, EVENTS, Duration.ofMinutes(1),
				json, null, null);
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		assertThat(process.waitFor()).isZero();
		return JsonParser.parseString(output).getAsJsonObject();
	}

	private static JsonObject recordedList() {
		StringBuilder items = new StringBuilder();
		for (int i = 0; i < 3; i++) {
			items.append((i > 0) ? "," : "")
				.append("""
						{"metadata":{"name":"settings-%d","namespace":"events","uid":"6f1c2a3e-0000-4000-8000-00000000000%d",\
						"resourceVersion":"%d","creationTimestamp":"2026-01-01T00:00:00Z",\
						"labels":{"app":"benchmark"},"managedFields":[{"manager":"bench","operation":"Update",\
						"apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1",\
						"fieldsV1":{"f:data":{"f:payload":{}}}}]},"data":{"payload":"%s"}}"""
					.formatted(i, i, 100 + i, "x".repeat(1024)));
		}
		return JsonParser
			.parseString("""
					{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"200"},"items":[%s]}"""
				.formatted(items))
			.getAsJsonObject();
	}

}
