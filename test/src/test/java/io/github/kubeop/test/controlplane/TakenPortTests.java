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

package io.github.kubeop.test.controlplane;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that a port taken between being picked and being bound (by any process: an
 * outgoing connection, another test's server) does not fail the start of a control plane:
 * etcd and kube-apiserver are started again on other ports.
 *
 * @author Kubeop authors
 */
class TakenPortTests {

	@Test
	void etcdAndApiServerMoveToOtherPortsWhenTheirsAreTaken() throws IOException, ApiException {
		try (ServerSocket taken = new ServerSocket(LoopbackPorts.pick(), 1, InetAddress.getLoopbackAddress())) {
			// etcd's client port, etcd's peer port, kube-apiserver's port, then fresh
			// ones
			Deque<Integer> picks = new ArrayDeque<>(
					List.of(taken.getLocalPort(), LoopbackPorts.pick(), taken.getLocalPort()));
			ControlPlaneBinaries binaries = ControlPlaneAssets.fromEnvironment().resolve();
			try (LocalControlPlane controlPlane = LocalControlPlane.start(binaries, List.of(), List.of(), Map.of(),
					() -> picks.isEmpty() ? LoopbackPorts.pick() : picks.poll())) {
				assertThat(picks).isEmpty();
				assertThat(URI.create(controlPlane.serverUrl()).getPort()).isNotEqualTo(taken.getLocalPort());
				assertThat(new CoreV1Api(controlPlane.apiClient()).readNamespace("default")
					.execute()
					.getMetadata()
					.getName()).isEqualTo("default");
			}
		}
	}

	@Test
	void portsArePickedBelowTheEphemeralRange() {
		assertThat(LoopbackPorts.pick()).isLessThan(LoopbackPorts.ephemeralStart());
	}

}
