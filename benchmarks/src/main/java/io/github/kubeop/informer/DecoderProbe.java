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

import java.io.IOException;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;

/**
 * Kubeop's decoder of an informer's objects, opened up to the benchmarks: it lives in the
 * informer package of the benchmarks module, as the decoder is not public API.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
public final class DecoderProbe<T extends KubernetesObject> {

	private final ModelDecoder<T> decoder;

	private DecoderProbe(ModelDecoder<T> decoder) {
		this.decoder = decoder;
	}

	/**
	 * Returns a probe that decodes as an informer with the given spec does, with the
	 * client's default Gson (which drops managedFields).
	 * @param <T> the Java type of the objects
	 * @param spec the informer's spec
	 * @param group the API group, empty for the core group
	 * @param plural the resource's plural name
	 * @return the probe
	 */
	public static <T extends KubernetesObject> DecoderProbe<T> of(InformerSpec<T> spec, String group, String plural) {
		String[] apiVersion = spec.apiVersion().split("/");
		String version = apiVersion[apiVersion.length - 1];
		ModelDecoder<T> decoder = ModelDecoder.of(spec, new ResourceKind(group, version, spec.kind(), plural, true),
				new JSON().getGson());
		if (decoder == null) {
			throw new IllegalArgumentException("No model decoder for " + spec.type());
		}
		return new DecoderProbe<>(decoder);
	}

	/**
	 * Decodes one watch event's line.
	 * @param line the event's JSON
	 * @return the object
	 * @throws IOException if the line is not JSON
	 */
	public T decodeEvent(String line) throws IOException {
		return this.decoder.readEvent(line).object();
	}

	/**
	 * Returns the pooled instance of a string, as the decoder pools it.
	 * @param value the string
	 * @return the pooled instance
	 */
	public static String pooled(String value) {
		return StringPool.pooled(value);
	}

}
