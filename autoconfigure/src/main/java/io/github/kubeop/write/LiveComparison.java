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

import java.math.BigDecimal;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.custom.QuantityFormatException;

/**
 * Tells whether a live object already has the state an apply would write, with the API
 * server's normalisation in mind, so that an apply that would change nothing is not sent.
 * The comparison leans towards "different": a wrong "different" costs one request, a
 * wrong "same" would leave a change unwritten.
 * <ul>
 * <li>Only what the desired object states is compared: fields only the live object has
 * (defaults the server added, other managers' fields, {@code status}) are not.</li>
 * <li>{@code null}, {@code false}, zero and empty values match absent ones: the API
 * server omits them from its own types ({@code omitempty}).</li>
 * <li>Quantities match by value ({@code "1000m"} and {@code "1"}): the server stores them
 * in canonical form.</li>
 * <li>An int-or-string matches by its text ({@code 8080} and {@code "8080"}), and numbers
 * by value ({@code 1} and {@code 1.0}).</li>
 * <li>Lists match item by item, in order and of the same length; each desired item must
 * be contained in the live one (the server adds defaults inside list items, such as a
 * container's {@code terminationMessagePath}). A list another manager added items to is
 * therefore "different", and the apply is sent.</li>
 * </ul>
 *
 * @author Kubeop authors
 */
final class LiveComparison {

	private LiveComparison() {
	}

	/**
	 * Returns whether the live object has every value the desired one states.
	 * @param live the live object (or a part of it), may be {@code null}
	 * @param desired the desired object (or the same part of it)
	 * @return whether applying {@code desired} would change no value of {@code live}
	 */
	static boolean hasDesiredState(JsonElement live, JsonElement desired) {
		if (isUnset(desired)) {
			return isUnset(live);
		}
		if (desired.isJsonObject()) {
			if (live == null || !live.isJsonObject()) {
				return false;
			}
			JsonObject liveObject = live.getAsJsonObject();
			for (Map.Entry<String, JsonElement> entry : desired.getAsJsonObject().entrySet()) {
				if (!hasDesiredState(liveObject.get(entry.getKey()), entry.getValue())) {
					return false;
				}
			}
			return true;
		}
		if (desired.isJsonArray()) {
			if (live == null || !live.isJsonArray()) {
				return false;
			}
			JsonArray desiredItems = desired.getAsJsonArray();
			JsonArray liveItems = live.getAsJsonArray();
			if (desiredItems.size() != liveItems.size()) {
				return false;
			}
			for (int i = 0; i < desiredItems.size(); i++) {
				if (!hasDesiredState(liveItems.get(i), desiredItems.get(i))) {
					return false;
				}
			}
			return true;
		}
		return live != null && live.isJsonPrimitive()
				&& sameValue(live.getAsJsonPrimitive(), desired.getAsJsonPrimitive());
	}

	private static boolean sameValue(JsonPrimitive live, JsonPrimitive desired) {
		if (live.equals(desired)) {
			return true;
		}
		if (live.isBoolean() || desired.isBoolean()) {
			return false;
		}
		if (live.isNumber() && desired.isNumber()) {
			return live.getAsBigDecimal().compareTo(desired.getAsBigDecimal()) == 0;
		}
		if (live.isNumber() != desired.isNumber()) {
			// an int-or-string: the server keeps which it was given, both texts are one
			// value to it
			return live.getAsString().equals(desired.getAsString());
		}
		BigDecimal liveQuantity = quantity(live.getAsString());
		BigDecimal desiredQuantity = quantity(desired.getAsString());
		return liveQuantity != null && desiredQuantity != null && liveQuantity.compareTo(desiredQuantity) == 0;
	}

	/**
	 * The value of a text that reads as a quantity with a suffix or an exponent, as the
	 * server canonicalises them; {@code null} for any other text.
	 */
	private static BigDecimal quantity(String text) {
		if (text.isEmpty() || !Character.isDigit(text.charAt(0)) && text.charAt(0) != '.' && text.charAt(0) != '-'
				&& text.charAt(0) != '+') {
			return null;
		}
		try {
			return new Quantity(text).getNumber();
		}
		catch (QuantityFormatException | NumberFormatException | ArithmeticException ex) {
			return null;
		}
	}

	/**
	 * Whether a value is as good as absent: null, false, zero, empty, or an object of
	 * such values, as JSON's {@code omitempty} leaves them out.
	 */
	static boolean isUnset(JsonElement element) {
		if (element == null || element.isJsonNull()) {
			return true;
		}
		if (element.isJsonPrimitive()) {
			JsonPrimitive primitive = element.getAsJsonPrimitive();
			return (primitive.isBoolean() && !primitive.getAsBoolean())
					|| (primitive.isNumber() && primitive.getAsBigDecimal().signum() == 0)
					|| (primitive.isString() && primitive.getAsString().isEmpty());
		}
		if (element.isJsonArray()) {
			return element.getAsJsonArray().isEmpty();
		}
		return element.getAsJsonObject().entrySet().stream().allMatch((entry) -> isUnset(entry.getValue()));
	}

}
