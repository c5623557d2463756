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
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.kubeop.autoconfigure.KubeopProperties;
import io.github.kubeop.webhook.InvalidWebhookMethodException;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Generates the CustomResourceDefinition of each typed custom resource class and the
 * ClusterRole the operator needs, and the webhook configurations of its webhook methods
 * (with their Service and cert-manager Certificate, under
 * {@code META-INF/kubeop/webhooks/}), from the project's compiled classes and its
 * {@code application.properties} or {@code application.yaml}. By default they are written
 * into the project's classes directory, under {@code META-INF/kubeop/crds/} and
 * {@code META-INF/kubeop/rbac/}, so that they ship in the jar and tests can apply them
 * from the classpath.
 *
 * @author Kubeop authors
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
		requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public class GenerateMojo extends AbstractMojo {

	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private static final Pattern DNS_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	/**
	 * The location of the generated files under the classes directory.
	 */
	static final String DEFAULT_LOCATION = "META-INF/kubeop";

	@Parameter(defaultValue = "${project}", readonly = true, required = true)
	private MavenProject project;

	/**
	 * The directory of the compiled classes to scan.
	 */
	@Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
	private File classesDirectory;

	/**
	 * The directory to write {@code crds/<plural>.<group>.yaml} and
	 * {@code rbac/cluster-role.yaml} to.
	 */
	@Parameter(defaultValue = "${project.build.outputDirectory}/" + DEFAULT_LOCATION, required = true)
	private File outputDirectory;

	/**
	 * The packages to scan for custom resource and handler classes; all when empty.
	 */
	@Parameter
	private List<String> packages = new ArrayList<>();

	/**
	 * The name of the generated ClusterRole.
	 */
	@Parameter(defaultValue = "${project.artifactId}", required = true)
	private String roleName;

	/**
	 * Whether to generate the ClusterRole.
	 */
	@Parameter(property = "kubeop.rbac", defaultValue = "true")
	private boolean rbac;

	/**
	 * Rules to add to the ClusterRole, for what the operator does beyond what the
	 * generator can see (a client call in a handler, say).
	 */
	@Parameter
	private List<PolicyRule> rules = new ArrayList<>();

	/**
	 * The service account the operator runs as, {@code <namespace>/<name>}: when set, a
	 * ServiceAccount and a ClusterRoleBinding of the generated ClusterRole to it are
	 * written to {@code rbac/service-account.yaml}.
	 */
	@Parameter
	private String serviceAccount;

	/**
	 * Where the API server reaches the conversion webhook of kinds with several versions:
	 * {@code serviceName}, {@code serviceNamespace}, {@code servicePort} (443),
	 * {@code path} ({@code /convert/{group}/{plural}}) and {@code certManagerCertificate}
	 * ({@code <namespace>/<name>}, for cert-manager's CA injection). Without it, such
	 * kinds convert by strategy {@code None}.
	 */
	@Parameter
	private ConversionWebhook conversionWebhook;

	/**
	 * Whether to compile the CEL validation rules against their schema at build time,
	 * besides checking their structure.
	 */
	@Parameter(property = "kubeop.validation-rules.compile", defaultValue = "true")
	private boolean compileValidationRules;

	/**
	 * Whether to write {@code deploy/operator.yaml} when {@code serviceAccount} is set:
	 * the operator's Namespace and Deployment, and with leader election the Role and
	 * RoleBinding that grant its Lease permissions in that namespace.
	 */
	@Parameter(property = "kubeop.deployment", defaultValue = "true")
	private boolean deployment;

	/**
	 * The name of the Deployment, a DNS label.
	 */
	@Parameter(defaultValue = "${project.artifactId}", required = true)
	private String deploymentName;

	/**
	 * The container image the Deployment runs; by default the name
	 * {@code spring-boot:build-image} gives the image.
	 */
	@Parameter(property = "kubeop.image", defaultValue = "${project.artifactId}:${project.version}")
	private String image;

	/**
	 * The number of replicas of the Deployment: 1 by default, 2 with leader election, so
	 * that a standby with warm caches takes over.
	 */
	@Parameter
	private Integer replicas;

	/**
	 * Whether the Deployment turns leader election on (with the Lease in the operator's
	 * namespace) and grants its Lease permissions; by default whether the application's
	 * configuration enables it ({@code kubeop.leader-election.enabled}).
	 */
	@Parameter
	private Boolean leaderElection;

	/**
	 * The port the actuator's health endpoints answer on, for the probes:
	 * {@code management.server.port} if the application sets one, else
	 * {@code server.port}.
	 */
	@Parameter(defaultValue = "8080")
	private int managementPort;

	/**
	 * The CPU request of the operator's container.
	 */
	@Parameter(defaultValue = "100m")
	private String cpuRequest;

	/**
	 * The memory request of the operator's container, which is also its limit, so that
	 * the JVM sizes its heap from it.
	 */
	@Parameter(defaultValue = "512Mi")
	private String memory;

	/**
	 * Whether to skip the generation.
	 */
	@Parameter(property = "kubeop.generate.skip", defaultValue = "false")
	private boolean skip;

	/**
	 * The Service the API server calls the webhooks through, {@code <namespace>/<name>}:
	 * the generated webhook configurations point at it (port 443) and carry
	 * cert-manager's {@code cert-manager.io/inject-ca-from} annotation for the
	 * Certificate {@code <name>-serving-cert}.
	 */
	@Parameter(defaultValue = "default/${project.artifactId}-webhooks")
	private String webhookService;

	/**
	 * The labels of the operator's pods, which the webhook Service selects;
	 * {@code app.kubernetes.io/name: <artifactId>} when empty.
	 */
	@Parameter
	private Map<String, String> webhookSelector = new LinkedHashMap<>();

	/**
	 * The port the operator serves its webhooks on ({@code kubeop.webhooks.port}), which
	 * the webhook Service targets.
	 */
	@Parameter(defaultValue = "9443")
	private int webhookPort;

	@Override
	public void execute() throws MojoExecutionException, MojoFailureException {
		if (this.skip) {
			getLog().info("Skipping Kubeop generation");
			return;
		}
		try (URLClassLoader classLoader = new URLClassLoader(classpath(this.project, this.classesDirectory),
				getClass().getClassLoader())) {
			OperatorClasses classes = OperatorClasses.scan(this.classesDirectory.toPath(), classLoader, this.packages);
			Path crds = this.outputDirectory.toPath().resolve("crds");
			deleteGeneratedFiles(crds);
			ConversionWebhook webhook = (this.conversionWebhook != null) ? this.conversionWebhook.validated() : null;
			if (webhook == null) {
				CrdGenerator.byDefinition(classes.resourceClasses()).forEach((name, versions) -> {
					if (versions.size() > 1) {
						getLog().warn(name + " has " + versions.size() + " versions and no <conversionWebhook> is "
								+ "configured: the API server converts between them by rewriting apiVersion only "
								+ "(strategy None), which is right only while their schemas agree");
					}
				});
			}
			List<Path> written = new CrdGenerator(webhook, this.compileValidationRules).write(classes.resourceClasses(),
					crds);
			written
				.forEach((file) -> getLog().info("Generated " + this.project.getBasedir().toPath().relativize(file)));
			writeWebhooks(classes);
			if (this.rbac) {
				Path role = writeClusterRole(classes);
				getLog().info("Generated " + this.project.getBasedir().toPath().relativize(role));
			}
			if (this.deployment && this.serviceAccount != null && !this.serviceAccount.isBlank()) {
				Path operator = writeDeployment(classes);
				getLog().info("Generated " + this.project.getBasedir().toPath().relativize(operator));
			}
		}
		catch (IllegalArgumentException ex) {
			throw new MojoFailureException(ex.getMessage(), ex);
		}
		catch (InvalidWebhookMethodException ex) {
			throw new MojoFailureException(ex.getMessage() + ". " + ex.getFix(), ex);
		}
		catch (IOException ex) {
			throw new MojoExecutionException("Could not generate Kubeop resources: " + ex.getMessage(), ex);
		}
	}

	private void writeWebhooks(OperatorClasses classes) throws IOException {
		Path directory = this.outputDirectory.toPath().resolve("webhooks");
		deleteGeneratedFiles(directory);
		WebhookGenerator generator = new WebhookGenerator(classes.webhookClasses());
		if (generator.isEmpty()) {
			return;
		}
		Files.createDirectories(directory);
		Path configurations = directory.resolve("configurations.yaml");
		Files.writeString(configurations, generator.configurations(this.roleName, this.webhookService));
		Map<String, String> selector = this.webhookSelector.isEmpty()
				? Map.of("app.kubernetes.io/name", this.project.getArtifactId()) : this.webhookSelector;
		Path service = directory.resolve("service.yaml");
		Files.writeString(service, generator.serviceAndCertificate(this.webhookService, selector, this.webhookPort));
		for (Path file : List.of(configurations, service)) {
			getLog().info("Generated " + this.project.getBasedir().toPath().relativize(file));
		}
	}

	private Path writeClusterRole(OperatorClasses classes) throws IOException {
		RbacGenerator generator = new RbacGenerator(classes.resourceClasses());
		classes.handlerClasses().forEach(generator::handler);
		for (KubeopProperties properties : classes.properties()) {
			generator.properties(properties);
		}
		for (PolicyRule rule : this.rules) {
			rule.addTo(generator);
		}
		Path directory = this.outputDirectory.toPath().resolve("rbac");
		Files.createDirectories(directory);
		Path file = directory.resolve("cluster-role.yaml");
		Files.writeString(file, generator.yaml(this.roleName));
		if (this.serviceAccount != null && !this.serviceAccount.isBlank()) {
			Path binding = directory.resolve("service-account.yaml");
			Files.writeString(binding, serviceAccountYaml(this.roleName, this.serviceAccount.trim()));
			getLog().info("Generated " + this.project.getBasedir().toPath().relativize(binding));
		}
		return file;
	}

	private Path writeDeployment(OperatorClasses classes) throws IOException {
		boolean leaderElectionEnabled = (this.leaderElection != null) ? this.leaderElection
				: classes.properties().stream().anyMatch((properties) -> properties.getLeaderElection().isEnabled());
		int replicaCount = (this.replicas != null) ? this.replicas : (leaderElectionEnabled ? 2 : 1);
		DeploymentGenerator generator = new DeploymentGenerator(this.deploymentName, this.serviceAccount, this.image,
				replicaCount, leaderElectionEnabled, this.managementPort, this.cpuRequest, this.memory);
		Path directory = this.outputDirectory.toPath().resolve("deploy");
		Files.createDirectories(directory);
		Path file = directory.resolve("operator.yaml");
		Files.writeString(file, generator.yaml());
		return file;
	}

	/**
	 * The ServiceAccount and its binding to the ClusterRole.
	 * @param roleName the ClusterRole
	 * @param serviceAccount {@code <namespace>/<name>}
	 * @return the YAML
	 */
	static String serviceAccountYaml(String roleName, String serviceAccount) {
		String[] parts = serviceAccount.split("/");
		if (parts.length != 2 || !DNS_LABEL.matcher(parts[0]).matches() || !DNS_SUBDOMAIN.matcher(parts[1]).matches()
				|| !DNS_SUBDOMAIN.matcher(roleName).matches()) {
			throw new IllegalArgumentException("<serviceAccount> must be <namespace>/<name> with DNS names, and "
					+ "<roleName> a DNS name: got '" + serviceAccount + "' and '" + roleName + "'");
		}
		return """
				apiVersion: v1
				kind: ServiceAccount
				metadata:
				  name: %2$s
				  namespace: %1$s
				---
				apiVersion: rbac.authorization.k8s.io/v1
				kind: ClusterRoleBinding
				metadata:
				  name: %3$s
				roleRef:
				  apiGroup: rbac.authorization.k8s.io
				  kind: ClusterRole
				  name: %3$s
				subjects:
				- kind: ServiceAccount
				  name: %2$s
				  namespace: %1$s
				""".formatted(parts[0], parts[1], roleName);
	}

	/**
	 * The project's classes and runtime dependencies, for a class loader to scan with.
	 * @param project the project
	 * @param classesDirectory its classes
	 * @return the URLs
	 * @throws MojoExecutionException if the dependencies are not resolved
	 */
	static URL[] classpath(MavenProject project, File classesDirectory) throws MojoExecutionException {
		try {
			List<URL> urls = new ArrayList<>();
			urls.add(classesDirectory.toURI().toURL());
			for (String element : project.getRuntimeClasspathElements()) {
				urls.add(new File(element).toURI().toURL());
			}
			return urls.toArray(URL[]::new);
		}
		catch (DependencyResolutionRequiredException | MalformedURLException ex) {
			throw new MojoExecutionException("Could not build the project's classpath", ex);
		}
	}

	// a resource class that was removed or renamed must not leave its old CRD behind
	private static void deleteGeneratedFiles(Path crds) throws IOException {
		if (!Files.isDirectory(crds)) {
			return;
		}
		try (Stream<Path> files = Files.list(crds)) {
			for (Path file : files.filter((candidate) -> candidate.toString().endsWith(".yaml")).toList()) {
				Files.delete(file);
			}
		}
	}

	/**
	 * An extra rule of the ClusterRole, configured as
	 * {@code <rule><apiGroups><apiGroup>apps</apiGroup></apiGroups>...</rule>}.
	 */
	public static class PolicyRule {

		private List<String> apiGroups = new ArrayList<>();

		private List<String> resources = new ArrayList<>();

		private List<String> verbs = new ArrayList<>();

		void addTo(RbacGenerator generator) {
			if (this.resources.isEmpty() || this.verbs.isEmpty()) {
				throw new IllegalArgumentException("A rule in <rules> needs <resources> and <verbs>");
			}
			// an empty <apiGroup/> is the core group
			List<String> groups = this.apiGroups.isEmpty() ? List.of("") : this.apiGroups;
			for (String group : groups) {
				for (String resource : this.resources) {
					generator.rule((group != null) ? group.trim() : "", resource.trim(), this.verbs);
				}
			}
		}

	}

}
