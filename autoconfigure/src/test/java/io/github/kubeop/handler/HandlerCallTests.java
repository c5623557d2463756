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

import io.github.kubeop.informer.ResourceKind;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HandlerCall}.
 *
 * @author Kubeop authors
 */
class HandlerCallTests {

	private static final ResourceKind CONFIG_MAPS = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);

	@ParameterizedTest
	@EnumSource(value = HandlerMethod.Kind.class, names = { "ADD", "UPDATE", "RECONCILE" })
	void callsForAnObjectThatStaysOwnWhatTheyApply(HandlerMethod.Kind kind) {
		V1ConfigMap object = new V1ConfigMap().metadata(new V1ObjectMeta().name("queue").uid("1"));
		HandlerCall call = HandlerCall.begin("handler", "queue", object, CONFIG_MAPS, kind);
		try {
			assertThat(call.owner()).isSameAs(object);
		}
		finally {
			call.end();
		}
	}

	@ParameterizedTest
	@EnumSource(value = HandlerMethod.Kind.class, names = { "DELETE", "CLEANUP" })
	void callsForAnObjectGoneOrGoingOwnNothing(HandlerMethod.Kind kind) {
		V1ConfigMap object = new V1ConfigMap().metadata(new V1ObjectMeta().name("queue").uid("1"));
		HandlerCall call = HandlerCall.begin("handler", "queue", object, CONFIG_MAPS, kind);
		try {
			assertThat(call.owner()).isNull();
			assertThat(call.object()).isSameAs(object);
		}
		finally {
			call.end();
		}
	}

}
