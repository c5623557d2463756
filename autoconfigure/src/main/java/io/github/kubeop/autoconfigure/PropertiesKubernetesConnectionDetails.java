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

package io.github.kubeop.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * {@link KubernetesConnectionDetails} from {@code kubeop.client.*}, the environment and
 * the conventional places, in the order kubectl uses: {@code kubeop.client.kubeconfig},
 * the first existing file of {@code KUBECONFIG}, {@code ~/.kube/config}, then the
 * in-cluster service account. {@code ~} is {@code $HOME}, as for kubectl and the official
 * client's {@code ClientBuilder}, not Java's {@code user.home} (which a container image
 * or a service manager may set to something else). Nothing found is an error, never a
 * silent fallback to {@code localhost:8080}.
 *
 * @author Kubeop authors
 */
class PropertiesKubernetesConnectionDetails implements KubernetesConnectionDetails {

	static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

	private final Path file;

	private final String context;

	private final String kubeconfig;

	PropertiesKubernetesConnectionDetails(KubeopProperties.Client properties, UnaryOperator<String> environment,
			Path home) {
		this.context = properties.getContext();
		this.file = findKubeconfig(properties, environment, home);
		this.kubeconfig = (this.file != null) ? read(this.file) : null;
	}

	/**
	 * Returns the home directory kubectl and the official client look in: {@code HOME};
	 * on Windows, when it is not set, {@code HOMEDRIVE} and {@code HOMEPATH}, then
	 * {@code USERPROFILE}; Java's {@code user.home} only when none of these names an
	 * existing directory.
	 * @param environment the environment variables
	 * @param userHome Java's {@code user.home}
	 * @return the home directory
	 */
	static Path homeDirectory(UnaryOperator<String> environment, String userHome) {
		List<String> candidates = new ArrayList<>();
		candidates.add(environment.apply("HOME"));
		if (File.separatorChar == '\\') {
			String drive = environment.apply("HOMEDRIVE");
			String path = environment.apply("HOMEPATH");
			candidates.add((drive != null && path != null) ? drive + path : null);
			candidates.add(environment.apply("USERPROFILE"));
		}
		for (String candidate : candidates) {
			if (candidate != null && !candidate.isBlank() && Files.isDirectory(Path.of(candidate))) {
				return Path.of(candidate);
			}
		}
		return Path.of(userHome);
	}

	@Override
	public String kubeconfig() {
		return this.kubeconfig;
	}

	@Override
	public String context() {
		return this.context;
	}

	@Override
	public Path kubeconfigFile() {
		return this.file;
	}

	private static Path findKubeconfig(KubeopProperties.Client properties, UnaryOperator<String> environment,
			Path home) {
		if (properties.getKubeconfig() != null) {
			Path configured = Path.of(properties.getKubeconfig());
			if (!Files.isReadable(configured)) {
				throw new NoKubernetesClusterException(
						"kubeop.client.kubeconfig names " + configured + ", which is not a readable file");
			}
			return configured;
		}
		String variable = environment.apply("KUBECONFIG");
		if (variable != null && !variable.isBlank()) {
			for (String entry : variable.split(File.pathSeparator)) {
				if (!entry.isBlank() && Files.isReadable(Path.of(entry))) {
					return Path.of(entry);
				}
			}
		}
		Path standard = home.resolve(".kube").resolve("config");
		if (Files.isReadable(standard)) {
			return standard;
		}
		if (environment.apply("KUBERNETES_SERVICE_HOST") != null && Files.isReadable(SERVICE_ACCOUNT_TOKEN)) {
			return null;
		}
		throw new NoKubernetesClusterException("No Kubernetes cluster is configured: kubeop.client.kubeconfig is "
				+ "not set, KUBECONFIG names no readable file, " + standard + " does not exist, "
				+ "and this process does not run in a cluster");
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read kubeconfig " + file, ex);
		}
	}

}
