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

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ManagedFieldsEntry;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TraceContextAnnotation}.
 *
 * @author Kubeop authors
 */
class TraceContextAnnotationTests {

	private static final String CONTEXT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	@Test
	void onlyAW3cTraceparentOfVersion00IsWellFormed() {
		assertThat(TraceContextAnnotation.isWellFormed(CONTEXT)).isTrue();
		assertThat(TraceContextAnnotation.isWellFormed("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))
			.isTrue();
		assertThat(TraceContextAnnotation.isWellFormed(null)).isFalse();
		assertThat(TraceContextAnnotation.isWellFormed("")).isFalse();
		assertThat(TraceContextAnnotation.isWellFormed("not a trace context")).isFalse();
		// another version, upper case, all-zero ids, a wrong separator, a value too long
		assertThat(TraceContextAnnotation.isWellFormed("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
			.isFalse();
		assertThat(TraceContextAnnotation.isWellFormed("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"))
			.isFalse();
		assertThat(TraceContextAnnotation.isWellFormed("00-00000000000000000000000000000000-00f067aa0ba902b7-01"))
			.isFalse();
		assertThat(TraceContextAnnotation.isWellFormed("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"))
			.isFalse();
		assertThat(TraceContextAnnotation.isWellFormed("00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
			.isFalse();
		assertThat(TraceContextAnnotation.isWellFormed(CONTEXT + "-extra")).isFalse();
	}

	@Test
	void aChangeOfTheAnnotationAloneIsOnlyItsChange() {
		V1ConfigMap before = configMap("1", null, Map.of("a", "b"));
		V1ConfigMap after = configMap("2", CONTEXT, Map.of("a", "b"));
		after.getMetadata().addManagedFieldsItem(new V1ManagedFieldsEntry().manager("kubeop"));
		assertThat(TraceContextAnnotation.isOnlyChange(before, after)).isTrue();
		assertThat(TraceContextAnnotation.isOnlyChange(after,
				configMap("3", "00-" + "1".repeat(32) + "-" + "2".repeat(16) + "-01", Map.of("a", "b"))))
			.isTrue();
	}

	@Test
	void aChangeWithAnythingElseIsNotOnlyTheAnnotations() {
		assertThat(TraceContextAnnotation.isOnlyChange(configMap("1", null, Map.of("a", "b")),
				configMap("2", CONTEXT, Map.of("a", "c"))))
			.isFalse();
		V1ConfigMap labelled = configMap("2", CONTEXT, Map.of("a", "b"));
		labelled.getMetadata().putLabelsItem("touched", "yes");
		assertThat(TraceContextAnnotation.isOnlyChange(configMap("1", null, Map.of("a", "b")), labelled)).isFalse();
		// the same annotation: not looked at further
		assertThat(TraceContextAnnotation.isOnlyChange(configMap("1", CONTEXT, Map.of("a", "b")),
				configMap("2", CONTEXT, Map.of("a", "b"))))
			.isFalse();
	}

	private static V1ConfigMap configMap(String resourceVersion, String traceContext, Map<String, String> data) {
		V1ObjectMeta metadata = new V1ObjectMeta().name("app").namespace("ns").resourceVersion(resourceVersion);
		if (traceContext != null) {
			metadata.putAnnotationsItem(TraceContextAnnotation.NAME, traceContext);
		}
		return new V1ConfigMap().metadata(metadata).data(data);
	}

}
