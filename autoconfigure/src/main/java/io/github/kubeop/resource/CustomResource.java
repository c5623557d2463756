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

package io.github.kubeop.resource;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The base of a typed custom resource: {@code apiVersion}, {@code kind} and
 * {@code metadata} as every Kubernetes object has them, and a spec and a status of the
 * user's types. The subclass carries {@link KubernetesResource}; a new instance starts
 * with its {@code apiVersion} and {@code kind} set from it and empty metadata.
 *
 * @param <S> the type of the spec
 * @param <T> the type of the status, {@link Void} for a resource without one
 * @author Kubeop authors
 */
public abstract class CustomResource<S, T> implements KubernetesObject {

	private String apiVersion;

	private String kind;

	private V1ObjectMeta metadata = new V1ObjectMeta();

	private S spec;

	private T status;

	/**
	 * Creates a resource with the API version and kind of its class's
	 * {@link KubernetesResource}.
	 */
	protected CustomResource() {
		ResourceType type = ResourceType.of(getClass());
		this.apiVersion = type.apiVersion();
		this.kind = type.kind();
	}

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	/**
	 * Sets the API version, as JSON decoding does.
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
	 * Sets the kind, as JSON decoding does.
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

	/**
	 * Returns the spec: what the user wants.
	 * @return the spec, or {@code null}
	 */
	public S getSpec() {
		return this.spec;
	}

	/**
	 * Sets the spec.
	 * @param spec the spec
	 */
	public void setSpec(S spec) {
		this.spec = spec;
	}

	/**
	 * Returns the status: what the operator observed.
	 * @return the status, or {@code null}
	 */
	public T getStatus() {
		return this.status;
	}

	/**
	 * Sets the status.
	 * @param status the status
	 */
	public void setStatus(T status) {
		this.status = status;
	}

	@Override
	public boolean equals(Object other) {
		if (this == other) {
			return true;
		}
		if (other == null || other.getClass() != getClass()) {
			return false;
		}
		CustomResource<?, ?> that = (CustomResource<?, ?>) other;
		return Objects.equals(this.apiVersion, that.apiVersion) && Objects.equals(this.kind, that.kind)
				&& Objects.equals(this.metadata, that.metadata) && Objects.equals(this.spec, that.spec)
				&& Objects.equals(this.status, that.status);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.apiVersion, this.kind, this.metadata, this.spec, this.status);
	}

	@Override
	public String toString() {
		String namespace = (this.metadata != null) ? this.metadata.getNamespace() : null;
		String name = (this.metadata != null) ? this.metadata.getName() : null;
		return this.kind + " " + ((namespace != null) ? namespace + "/" : "") + name;
	}

}
