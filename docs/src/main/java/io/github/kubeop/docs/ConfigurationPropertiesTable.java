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

package io.github.kubeop.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Writes the reference table of {@code kubeop.*} properties from the configuration
 * metadata that the annotation processor generated for the auto-configuration jar, so
 * that the documented properties cannot drift from the code.
 *
 * @author Kubeop authors
 */
public final class ConfigurationPropertiesTable {

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private ConfigurationPropertiesTable() {
	}

	public static void main(String[] args) throws IOException {
		Path output = Path.of(args[0]);
		Files.createDirectories(output.getParent());
		Files.writeString(output, table(metadata()), StandardCharsets.UTF_8);
	}

	static JsonObject metadata() throws IOException {
		try (InputStream in = ConfigurationPropertiesTable.class.getClassLoader().getResourceAsStream(METADATA)) {
			if (in == null) {
				throw new IllegalStateException(METADATA + " is not on the class path");
			}
			return JsonParser.parseReader(new InputStreamReader(in, StandardCharsets.UTF_8)).getAsJsonObject();
		}
	}

	static String table(JsonObject metadata) {
		List<JsonObject> properties = new ArrayList<>();
		for (JsonElement element : metadata.getAsJsonArray("properties")) {
			properties.add(element.getAsJsonObject());
		}
		properties.sort(Comparator.comparing((property) -> property.get("name").getAsString()));
		StringBuilder table = new StringBuilder();
		table.append("[cols=\"3,1,4\", options=\"header\"]\n|===\n| Property | Default | Description\n\n");
		for (JsonObject property : properties) {
			table.append("| `").append(property.get("name").getAsString()).append("`\n");
			table.append("| ").append(defaultValue(property)).append('\n');
			table.append("| ").append(text(property, "description")).append("\n\n");
		}
		return table.append("|===\n").toString();
	}

	private static String defaultValue(JsonObject property) {
		JsonElement value = property.get("defaultValue");
		if (value == null || value.isJsonNull()) {
			return "";
		}
		String text = value.isJsonArray() ? value.getAsJsonArray().toString() : value.getAsString();
		return text.isEmpty() ? "" : "`" + text + "`";
	}

	private static String text(JsonObject property, String key) {
		JsonElement value = property.get(key);
		return (value != null) ? value.getAsString().replace("|", "\\|") : "";
	}

}
