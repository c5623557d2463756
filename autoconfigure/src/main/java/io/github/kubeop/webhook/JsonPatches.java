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

package io.github.kubeop.webhook;

import java.util.EnumSet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.flipkart.zjsonpatch.DiffFlags;
import com.flipkart.zjsonpatch.JsonDiff;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;

/**
 * The RFC 6902 JSON patch from one object to another, as a mutating webhook answers with
 * it. The diff is zjsonpatch's (arrays compared element by element, so that a container
 * added to a pod is one {@code add}); {@code move} and {@code copy} are left out so that
 * every operation reads as the change the method made.
 *
 * @author Kubeop authors
 */
final class JsonPatches {

	private static final ObjectMapper mapper = new ObjectMapper();

	private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(DiffFlags.OMIT_MOVE_OPERATION,
			DiffFlags.OMIT_COPY_OPERATION);

	private JsonPatches() {
	}

	/**
	 * Returns the patch from a source to a target document.
	 * @param source the document the API server sent
	 * @param target the document the webhook wants
	 * @return the operations, empty if the documents are equal
	 */
	static JsonArray diff(JsonElement source, JsonElement target) {
		try {
			JsonNode patch = JsonDiff.asJson(mapper.readTree(source.toString()), mapper.readTree(target.toString()),
					FLAGS);
			return JsonParser.parseString(mapper.writeValueAsString(patch)).getAsJsonArray();
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException("Could not compute the patch", ex);
		}
	}

}
