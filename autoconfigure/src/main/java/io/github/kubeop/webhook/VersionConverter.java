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

import io.kubernetes.client.common.KubernetesObject;

/**
 * Converts one version of a custom resource to and from its hub version, as
 * controller-runtime's {@code conversion.Convertible} does to its {@code conversion.Hub}.
 * A bean of this type per version other than the hub is enough for every conversion the
 * API server asks for: from any version to any other through the hub, so {@code n}
 * versions need {@code n - 1} converters rather than a pair for each two of them, and a
 * new version is one converter more.
 * <p>
 * Both types are typed custom resources of the same group and kind (such as
 * {@code WidgetV1alpha1} for {@code v1alpha1} and {@code Widget} for the hub {@code v1}).
 * The converted object keeps the metadata it came with, as the API server requires;
 * converters only carry {@code spec} and {@code status} across. Fields one version cannot
 * hold are lost in a round trip through it unless the converter keeps them (in an
 * annotation, as kubebuilder's converters do).
 *
 * @param <S> the spoke version's type
 * @param <H> the hub version's type
 * @author Kubeop authors
 */
public interface VersionConverter<S extends KubernetesObject, H extends KubernetesObject> {

	/**
	 * Converts an object of the spoke version to the hub version.
	 * @param spoke the object
	 * @return the object at the hub version
	 */
	H toHub(S spoke);

	/**
	 * Converts an object of the hub version to the spoke version.
	 * @param hub the object
	 * @return the object at the spoke version
	 */
	S fromHub(H hub);

}
