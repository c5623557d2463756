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

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.informer.ProtobufTable.FieldInfo;
import io.github.kubeop.informer.ProtobufTable.Kind;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The generated protobuf table: what the decoder relies on, and that the committed table
 * is what its generator writes for the {@code k8s.io/api} version the build uses.
 *
 * @author Kubeop authors
 */
class ProtobufTableTests {

	private static final Path GENERATOR = Path.of("src/main/go/protobuf-table");

	@Test
	void tableIsForTheClientsKubernetesVersion() {
		ProtobufTable table = ProtobufTable.get();
		// client-java 27 is generated from Kubernetes 1.35
		assertThat(V1Pod.class.getPackage().getImplementationVersion()).satisfiesAnyOf(
				(version) -> assertThat(version).isNull(), (version) -> assertThat(version).startsWith("27."));
		assertThat(table.apiVersion()).startsWith("v0.35.");
	}

	@Test
	void tableKnowsWhatOnlyTheGoTypesTell() {
		ProtobufTable table = ProtobufTable.get();
		assertThat(table.goType("", "v1", "Pod")).isEqualTo("k8s.io/api/core/v1.Pod");
		assertThat(table.goType("apps", "v1", "Deployment")).isEqualTo("k8s.io/api/apps/v1.Deployment");
		// a value field with omitempty: its zero is dropped
		FieldInfo hostPID = field(table, "k8s.io/api/core/v1.PodSpec", "hostPID");
		assertThat(hostPID.omitempty()).isTrue();
		assertThat(hostPID.pointer()).isFalse();
		// a pointer keeps its zero
		FieldInfo priority = field(table, "k8s.io/api/core/v1.PodSpec", "priority");
		assertThat(priority.pointer()).isTrue();
		// inlined in JSON, nested in protobuf
		FieldInfo volumeSource = table.type("k8s.io/api/core/v1.Volume").fields().get(2);
		assertThat(volumeSource.inline()).isTrue();
		assertThat(volumeSource.type().message()).isEqualTo("k8s.io/api/core/v1.VolumeSource");
		assertThat(field(table, "k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta", "creationTimestamp").type().kind())
			.isEqualTo(Kind.TIME);
		assertThat(field(table, "k8s.io/api/coordination/v1.LeaseSpec", "renewTime").type().kind())
			.isEqualTo(Kind.MICROTIME);
		assertThat(table.type("k8s.io/api/core/v1.PersistentVolumeClaim").typeMeta()).containsExactly("v1",
				"PersistentVolumeClaim");
	}

	@Test
	void committedTableIsWhatTheGeneratorWrites() throws Exception {
		assumeThat(go()).as("Go on the PATH").isNotNull();
		Path output = Files.createTempFile("protobuf-table", ".txt");
		try {
			Process process = new ProcessBuilder(go(), "run", ".").directory(GENERATOR.toFile())
				.redirectOutput(output.toFile())
				.redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
			assertThat(process.exitValue()).isZero();
			String committed;
			try (InputStream in = ProtobufTable.class.getResourceAsStream("protobuf-table.txt")) {
				committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			assertThat(Files.readString(output))
				.as("the committed table; regenerate it as autoconfigure/src/main/go/protobuf-table/main.go says")
				.isEqualTo(committed);
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

	private static FieldInfo field(ProtobufTable table, String type, String jsonName) {
		return table.type(type)
			.fields()
			.values()
			.stream()
			.filter((field) -> jsonName.equals(field.jsonName()))
			.findFirst()
			.orElseThrow();
	}

	private static String go() {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			File go = new File(directory, "go");
			if (go.canExecute()) {
				return go.getPath();
			}
		}
		return null;
	}

}
