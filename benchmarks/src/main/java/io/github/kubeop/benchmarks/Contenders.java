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

package io.github.kubeop.benchmarks;

import io.github.kubeop.informer.InformerSpec;
import io.kubernetes.client.common.KubernetesObject;

/**
 * The names every harness records its contenders under.
 *
 * @author Kubeop authors
 */
final class Contenders {

	/**
	 * Kubeop as its users run it: its default encoding, protobuf for built-in kinds (JSON
	 * for custom resources), as client-go asks for by default.
	 */
	static final String KUBEOP = "Kubeop";

	/** Kubeop with {@code kubeop.informers.encoding: json}. */
	static final String KUBEOP_JSON = "Kubeop, JSON";

	static final String KUBEOP_KEEP_ALL = "Kubeop, nothing stripped";

	static final String KUBEOP_LEAN_OFF = "Kubeop, lean cache off";

	static final String KUBEOP_METADATA = "Kubeop, metadata-only";

	static final String KUBEOP_DYNAMIC = "Kubeop, DynamicKubernetesObject";

	static final String CLIENT_JAVA_STRIP = "client-java, setTransform strips managedFields";

	static final String CLIENT_GO_STRIP = "client-go, WithTransform strips managedFields";

	static final String KUBEOP_HANDLER = "Kubeop handler";

	static final String CLIENT_JAVA = "client-java";

	static final String FABRIC8 = "fabric8";

	/** client-go as its users run it: protobuf for built-in types, its default. */
	static final String CLIENT_GO = "client-go";

	static final String CLIENT_GO_JSON = "client-go, JSON";

	private Contenders() {
	}

	/**
	 * Returns Kubeop's informer spec as the contender runs it: JSON for
	 * {@link #KUBEOP_JSON}, else the spec unchanged, so that every other Kubeop contender
	 * keeps the encoding its users get by default.
	 * @param <T> the type of the informed objects
	 * @param contender the contender's name
	 * @param spec the spec with its default encoding
	 * @return the spec to run
	 */
	static <T extends KubernetesObject> InformerSpec<T> encoding(String contender, InformerSpec<T> spec) {
		return contender.equals(KUBEOP_JSON) ? spec.withEncoding(InformerSpec.Encoding.JSON) : spec;
	}

}
