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

import java.util.List;

/**
 * Starts a local control plane in a JVM of its own and prints the pids of its processes,
 * so that a test can kill this JVM and watch what happens to them. The first argument
 * names the optional components to run, as {@link Component#parse(String)} reads them.
 *
 * @author Kubeop authors
 */
public final class ControlPlaneLauncher {

	private ControlPlaneLauncher() {
	}

	public static void main(String[] args) throws InterruptedException {
		LocalControlPlane controlPlane = LocalControlPlane.start(ControlPlaneAssets.fromEnvironment().resolve(),
				List.of(), Component.parse((args.length > 0) ? args[0] : "none"));
		System.out.println("workdir " + controlPlane.workDirectory());
		ProcessHandle.current().children().forEach((child) -> System.out.println("child " + child.pid()));
		System.out.println("ready");
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
