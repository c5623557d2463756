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
import java.io.IOException;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;

/**
 * Kubeop's protobuf decoder of an informer's objects, opened up to the benchmarks as
 * {@link DecoderProbe} opens up the JSON one.
 *
 * @param <T> the Java type of the objects
 * @author Kubeop authors
 */
public final class ProtobufDecoderProbe<T extends KubernetesObject> {

	private final ProtobufDecoder<T> decoder;

	private ProtobufDecoderProbe(ProtobufDecoder<T> decoder) {
		this.decoder = decoder;
	}

	/**
	 * Returns a probe that decodes as an informer with the given spec does on protobuf,
	 * with the client's default Gson (which drops managedFields).
	 * @param <T> the Java type of the objects
	 * @param spec the informer's spec
	 * @param group the API group, empty for the core group
	 * @param plural the resource's plural name
	 * @return the probe
	 */
	public static <T extends KubernetesObject> ProtobufDecoderProbe<T> of(InformerSpec<T> spec, String group,
			String plural) {
		String[] apiVersion = spec.apiVersion().split("/");
		String version = apiVersion[apiVersion.length - 1];
		ProtobufDecoder<T> decoder = ProtobufDecoder.of(spec,
				new ResourceKind(group, version, spec.kind(), plural, true), new JSON().getGson());
		if (decoder == null) {
			throw new IllegalArgumentException("No protobuf decoder for " + spec.type());
		}
		return new ProtobufDecoderProbe<>(decoder);
	}

	/**
	 * Decodes a list response, as a list or relist reads it.
	 * @param list the response's body
	 * @return the number of objects decoded
	 * @throws IOException if the body is not a list
	 */
	public int decodeList(byte[] list) throws IOException {
		int[] objects = new int[1];
		this.decoder.readList(new ByteArrayInputStream(list), (object, key) -> objects[0]++, (key) -> {
		}, (metadata) -> {
		});
		return objects[0];
	}

	/**
	 * Decodes one frame of a watch.
	 * @param frame the frame, without its length
	 * @return the object
	 * @throws IOException if the frame is not a watch event
	 */
	public T decodeEvent(byte[] frame) throws IOException {
		return this.decoder.readEvent(frame).object();
	}

}
