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

import java.util.Map;
import java.util.Objects;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * The annotation that carries the trace context of a write on the written object, so that
 * a handler call the write causes, in this application or another, continues the writer's
 * trace: a W3C {@code traceparent} value ({@code 00-<trace id>-<span id>-<flags>}, 55
 * characters), written by {@code KubernetesTemplate} into the writes a traced handler
 * call sends anyway, and never into a write of its own.
 * <p>
 * A change of this annotation alone is no change to handle: the handlers' event handlers
 * drop it (see {@link #isOnlyChange}), so that traced writes that would otherwise change
 * nothing cannot call handlers again and again.
 *
 * @author Kubeop authors
 */
public final class TraceContextAnnotation {

	/**
	 * The annotation's name.
	 */
	public static final String NAME = "kubeop.io/traceparent";

	private static final Gson gson = new JSON().getGson();

	private TraceContextAnnotation() {
	}

	/**
	 * Returns the trace context an object carries.
	 * @param object the object, or {@code null}
	 * @return the annotation's value, as it is (it may be malformed), or {@code null}
	 */
	public static String valueOf(KubernetesObject object) {
		if (object == null || object.getMetadata() == null) {
			return null;
		}
		Map<String, String> annotations = object.getMetadata().getAnnotations();
		return (annotations != null) ? annotations.get(NAME) : null;
	}

	/**
	 * Returns whether a value is a W3C {@code traceparent} of version {@code 00}: the
	 * only form this annotation carries. Anything else (another version, another format,
	 * an all-zero id) is foreign or malformed, and ignored.
	 * @param value the value, or {@code null}
	 * @return whether it is a trace context to continue
	 */
	public static boolean isWellFormed(String value) {
		if (value == null || value.length() != 55 || value.charAt(0) != '0' || value.charAt(1) != '0'
				|| value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
			return false;
		}
		return isHex(value, 3, 35) && isHex(value, 36, 52) && isHex(value, 53, 55) && !isZero(value, 3, 35)
				&& !isZero(value, 36, 52);
	}

	private static boolean isHex(String value, int from, int to) {
		for (int i = from; i < to; i++) {
			char c = value.charAt(i);
			if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
				return false;
			}
		}
		return true;
	}

	private static boolean isZero(String value, int from, int to) {
		for (int i = from; i < to; i++) {
			if (value.charAt(i) != '0') {
				return false;
			}
		}
		return true;
	}

	/**
	 * Returns whether a change of an object is only a change of the trace context it
	 * carries: the annotation differs, and nothing else but the {@code resourceVersion}
	 * and {@code managedFields} the write moved. Cheap when the annotation is the same
	 * (two map lookups); the objects are compared whole only when it differs.
	 * @param oldObject the state before
	 * @param newObject the state after
	 * @return whether the change is the annotation's alone
	 */
	public static boolean isOnlyChange(KubernetesObject oldObject, KubernetesObject newObject) {
		if (Objects.equals(valueOf(oldObject), valueOf(newObject))) {
			return false;
		}
		return withoutCarrier(oldObject).equals(withoutCarrier(newObject));
	}

	private static JsonObject withoutCarrier(KubernetesObject object) {
		// a copy: the objects are the informer's, shared with every reader
		JsonElement json = (object instanceof DynamicKubernetesObject dynamic) ? dynamic.getRaw().deepCopy()
				: gson.toJsonTree(object);
		JsonObject copy = json.getAsJsonObject();
		if (copy.get("metadata") instanceof JsonObject metadata) {
			metadata.remove("resourceVersion");
			metadata.remove("managedFields");
			if (metadata.get("annotations") instanceof JsonObject annotations) {
				annotations.remove(NAME);
				if (annotations.size() == 0) {
					metadata.remove("annotations");
				}
			}
		}
		return copy;
	}

}
