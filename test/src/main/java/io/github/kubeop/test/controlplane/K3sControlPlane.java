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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A control plane in a K3s container started by Testcontainers, for machines with a
 * Docker engine. Other users are reached through impersonation by the administrator, so
 * RBAC applies to them as it does on {@link LocalControlPlane}.
 *
 * @author Kubeop authors
 */
public final class K3sControlPlane implements ControlPlane {

	/**
	 * The K3s image used unless {@code kubeop.test.k3s-image} says otherwise.
	 */
	public static final String DEFAULT_IMAGE = "rancher/k3s:v1.35.4-k3s1";

	private static final Logger logger = LoggerFactory.getLogger(K3sControlPlane.class);

	private final K3sContainer container;

	private final String kubeconfig;

	private final Path kubeconfigFile;

	private K3sControlPlane(K3sContainer container) throws IOException {
		this.container = container;
		this.kubeconfig = container.getKubeConfigYaml();
		this.kubeconfigFile = Files.createTempFile("kubeop-k3s-", ".kubeconfig");
		Files.writeString(this.kubeconfigFile, this.kubeconfig, StandardCharsets.UTF_8);
		Files.setPosixFilePermissions(this.kubeconfigFile, PosixFilePermissions.fromString("rw-------"));
	}

	/**
	 * Returns whether a Docker engine is reachable, so that K3s can start.
	 * @return whether Docker is available
	 */
	public static boolean isDockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (Throwable ex) {
			return false;
		}
	}

	/**
	 * Starts K3s with the image named by {@code kubeop.test.k3s-image}, or
	 * {@link #DEFAULT_IMAGE}.
	 * @return the running control plane
	 */
	public static K3sControlPlane start() {
		long start = System.nanoTime();
		K3sContainer container = new K3sContainer(
				DockerImageName.parse(System.getProperty("kubeop.test.k3s-image", DEFAULT_IMAGE)));
		container.start();
		try {
			K3sControlPlane controlPlane = new K3sControlPlane(container);
			logger.info("Started {} in {} ms", controlPlane.description(), (System.nanoTime() - start) / 1_000_000);
			return controlPlane;
		}
		catch (IOException ex) {
			container.stop();
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public String description() {
		return "K3s " + this.container.getDockerImageName() + " (Testcontainers)";
	}

	@Override
	public String serverUrl() {
		return Kubeconfigs.client(this.kubeconfig).getBasePath();
	}

	@Override
	public String kubeconfig() {
		return this.kubeconfig;
	}

	@Override
	public Path kubeconfigFile() {
		return this.kubeconfigFile;
	}

	@Override
	public ApiClient apiClient() {
		return Kubeconfigs.client(this.kubeconfig);
	}

	@Override
	public ApiClient apiClientFor(String user, String... groups) {
		ApiClient client = apiClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			Request.Builder request = chain.request().newBuilder().header("Impersonate-User", user);
			for (String group : groups) {
				request.addHeader("Impersonate-Group", group);
			}
			return chain.proceed(request.build());
		}).build());
		return client;
	}

	@Override
	public void close() {
		this.container.stop();
		FileTree.deleteQuietly(this.kubeconfigFile);
	}

}
