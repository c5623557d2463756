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

import java.util.Collections;

import io.kubernetes.client.openapi.ApiException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WriteConflict}: telling 409s apart by the Status the API server
 * answered with (bodies as kube-apiserver writes them).
 *
 * @author Kubeop authors
 */
class WriteConflictTests {

	@Test
	void staleResourceVersionIsRoutine() {
		WriteConflict conflict = WriteConflict.of(conflict("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
				+ "\"Failure\",\"message\":\"Operation cannot be fulfilled on configmaps \\\"a\\\": the object has "
				+ "been modified; please apply your changes to the latest version and try again\",\"reason\":"
				+ "\"Conflict\",\"details\":{\"name\":\"a\",\"kind\":\"configmaps\"},\"code\":409}"));
		assertThat(conflict.type()).isEqualTo(WriteConflict.Type.OPTIMISTIC_CONCURRENCY);
		assertThat(conflict.isRoutine()).isTrue();
	}

	@Test
	void applyConflictNamesTheOtherFieldManagers() {
		WriteConflict conflict = WriteConflict.of(conflict("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
				+ "\"Failure\",\"message\":\"Apply failed with 2 conflicts: conflict with \\\"other-manager\\\": "
				+ ".data.k\\nconflict with \\\"third\\\" using v1: .data.j\",\"reason\":\"Conflict\",\"details\":"
				+ "{\"causes\":[{\"reason\":\"FieldManagerConflict\",\"message\":\"conflict with \\\"other-manager\\\""
				+ "\",\"field\":\".data.k\"},{\"reason\":\"FieldManagerConflict\",\"message\":\"conflict with "
				+ "\\\"third\\\" using v1\",\"field\":\".data.j\"}]},\"code\":409}"));
		assertThat(conflict.type()).isEqualTo(WriteConflict.Type.FIELD_MANAGER);
		assertThat(conflict.isRoutine()).isFalse();
		assertThat(conflict.fieldManagers()).containsExactly("other-manager", "third");
		assertThat(conflict.describe()).contains("field manager \"other-manager\", \"third\"");
	}

	@Test
	void failedUidPreconditionIsRoutineAndSaysTheObjectWasReplaced() {
		// as the test control plane's kube-apiserver answers a delete with a uid
		// precondition
		WriteConflict conflict = WriteConflict.of(conflict("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":"
				+ "{},\"status\":\"Failure\",\"message\":\"Operation cannot be fulfilled on ConfigMap \\\"written\\\": "
				+ "the UID in the precondition (73695c0b-37a5-4191-a038-3c259c1953f6) does not match the UID in "
				+ "record (2fc50f84-ef34-4101-ae5f-93dfa579f1a2). The object might have been deleted and then "
				+ "recreated\",\"reason\":\"Conflict\",\"details\":{\"name\":\"written\",\"kind\":\"ConfigMap\"},"
				+ "\"code\":409}"));
		assertThat(conflict.type()).isEqualTo(WriteConflict.Type.REPLACED);
		assertThat(conflict.isRoutine()).isTrue();
		assertThat(conflict.describe()).startsWith("the object was replaced");
	}

	@Test
	void alreadyExistsIsNotRoutine() {
		WriteConflict conflict = WriteConflict.of(conflict("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
				+ "\"Failure\",\"message\":\"configmaps \\\"taken\\\" already exists\",\"reason\":\"AlreadyExists\","
				+ "\"details\":{\"name\":\"taken\",\"kind\":\"configmaps\"},\"code\":409}"));
		assertThat(conflict.type()).isEqualTo(WriteConflict.Type.ALREADY_EXISTS);
		assertThat(conflict.isRoutine()).isFalse();
	}

	@Test
	void conflictWithoutAStatusIsRoutineAsClientGoTakesIt() {
		assertThat(WriteConflict.of(conflict(null)).isRoutine()).isTrue();
		assertThat(WriteConflict.of(conflict("<html>proxy</html>")).isRoutine()).isTrue();
	}

	@Test
	void conflictIsFoundAmongTheCauses() {
		WriteConflict conflict = WriteConflict.of(new IllegalStateException("wrapped", conflict(null)));
		assertThat(conflict).isNotNull();
		assertThat(WriteConflict.of(new ApiException("not found", 404, Collections.emptyMap(), null))).isNull();
	}

	private static ApiException conflict(String body) {
		return new ApiException("conflict", 409, Collections.emptyMap(), body);
	}

}
