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

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The two executables a local control plane runs, and where they were found.
 *
 * @param kubeApiServer the kube-apiserver executable
 * @param etcd the etcd executable
 * @param origin where the binaries came from, for log and error messages
 * @author Kubeop authors
 */
public record ControlPlaneBinaries(Path kubeApiServer, Path etcd, String origin) {

	/**
	 * Returns the binaries in {@code directory} if both are present and executable.
	 * @param directory the directory to look in
	 * @param origin where the directory came from
	 * @return the binaries, or {@code null} if the directory lacks one of them
	 */
	static ControlPlaneBinaries in(Path directory, String origin) {
		Path kubeApiServer = directory.resolve("kube-apiserver");
		Path etcd = directory.resolve("etcd");
		return (isExecutable(kubeApiServer) && isExecutable(etcd))
				? new ControlPlaneBinaries(kubeApiServer, etcd, origin + " (" + directory + ")") : null;
	}

	static boolean isExecutable(Path path) {
		return path != null && Files.isRegularFile(path) && Files.isExecutable(path);
	}

}
