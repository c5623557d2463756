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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import com.google.gson.Gson;
import com.google.gson.JsonDeserializer;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decoding watch frames that carry no object of the informer's kind: an error event's
 * Status, as the API server encodes it in protobuf; which informers get a decoder; and a
 * list read while the watch's frames are.
 *
 * @author Kubeop authors
 */
class ProtobufDecoderTests {

	@Test
	void errorEventIsHandedOnAsItsTree() throws Exception {
		ResourceKind resource = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);
		ProtobufDecoder<V1ConfigMap> decoder = ProtobufDecoder
			.of(InformerSpec.of("c", "v1", "ConfigMap", V1ConfigMap.class), resource, JSON.getGson());
		byte[] frame = ProtobufInformerIntegrationTests.ExpireNextWatch.expiredFrame();
		ProtobufDecoder.Event<V1ConfigMap> event = decoder.readEvent(Arrays.copyOfRange(frame, 4, frame.length));
		assertThat(event.type()).isEqualTo("ERROR");
		assertThat(event.tree().get("type").getAsString()).isEqualTo("ERROR");
		assertThat(event.tree().getAsJsonObject("object").get("code").getAsInt()).isEqualTo(410);
	}

	@Test
	void watchedObjectsShareTheirApiVersionAndKind() throws Exception {
		// each event carries its type meta: objects that kept their own copy of it cost
		// about 100 bytes more in the cache than from JSON, which pools them
		ResourceKind resource = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);
		ProtobufDecoder<V1ConfigMap> decoder = ProtobufDecoder
			.of(InformerSpec.of("c", "v1", "ConfigMap", V1ConfigMap.class), resource, JSON.getGson());
		V1ConfigMap first = decoder.readEvent(addedEvent(configMap("first", "ns", "a"))).object();
		V1ConfigMap second = decoder.readEvent(addedEvent(configMap("second", "ns", "b"))).object();
		assertThat(second.getApiVersion()).isEqualTo("v1").isSameAs(first.getApiVersion());
		assertThat(second.getKind()).isEqualTo("ConfigMap").isSameAs(first.getKind());
		assertThat(first.getApiVersion()).isSameAs(StringPool.pooled("v1"));
		assertThat(first.getKind()).isSameAs(StringPool.pooled("ConfigMap"));
	}

	@Test
	void typeWithAnAdapterTheApplicationRegisteredOnTheClientsGsonStaysOnJson() {
		ResourceKind resource = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);
		InformerSpec<V1ConfigMap> spec = InformerSpec.of("c", "v1", "ConfigMap", V1ConfigMap.class);
		Gson withAdapter = JSON.getGson()
			.newBuilder()
			.registerTypeAdapter(V1ConfigMap.class,
					(JsonDeserializer<V1ConfigMap>) (json, type, context) -> new V1ConfigMap())
			.create();
		assertThat(ProtobufDecoder.of(spec, resource, JSON.getGson())).isNotNull();
		// protobuf would bypass the application's adapter
		assertThat(ProtobufDecoder.of(spec, resource, withAdapter)).isNull();
	}

	@Test
	void listReadWhileTheWatchReadsFramesKeepsItsOwnStrings() throws Exception {
		// a load by name (ResourceInformer.load) lists with the loop's decoder on another
		// thread while the loop reads its watch
		ResourceKind resource = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);
		ProtobufDecoder<V1ConfigMap> decoder = ProtobufDecoder
			.of(InformerSpec.of("c", "v1", "ConfigMap", V1ConfigMap.class), resource, JSON.getGson());
		// the frame is longer than the list, so that the list's offsets fall inside it
		byte[] frame = addedEvent(configMap("watched", "namespace-of-the-watch", "v".repeat(2048)));
		byte[] list = list(configMap("secret-0", "referenced-heap", "x"));
		AtomicBoolean listing = new AtomicBoolean(true);
		CompletableFuture<List<String>> watchKeys = CompletableFuture.supplyAsync(() -> {
			List<String> keys = new ArrayList<>();
			try {
				while (listing.get()) {
					ProtobufDecoder.Event<V1ConfigMap> event = decoder.readEvent(frame);
					keys.add(event.key() + " " + event.object().getMetadata().getNamespace());
				}
			}
			catch (IOException ex) {
				keys.add(ex.toString());
			}
			return keys;
		});
		List<String> listed = new ArrayList<>();
		try {
			for (int i = 0; i < 5_000; i++) {
				decoder.readList(new ByteArrayInputStream(list),
						(object, key) -> listed.add(key + " " + object.getMetadata().getNamespace()),
						(key) -> listed.add("unreadable " + key), (metadata) -> {
						});
			}
		}
		finally {
			listing.set(false);
		}
		assertThat(listed).hasSize(5_000).containsOnly("referenced-heap/secret-0 referenced-heap");
		assertThat(watchKeys.get(60, TimeUnit.SECONDS)).isNotEmpty()
			.containsOnly("namespace-of-the-watch/watched namespace-of-the-watch");
	}

	@Test
	void listItemThatDoesNotFitInsideANestedMessageIsSkippedAndTheNextOneRead() throws Exception {
		ResourceKind resource = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);
		ProtobufDecoder<V1ConfigMap> decoder = ProtobufDecoder
			.of(InformerSpec.of("c", "v1", "ConfigMap", V1ConfigMap.class), resource, JSON.getGson());
		// a creationTimestamp no Instant holds: the decoding fails two messages deep
		// (metadata, then its Time)
		byte[] time = message((out) -> out.writeInt64(1, Long.MAX_VALUE));
		byte[] metadata = message((out) -> {
			out.writeByteArray(8, time);
			out.writeString(1, "unfit");
			out.writeString(3, "ns");
		});
		byte[] entry = message((out) -> {
			out.writeString(1, "key");
			out.writeString(2, "value");
		});
		// fields after the one that fails, in the metadata and in the object
		byte[] unfit = message((out) -> {
			out.writeByteArray(1, metadata);
			out.writeByteArray(2, entry);
		});
		byte[] listMeta = message((out) -> out.writeString(2, "10"));
		byte[] configMapList = message((out) -> {
			out.writeByteArray(1, listMeta);
			out.writeByteArray(2, unfit);
			out.writeByteArray(2, configMap("fit", "ns", "x"));
		});
		List<String> listed = new ArrayList<>();
		ListWatch.ListMetadata read = decoder.readList(
				new ByteArrayInputStream(unknown("ConfigMapList", configMapList)), (object, key) -> listed.add(key),
				(key) -> listed.add("unreadable"), (meta) -> {
				});
		assertThat(listed).containsExactly("unreadable", "ns/fit");
		assertThat(read.resourceVersion()).isEqualTo("10");
	}

	/**
	 * A ConfigMap as protobuf: metadata (name, namespace, resourceVersion) and one entry
	 * of data.
	 */
	private static byte[] configMap(String name, String namespace, String value) throws IOException {
		byte[] metadata = message((out) -> {
			out.writeString(1, name);
			out.writeString(3, namespace);
			out.writeString(6, "7");
		});
		byte[] entry = message((out) -> {
			out.writeString(1, "key");
			out.writeString(2, value);
		});
		return message((out) -> {
			out.writeByteArray(1, metadata);
			out.writeByteArray(2, entry);
		});
	}

	/**
	 * A list response: {@code k8s\0} and a {@code runtime.Unknown} holding a list of one
	 * ConfigMap.
	 */
	private static byte[] list(byte[] item) throws IOException {
		byte[] listMeta = message((out) -> out.writeString(2, "10"));
		byte[] configMapList = message((out) -> {
			out.writeByteArray(1, listMeta);
			out.writeByteArray(2, item);
		});
		return unknown("ConfigMapList", configMapList);
	}

	/**
	 * A watch frame without its length: a WatchEvent ADDED holding a ConfigMap.
	 */
	private static byte[] addedEvent(byte[] object) throws IOException {
		byte[] raw = unknown("ConfigMap", object);
		byte[] extension = message((out) -> out.writeBytes(1, ByteString.copyFrom(raw)));
		return message((out) -> {
			out.writeString(1, "ADDED");
			out.writeByteArray(2, extension);
		});
	}

	private static byte[] unknown(String kind, byte[] raw) throws IOException {
		byte[] typeMeta = message((out) -> {
			out.writeString(1, "v1");
			out.writeString(2, kind);
		});
		byte[] unknown = message((out) -> {
			out.writeByteArray(1, typeMeta);
			out.writeByteArray(2, raw);
		});
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		bytes.write(new byte[] { 'k', '8', 's', 0 });
		bytes.write(unknown);
		return bytes.toByteArray();
	}

	private static byte[] message(Writer writer) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		CodedOutputStream out = CodedOutputStream.newInstance(bytes);
		writer.write(out);
		out.flush();
		return bytes.toByteArray();
	}

	@FunctionalInterface
	private interface Writer {

		void write(CodedOutputStream out) throws IOException;

	}

}
