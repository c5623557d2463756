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

package io.github.kubeop.maven;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.kubeop.test.controlplane.ControlPlaneAssets;
import io.github.kubeop.test.controlplane.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Verifies the CustomResourceDefinitions of the project's typed custom resource classes
 * with a real API server, which validates them completely, CEL rules compiled and their
 * cost estimated included, unlike the checks of the {@code generate} goal: each is
 * created with {@code dryRun=All}, or replaced so when the API server has one of that
 * name, so nothing is stored. A definition the API server refuses fails the build naming
 * the class, the field and the rule with the API server's message (such as
 * {@code estimated rule cost exceeds budget}). The API server is a local kube-apiserver
 * and etcd started for the goal and stopped after it (Kubeop's test control plane, whose
 * binaries are cached under {@code ~/.cache/kubeop}), or, with {@code useKubeconfig}, the
 * cluster of the kubeconfig's current context.
 *
 * @author Kubeop authors
 */
@Mojo(name = "verify-crds", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
		requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public class VerifyCrdsMojo extends AbstractMojo {

	@Parameter(defaultValue = "${project}", readonly = true, required = true)
	private MavenProject project;

	/**
	 * The directory of the compiled classes to scan.
	 */
	@Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
	private File classesDirectory;

	/**
	 * The packages to scan for custom resource classes; all when empty.
	 */
	@Parameter
	private List<String> packages = new ArrayList<>();

	/**
	 * The conversion webhook of kinds with several versions, as configured for the
	 * {@code generate} goal, so that the definitions verified are those it writes.
	 */
	@Parameter
	private ConversionWebhook conversionWebhook;

	/**
	 * Whether to verify with the cluster of the kubeconfig's current context
	 * ({@code kubeconfig}, else {@code KUBECONFIG}, else {@code ~/.kube/config}) rather
	 * than with a local control plane started for the goal.
	 */
	@Parameter(property = "kubeop.verify-crds.use-kubeconfig", defaultValue = "false")
	private boolean useKubeconfig;

	/**
	 * The kubeconfig file to use with {@code useKubeconfig}.
	 */
	@Parameter(property = "kubeop.verify-crds.kubeconfig")
	private File kubeconfig;

	/**
	 * Whether to skip the verification.
	 */
	@Parameter(property = "kubeop.verify-crds.skip", defaultValue = "false")
	private boolean skip;

	@Override
	public void execute() throws MojoExecutionException, MojoFailureException {
		if (this.skip) {
			getLog().info("Skipping the verification of CustomResourceDefinitions");
			return;
		}
		try (URLClassLoader classLoader = new URLClassLoader(
				GenerateMojo.classpath(this.project, this.classesDirectory), getClass().getClassLoader())) {
			OperatorClasses classes = OperatorClasses.scan(this.classesDirectory.toPath(), classLoader, this.packages);
			if (classes.resourceClasses().isEmpty()) {
				getLog().info("No custom resource classes: no CustomResourceDefinition to verify");
				return;
			}
			ConversionWebhook webhook = (this.conversionWebhook != null) ? this.conversionWebhook.validated() : null;
			CrdGenerator generator = new CrdGenerator(webhook, true);
			if (this.useKubeconfig) {
				Path file = kubeconfigFile();
				ApiClient client = kubeconfigClient(file);
				report(new CrdVerifier(client, generator).verify(classes.resourceClasses()),
						"the cluster of " + file + " (" + client.getBasePath() + ")");
			}
			else {
				Instant start = Instant.now();
				try (LocalControlPlane controlPlane = LocalControlPlane
					.start(ControlPlaneAssets.fromEnvironment().resolve())) {
					getLog().debug("Started " + controlPlane.description() + " in "
							+ Duration.between(start, Instant.now()).toMillis() + " ms");
					report(new CrdVerifier(controlPlane.apiClient(), generator).verify(classes.resourceClasses()),
							controlPlane.description());
				}
			}
		}
		catch (IllegalArgumentException ex) {
			throw new MojoFailureException(ex.getMessage(), ex);
		}
		catch (IOException | IllegalStateException ex) {
			throw new MojoExecutionException(
					"Could not verify the CustomResourceDefinitions with an API server: " + ex.getMessage(), ex);
		}
	}

	private void report(List<String> verified, String apiServer) {
		verified.forEach((name) -> getLog().info("Verified CustomResourceDefinition " + name + " with " + apiServer));
	}

	private Path kubeconfigFile() throws MojoExecutionException {
		Path file;
		if (this.kubeconfig != null) {
			file = this.kubeconfig.toPath();
		}
		else if (System.getenv("KUBECONFIG") != null && !System.getenv("KUBECONFIG").isBlank()) {
			// the first file of a list, as client-java reads it
			file = Path.of(System.getenv("KUBECONFIG").split(File.pathSeparator)[0]);
		}
		else {
			file = Path.of(System.getProperty("user.home"), ".kube", "config");
		}
		if (!Files.isRegularFile(file)) {
			throw new MojoExecutionException("<useKubeconfig> is set but there is no kubeconfig at " + file
					+ ": set <kubeconfig> or KUBECONFIG, or leave <useKubeconfig> off to verify with a local "
					+ "control plane");
		}
		return file;
	}

	private static ApiClient kubeconfigClient(Path file) throws IOException {
		try (Reader reader = Files.newBufferedReader(file)) {
			KubeConfig config = KubeConfig.loadKubeConfig(reader);
			// certificate and token files are relative to the kubeconfig
			config.setFile(file.toFile());
			return ClientBuilder.kubeconfig(config).build();
		}
	}

}
