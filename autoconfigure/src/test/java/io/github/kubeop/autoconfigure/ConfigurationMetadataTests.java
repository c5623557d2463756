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

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeop.informer.InformerSpec;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the configuration metadata IDEs complete {@code kubeop.*} keys from. Spring
 * Boot's metadata describes a map of objects by its value type (IDEs complete the keys of
 * {@code kubeop.informers.resources.<name>.*} from it) and takes hints for the map's keys
 * and scalar values only.
 *
 * @author Kubeop authors
 */
class ConfigurationMetadataTests {

	@Test
	void mapsOfObjectsDeclareTheirValueTypeAndHandlerNamesCompleteAsBeanNames() throws IOException {
		JsonObject metadata = metadata();
		assertThat(property(metadata, "kubeop.informers.resources").get("type").getAsString())
			.isEqualTo("java.util.Map<java.lang.String,io.github.kubeop.autoconfigure.KubeopProperties$Resource>");
		assertThat(property(metadata, "kubeop.handlers.controllers").get("type").getAsString())
			.isEqualTo("java.util.Map<java.lang.String,io.github.kubeop.autoconfigure.KubeopProperties$Handler>");
		JsonObject handlerNames = null;
		for (JsonElement hint : metadata.getAsJsonArray("hints")) {
			if ("kubeop.handlers.controllers.keys".equals(hint.getAsJsonObject().get("name").getAsString())) {
				handlerNames = hint.getAsJsonObject();
			}
		}
		assertThat(handlerNames).as("hint for the handler names").isNotNull();
		assertThat(handlerNames.getAsJsonArray("providers").get(0).getAsJsonObject().get("name").getAsString())
			.isEqualTo("spring-bean-reference");
	}

	@Test
	void encodingDefaultsToTheEncodingInformersAskForByDefault() throws IOException {
		assertThat(property(metadata(), "kubeop.informers.encoding").get("defaultValue").getAsString())
			.isEqualTo(InformerSpec.Encoding.DEFAULT.name().toLowerCase(Locale.ROOT))
			.isEqualTo("protobuf");
		assertThat(new KubeopProperties.Informers().getEncoding()).isEqualTo(InformerSpec.Encoding.DEFAULT);
	}

	private static JsonObject property(JsonObject metadata, String name) {
		for (JsonElement property : metadata.getAsJsonArray("properties")) {
			if (name.equals(property.getAsJsonObject().get("name").getAsString())) {
				return property.getAsJsonObject();
			}
		}
		throw new AssertionError("no property " + name + " in the metadata");
	}

	private static JsonObject metadata() throws IOException {
		try (Reader reader = new InputStreamReader(
				new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream(),
				StandardCharsets.UTF_8)) {
			return JsonParser.parseReader(reader).getAsJsonObject();
		}
	}

}
