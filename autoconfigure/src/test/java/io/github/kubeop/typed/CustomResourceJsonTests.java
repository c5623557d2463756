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
package io.github.kubeop.typed;

import io.kubernetes.client.openapi.JSON;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Decoding of typed custom resources with the client's JSON, for what the API server
 * leaves out.
 *
 * @author Kubeop authors
 */
class CustomResourceJsonTests {

	private final JSON json = new JSON();

	@Test
	void absentFieldsReadAsDefaultsForPrimitivesAndNullOtherwise() {
		Gadget gadget = this.json.deserialize(
				"{\"apiVersion\":\"typed.kubeop.test/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"a\"},\"spec\":{}}",
				Gadget.class);
		assertThat(gadget.getSpec().replicas()).isZero();
		assertThat(gadget.getSpec().enabled()).isFalse();
		assertThat(gadget.getSpec().limit()).isNull();
		assertThat(gadget.getSpec().tier()).isNull();
		assertThat(gadget.getSpec().parts()).isNull();
		assertThat(gadget.getStatus()).isNull();
	}

	@Test
	void unknownEnumValueReadsAsNull() {
		Gadget gadget = this.json.deserialize("{\"spec\":{\"tier\":\"PLATINUM\"}}", Gadget.class);
		assertThat(gadget.getSpec().tier()).isNull();
	}

}
