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

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The metadata of an object without its spec, status or data, as a metadata-only informer
 * caches it: Kubernetes' {@code meta.k8s.io/v1} {@code PartialObjectMetadata}, which the
 * official Java client has no model for. Its {@link #getApiVersion() apiVersion} and
 * {@link #getKind() kind} are those of the real resource (such as {@code v1}
 * {@code ConfigMap}), as controller-runtime's metadata-only cache sets them, not
 * {@code meta.k8s.io/v1} {@code PartialObjectMetadata}.
 *
 * @author Kubeop authors
 */
public final class PartialObjectMetadata implements KubernetesObject {

	/**
	 * What a metadata-only informer accepts for lists: the API server converts each item
	 * to its metadata before sending it; a server that cannot (some aggregated APIs)
	 * answers with the full objects, of which only the metadata is kept, as client-go's
	 * metadata client accepts too.
	 */
	static final String LIST_MEDIA_TYPE = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
			+ "application/json";

	/**
	 * What a metadata-only informer accepts for watches: every event's object as its
	 * metadata.
	 */
	static final String WATCH_MEDIA_TYPE = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"
			+ "application/json";

	/**
	 * What a metadata-only informer on protobuf accepts for lists, as client-go's
	 * metadata client asks: the metadata in protobuf, which the API server serves for
	 * custom resources too (it is a {@code meta.k8s.io} type, not theirs), then in JSON,
	 * then the full objects in JSON from a server that cannot convert them.
	 */
	static final String PROTOBUF_LIST_MEDIA_TYPE = ProtobufDecoder.MEDIA_TYPE
			+ ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," + LIST_MEDIA_TYPE;

	/**
	 * What a metadata-only informer on protobuf accepts for watches.
	 */
	static final String PROTOBUF_WATCH_MEDIA_TYPE = ProtobufDecoder.MEDIA_TYPE
			+ ";as=PartialObjectMetadata;g=meta.k8s.io;v=v1," + WATCH_MEDIA_TYPE;

	private String apiVersion;

	private String kind;

	private V1ObjectMeta metadata;

	/**
	 * Creates an empty instance.
	 */
	public PartialObjectMetadata() {
	}

	/**
	 * Creates an instance.
	 * @param apiVersion the API version of the resource, such as {@code v1}
	 * @param kind the kind of the resource, such as {@code ConfigMap}
	 * @param metadata the metadata
	 */
	public PartialObjectMetadata(String apiVersion, String kind, V1ObjectMeta metadata) {
		this.apiVersion = apiVersion;
		this.kind = kind;
		this.metadata = metadata;
	}

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	/**
	 * Sets the API version.
	 * @param apiVersion the API version
	 */
	public void setApiVersion(String apiVersion) {
		this.apiVersion = apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	/**
	 * Sets the kind.
	 * @param kind the kind
	 */
	public void setKind(String kind) {
		this.kind = kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	/**
	 * Sets the metadata.
	 * @param metadata the metadata
	 */
	public void setMetadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
	}

	@Override
	public boolean equals(Object other) {
		if (this == other) {
			return true;
		}
		return other instanceof PartialObjectMetadata that && Objects.equals(this.apiVersion, that.apiVersion)
				&& Objects.equals(this.kind, that.kind) && Objects.equals(this.metadata, that.metadata);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.apiVersion, this.kind, this.metadata);
	}

	@Override
	public String toString() {
		return "PartialObjectMetadata(" + this.apiVersion + " " + this.kind + " "
				+ ((this.metadata != null) ? ResourceInformer.key(this) : "") + ")";
	}

}
