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

import java.util.Arrays;

import com.google.gson.Gson;
import com.google.gson.JsonDeserializer;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decoding watch frames that carry no object of the informer's kind: an error event's
 * Status, as the API server encodes it in protobuf; and which informers get a decoder.
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

}
