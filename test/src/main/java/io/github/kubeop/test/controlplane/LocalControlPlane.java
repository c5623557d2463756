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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes control plane made of a kube-apiserver and an etcd process on free
 * loopback ports, in the spirit of kubebuilder's envtest, plus the optional
 * {@link Component components} a test asks for: kube-controller-manager, kube-scheduler
 * and simulated nodes (kwok). It generates a certificate authority, serving certificates,
 * service-account signing keys, an administrator kubeconfig and one kubeconfig per
 * component; authorization is RBAC, so users other than the administrator get what their
 * bindings give them. Without the controller-manager, namespaces stay {@code Terminating}
 * after deletion and owned objects outlive their owner; without the scheduler and nodes,
 * pods stay {@code Pending}.
 * <p>
 * The components start together once kube-apiserver is ready. kube-controller-manager
 * learns the API's resources when it starts and then every 30 s: after
 * CustomResourceDefinitions are applied, {@link #refreshDiscovery()} restarts it so that
 * its garbage collector knows the new kinds at once. Each process writes its output to
 * {@code <name>.log} under {@code target/kubeop-control-plane/} when the working
 * directory has a {@code target} directory (as under Maven), so that the logs of a failed
 * run are kept; otherwise in the control plane's temporary directory. The processes are
 * stopped by {@link #close()}, by a JVM shutdown hook, and, should the JVM die without
 * running hooks, by the next control plane that starts on this machine.
 *
 * @author Kubeop authors
 */
public final class LocalControlPlane implements ControlPlane {

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlane.class);

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration STOP_GRACE = Duration.ofSeconds(10);

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * How often etcd and kube-apiserver are started on other ports after a bind failure.
	 */
	private static final int BIND_ATTEMPTS = 3;

	/**
	 * The annotation that kwok manages nodes by, as in kwok's own examples.
	 */
	static final String KWOK_NODE_ANNOTATION = "kwok.x-k8s.io/node";

	/**
	 * The name of the simulated node.
	 */
	public static final String NODE_NAME = "kubeop-node-1";

	private static final AtomicInteger runs = new AtomicInteger();

	/**
	 * What kube-controller-manager logs once its garbage collector's monitors have synced
	 * (or it gave up waiting for them) and its workers start; older versions write it
	 * with other capitals, so it is matched in lower case.
	 */
	private static final String GARBAGE_COLLECTOR_WORKING = "proceeding to collect garbage";

	/**
	 * kwok's configuration: no stages, so that it uses the default node and pod stages it
	 * ships (nodes become Ready with a lease heartbeat; pods Running and Ready).
	 */
	private static final String KWOK_CONFIGURATION = """
			apiVersion: config.kwok.x-k8s.io/v1alpha1
			kind: KwokConfiguration
			options: {}
			""";

	private final ControlPlaneBinaries binaries;

	private final List<String> extraApiServerArguments;

	private final List<String> extraEtcdArguments;

	private final Map<Component, Path> componentExecutables;

	private final Path workDirectory;

	private final Path logDirectory;

	private final ProcessReaper reaper;

	private final IntSupplier ports;

	private final CertificateAuthority authority = CertificateAuthority.create("kubeop-test-ca");

	private final Map<Process, Path> processes = new ConcurrentHashMap<>();

	private final CertificateAuthority.IssuedCertificate admin;

	private volatile int etcdClientPort;

	private volatile int etcdPeerPort;

	private volatile int apiServerPort;

	private volatile String kubeconfig;

	private final Path kubeconfigFile;

	private final Thread shutdownHook = new Thread(this::stopProcesses, "kubeop-control-plane-shutdown");

	private volatile Process etcd;

	private volatile Process apiServer;

	private final Map<Component, Process> componentProcesses = new ConcurrentHashMap<>();

	/**
	 * The served versions of custom resources, as {@code plural.group/version}, that
	 * existed when kube-controller-manager last started, and so are known to it.
	 */
	private volatile Set<String> resourcesKnownToComponents = Set.of();

	private String version;

	private LocalControlPlane(ControlPlaneBinaries binaries, List<String> extraApiServerArguments,
			List<String> extraEtcdArguments, Map<Component, Path> componentExecutables, Path cacheDirectory,
			IntSupplier ports) throws IOException {
		this.binaries = binaries;
		this.ports = ports;
		this.extraApiServerArguments = List.copyOf(extraApiServerArguments);
		this.extraEtcdArguments = List.copyOf(extraEtcdArguments);
		Map<Component, Path> executables = new EnumMap<>(Component.class);
		executables.putAll(componentExecutables);
		this.componentExecutables = Collections.unmodifiableMap(executables);
		this.workDirectory = Files.createTempDirectory("kubeop-control-plane-");
		this.logDirectory = logDirectory(this.workDirectory);
		this.reaper = new ProcessReaper(cacheDirectory.resolve("control-plane").resolve("run"));
		this.etcdClientPort = ports.getAsInt();
		this.etcdPeerPort = ports.getAsInt();
		this.apiServerPort = ports.getAsInt();
		writeCertificates();
		this.admin = this.authority.issueClient("kubeop-admin", List.of("system:masters"));
		this.kubeconfigFile = file("kubeconfig");
		writeKubeconfig();
	}

	/**
	 * Starts a control plane from the given binaries.
	 * @param binaries the kube-apiserver and etcd executables
	 * @return the running control plane
	 */
	public static LocalControlPlane start(ControlPlaneBinaries binaries) {
		return start(binaries, List.of());
	}

	/**
	 * Starts a control plane from the given binaries, with extra kube-apiserver arguments
	 * (such as {@code --etcd-compaction-interval=10s}).
	 * @param binaries the kube-apiserver and etcd executables
	 * @param extraApiServerArguments arguments appended to kube-apiserver's command line
	 * @return the running control plane
	 */
	public static LocalControlPlane start(ControlPlaneBinaries binaries, List<String> extraApiServerArguments) {
		return start(binaries, extraApiServerArguments, Set.of());
	}

	/**
	 * Starts a control plane from the given binaries, with extra kube-apiserver arguments
	 * and the given optional components. The components' executables are found or built
	 * first (see {@link ControlPlaneAssets#resolve(Component)}), so that a component that
	 * is unavailable fails the start at once with a {@link ComponentUnavailableException}
	 * naming it; one that does not start fails it with the command and the tail of its
	 * log.
	 * @param binaries the kube-apiserver and etcd executables
	 * @param extraApiServerArguments arguments appended to kube-apiserver's command line
	 * @param components the optional components to run as well
	 * @return the running control plane
	 */
	public static LocalControlPlane start(ControlPlaneBinaries binaries, List<String> extraApiServerArguments,
			Set<Component> components) {
		ControlPlaneAssets assets = ControlPlaneAssets.fromEnvironment();
		Map<Component, Path> executables = new EnumMap<>(Component.class);
		for (Component component : components) {
			executables.put(component, assets.resolve(component));
		}
		return start(binaries, extraApiServerArguments, executables);
	}

	/**
	 * Starts a control plane from the given binaries, with extra kube-apiserver and etcd
	 * arguments (such as etcd's {@code --quota-backend-bytes} for a large number of
	 * objects).
	 * @param binaries the kube-apiserver and etcd executables
	 * @param extraApiServerArguments arguments appended to kube-apiserver's command line
	 * @param extraEtcdArguments arguments appended to etcd's command line
	 * @return the running control plane
	 */
	public static LocalControlPlane start(ControlPlaneBinaries binaries, List<String> extraApiServerArguments,
			List<String> extraEtcdArguments) {
		return start(binaries, extraApiServerArguments, extraEtcdArguments, Map.of(), LoopbackPorts::pick);
	}

	static LocalControlPlane start(ControlPlaneBinaries binaries, List<String> extraApiServerArguments,
			Map<Component, Path> executables) {
		return start(binaries, extraApiServerArguments, List.of(), executables, LoopbackPorts::pick);
	}

	static LocalControlPlane start(ControlPlaneBinaries binaries, List<String> extraApiServerArguments,
			List<String> extraEtcdArguments, Map<Component, Path> executables, IntSupplier ports) {
		Instant start = Instant.now();
		ControlPlaneAssets assets = ControlPlaneAssets.fromEnvironment();
		new ProcessReaper(assets.cacheDirectory().resolve("control-plane").resolve("run")).reapOrphans();
		LocalControlPlane controlPlane;
		try {
			controlPlane = new LocalControlPlane(binaries, extraApiServerArguments, extraEtcdArguments, executables,
					assets.cacheDirectory(), ports);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not prepare a local control plane", ex);
		}
		Runtime.getRuntime().addShutdownHook(controlPlane.shutdownHook);
		try {
			controlPlane.startOnFreePorts("etcd", controlPlane::startEtcd, controlPlane::moveEtcd);
			controlPlane.startOnFreePorts("kube-apiserver", controlPlane::startApiServer, controlPlane::moveApiServer);
			controlPlane.startComponents();
		}
		catch (RuntimeException ex) {
			controlPlane.close();
			throw ex;
		}
		logger.info("Started {} at {} in {} ms (binaries: {})", controlPlane.description(), controlPlane.serverUrl(),
				Duration.between(start, Instant.now()).toMillis(), binaries.origin());
		return controlPlane;
	}

	@Override
	public String description() {
		StringBuilder description = new StringBuilder("kube-apiserver " + this.version + " with etcd");
		this.componentExecutables.keySet()
			.forEach((component) -> description.append(", ").append(component.executableName()));
		return description.append(" (local processes)").toString();
	}

	/**
	 * Returns the optional components this control plane runs.
	 * @return the components
	 */
	public Set<Component> components() {
		return this.componentExecutables.keySet();
	}

	/**
	 * Returns the directory that holds the output of each process, as {@code <name>.log}.
	 * @return the log directory
	 */
	public Path logDirectory() {
		return this.logDirectory;
	}

	@Override
	public String serverUrl() {
		return "https://127.0.0.1:" + this.apiServerPort;
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
		CertificateAuthority.IssuedCertificate issued = this.authority.issueClient(user, List.of(groups));
		return Kubeconfigs.client(Kubeconfigs.withClientCertificate(serverUrl(), this.authority.certificatePem(), user,
				issued.certificatePem(), issued.privateKeyPem()));
	}

	/**
	 * Returns the directory holding certificates, etcd data and process logs.
	 * @return the working directory
	 */
	public Path workDirectory() {
		return this.workDirectory;
	}

	/**
	 * Stops kube-apiserver; clients see connection failures until
	 * {@link #startApiServer()}.
	 */
	public synchronized void stopApiServer() {
		stop(this.apiServer);
	}

	/**
	 * Starts kube-apiserver on the same port after {@link #stopApiServer()} and waits
	 * until it is ready.
	 */
	public synchronized void startApiServer() {
		List<String> command = new ArrayList<>(List.of(this.binaries.kubeApiServer().toString(),
				"--advertise-address=127.0.0.1", "--bind-address=127.0.0.1", "--secure-port=" + this.apiServerPort,
				"--etcd-servers=http://127.0.0.1:" + this.etcdClientPort, "--tls-cert-file=" + file("apiserver.crt"),
				"--tls-private-key-file=" + file("apiserver.key"), "--client-ca-file=" + file("ca.crt"),
				"--authorization-mode=RBAC", "--service-cluster-ip-range=10.0.0.0/24",
				"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
				"--service-account-key-file=" + file("sa.pub"), "--service-account-signing-key-file=" + file("sa.key"),
				"--disable-admission-plugins=ServiceAccount", "--endpoint-reconciler-type=none",
				"--allow-privileged=true", "--profiling=false", "--cert-dir=" + file("apiserver-certs")));
		command.addAll(this.extraApiServerArguments);
		this.apiServer = launch("kube-apiserver", command);
		this.version = awaitReady();
	}

	/**
	 * Stops and starts kube-apiserver, as an upgrade or a crash would.
	 */
	public synchronized void restartApiServer() {
		stopApiServer();
		startApiServer();
	}

	/**
	 * Stops etcd; kube-apiserver reports errors until {@link #startEtcd()}.
	 */
	public synchronized void stopEtcd() {
		stop(this.etcd);
	}

	/**
	 * Starts etcd on the same ports and data directory after {@link #stopEtcd()}.
	 */
	public synchronized void startEtcd() {
		String clientUrl = "http://127.0.0.1:" + this.etcdClientPort;
		String peerUrl = "http://127.0.0.1:" + this.etcdPeerPort;
		List<String> command = new ArrayList<>(
				List.of(this.binaries.etcd().toString(), "--name=kubeop", "--data-dir=" + file("etcd"),
						"--listen-client-urls=" + clientUrl, "--advertise-client-urls=" + clientUrl,
						"--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
						"--initial-cluster=kubeop=" + peerUrl, "--unsafe-no-fsync=true", "--log-level=warn"));
		command.addAll(this.extraEtcdArguments);
		this.etcd = launch("etcd", command);
		awaitEtcdHealthy(clientUrl);
	}

	/**
	 * Stops and starts etcd, keeping its data.
	 */
	public synchronized void restartEtcd() {
		stopEtcd();
		startEtcd();
	}

	@Override
	public void close() {
		stopProcesses();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is already shutting down and runs the hook itself
		}
		FileTree.deleteQuietly(this.workDirectory);
	}

	/**
	 * Restarts kube-controller-manager, when it runs and custom resources were added
	 * since it started, so that it discovers them now rather than at its next discovery
	 * resync (every 30 s), and waits until its garbage collector works again.
	 */
	@Override
	public synchronized void refreshDiscovery() {
		Process controllerManager = this.componentProcesses.get(Component.CONTROLLER_MANAGER);
		if (controllerManager == null) {
			return;
		}
		Set<String> resources = customResources();
		Set<String> added = new TreeSet<>(resources);
		added.removeAll(this.resourcesKnownToComponents);
		if (added.isEmpty()) {
			return;
		}
		Instant start = Instant.now();
		stop(controllerManager);
		this.resourcesKnownToComponents = resources;
		Component component = Component.CONTROLLER_MANAGER;
		List<String> command;
		try {
			// on a new port, so that no process that took the old one in between can get
			// in the way
			command = componentCommand(component, this.componentExecutables.get(component).toString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		long logOffset = logFile(component.executableName()).toFile().length();
		Process restarted = launch(component.executableName(), command);
		this.componentProcesses.put(component, restarted);
		awaitComponent(component, command);
		try {
			awaitCondition(component.executableName(), restarted, command,
					() -> logContains(component.executableName(), logOffset, GARBAGE_COLLECTOR_WORKING));
		}
		catch (IllegalStateException ex) {
			throw new ComponentUnavailableException(component,
					"its garbage collector did not start: " + ex.getMessage(), ex);
		}
		logger.info("Restarted kube-controller-manager in {} ms so that it knows {}",
				Duration.between(start, Instant.now()).toMillis(), added);
	}

	/**
	 * Returns the served versions of the custom resources the API server has, as
	 * {@code plural.group/version}.
	 */
	private Set<String> customResources() {
		String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
		try (Response response = apiClient().getHttpClient()
			.newCall(new Request.Builder().url(serverUrl() + path).build())
			.execute()) {
			String body = (response.body() != null) ? response.body().string() : "";
			if (!response.isSuccessful()) {
				throw new IllegalStateException(
						"Listing " + path + " failed with HTTP " + response.code() + ": " + body);
			}
			Set<String> resources = new TreeSet<>();
			for (JsonElement item : JsonParser.parseString(body).getAsJsonObject().getAsJsonArray("items")) {
				JsonObject spec = item.getAsJsonObject().getAsJsonObject("spec");
				String resource = spec.getAsJsonObject("names").get("plural").getAsString() + "."
						+ spec.get("group").getAsString();
				for (JsonElement element : spec.getAsJsonArray("versions")) {
					JsonObject version = element.getAsJsonObject();
					if (version.has("served") && version.get("served").getAsBoolean()) {
						resources.add(resource + "/" + version.get("name").getAsString());
					}
				}
			}
			return resources;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Listing " + path + " failed", ex);
		}
	}

	private boolean logContains(String name, long offset, String text) throws IOException {
		try (SeekableByteChannel channel = Files.newByteChannel(logFile(name))) {
			channel.position(offset);
			return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8)
				.toLowerCase(Locale.ROOT)
				.contains(text);
		}
	}

	/**
	 * Starts a process and, should it fail to bind a port that another process took after
	 * it was picked, starts it again on other ports.
	 */
	private void startOnFreePorts(String name, Runnable start, Runnable move) {
		for (int attempt = 1;; attempt++) {
			try {
				start.run();
				return;
			}
			catch (IllegalStateException ex) {
				if (attempt == BIND_ATTEMPTS || !LoopbackPorts.isBindFailure(String.valueOf(ex.getMessage()))) {
					throw ex;
				}
				logger.info("{} could not bind a port that was free when it was picked; starting it on another", name);
				move.run();
			}
		}
	}

	private void moveEtcd() {
		stop(this.etcd);
		// etcd binds before it creates its data directory, but a partial one must not
		// make the next attempt join a cluster that does not exist
		FileTree.deleteQuietly(file("etcd"));
		this.etcdClientPort = this.ports.getAsInt();
		this.etcdPeerPort = this.ports.getAsInt();
	}

	private void moveApiServer() {
		stop(this.apiServer);
		this.apiServerPort = this.ports.getAsInt();
		try {
			writeKubeconfig();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void writeKubeconfig() throws IOException {
		this.kubeconfig = Kubeconfigs.withClientCertificate(serverUrl(), this.authority.certificatePem(),
				"kubeop-admin", this.admin.certificatePem(), this.admin.privateKeyPem());
		writePrivate("kubeconfig", this.kubeconfig);
	}

	private void stopProcesses() {
		// the components first, so that none of them logs the API server going away
		this.componentProcesses.values().forEach(this::stop);
		stop(this.apiServer);
		stop(this.etcd);
	}

	private void startComponents() {
		if (this.componentExecutables.isEmpty()) {
			return;
		}
		Map<Component, List<String>> commands = new EnumMap<>(Component.class);
		this.componentExecutables.forEach((component, executable) -> {
			try {
				commands.put(component, componentCommand(component, executable.toString()));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
		if (commands.containsKey(Component.CONTROLLER_MANAGER)) {
			this.resourcesKnownToComponents = customResources();
		}
		// all at once, so that the start-up costs the slowest of them, not their sum
		commands.forEach((component, command) -> this.componentProcesses.put(component,
				launch(component.executableName(), command)));
		if (commands.containsKey(Component.NODES)) {
			createNode();
		}
		commands.forEach((component, command) -> awaitComponent(component, command));
	}

	private List<String> componentCommand(Component component, String executable) throws IOException {
		return switch (component) {
			case CONTROLLER_MANAGER -> List.of(executable,
					"--kubeconfig=" + componentKubeconfig("kube-controller-manager", "system:kube-controller-manager"),
					"--bind-address=127.0.0.1", "--secure-port=" + LoopbackPorts.pick(),
					"--tls-cert-file=" + file("components.crt"), "--tls-private-key-file=" + file("components.key"),
					"--cert-dir=" + file("kube-controller-manager-certs"), "--leader-elect=false",
					"--use-service-account-credentials=true", "--service-account-private-key-file=" + file("sa.key"),
					"--root-ca-file=" + file("ca.crt"), "--controllers=*", "--cluster-name=kubeop",
					// its default is a system directory that it would create
					"--flex-volume-plugin-dir=" + file("flexvolume"), "--profiling=false");
			case SCHEDULER ->
				List.of(executable, "--kubeconfig=" + componentKubeconfig("kube-scheduler", "system:kube-scheduler"),
						"--bind-address=127.0.0.1", "--secure-port=" + LoopbackPorts.pick(),
						"--tls-cert-file=" + file("components.crt"), "--tls-private-key-file=" + file("components.key"),
						"--cert-dir=" + file("kube-scheduler-certs"), "--leader-elect=false", "--profiling=false");
			// a configuration of its own, so that no ~/.kwok/kwok.yaml of the user's
			// applies
			case NODES -> List.of(executable, "--kubeconfig=" + this.kubeconfigFile,
					"--config=" + writePrivate("kwok.yaml", KWOK_CONFIGURATION), "--manage-all-nodes=false",
					"--manage-nodes-with-annotation-selector=" + KWOK_NODE_ANNOTATION + "=fake", "--node-ip=127.0.0.1",
					"--cidr=10.244.0.1/16", "--server-address=127.0.0.1:" + LoopbackPorts.pick(),
					"--node-lease-duration-seconds=40");
		};
	}

	private Path componentKubeconfig(String name, String user) throws IOException {
		CertificateAuthority.IssuedCertificate issued = this.authority.issueClient(user, List.of());
		return writePrivate(name + ".kubeconfig", Kubeconfigs.withClientCertificate(serverUrl(),
				this.authority.certificatePem(), user, issued.certificatePem(), issued.privateKeyPem()));
	}

	private void createNode() {
		V1Node node = new V1Node()
			.metadata(new V1ObjectMeta().name(NODE_NAME)
				.annotations(Map.of(KWOK_NODE_ANNOTATION, "fake", "node.alpha.kubernetes.io/ttl", "0"))
				.labels(Map.of("type", "kwok", "kubernetes.io/hostname", NODE_NAME, "kubernetes.io/os", "linux",
						"kubernetes.io/arch", "amd64")))
			.status(new V1NodeStatus()
				.allocatable(Map.of("cpu", Quantity.fromString("32"), "memory", Quantity.fromString("256Gi"), "pods",
						Quantity.fromString("110")))
				.capacity(Map.of("cpu", Quantity.fromString("32"), "memory", Quantity.fromString("256Gi"), "pods",
						Quantity.fromString("110"))));
		try {
			new CoreV1Api(apiClient()).createNode(node).execute();
		}
		catch (ApiException ex) {
			throw new ComponentUnavailableException(Component.NODES,
					"could not create node " + NODE_NAME + ": HTTP " + ex.getCode() + " " + ex.getResponseBody(), ex);
		}
	}

	private void awaitComponent(Component component, List<String> command) {
		Process process = this.componentProcesses.get(component);
		try {
			switch (component) {
				case CONTROLLER_MANAGER, SCHEDULER -> awaitHealthy(component, process, command);
				case NODES -> awaitNodeReady(process, command);
			}
		}
		catch (IllegalStateException ex) {
			throw new ComponentUnavailableException(component, ex.getMessage(), ex);
		}
	}

	private void awaitHealthy(Component component, Process process, List<String> command) {
		String port = command.stream()
			.filter((argument) -> argument.startsWith("--secure-port="))
			.findFirst()
			.orElseThrow()
			.substring("--secure-port=".length());
		ApiClient client = apiClient();
		awaitCondition(component.executableName(), process, command, () -> {
			try (Response response = client.getHttpClient()
				.newCall(new Request.Builder().url("https://127.0.0.1:" + port + "/healthz").build())
				.execute()) {
				return response.code() == 200;
			}
		});
	}

	private void awaitNodeReady(Process process, List<String> command) {
		CoreV1Api core = new CoreV1Api(apiClient());
		boolean untaintedByControllerManager = this.componentExecutables.containsKey(Component.CONTROLLER_MANAGER);
		awaitCondition("kwok", process, command, () -> {
			V1Node node = core.readNode(NODE_NAME).execute();
			boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus()
				.getConditions()
				.stream()
				.anyMatch((condition) -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
			if (!ready) {
				return false;
			}
			boolean tainted = node.getSpec() != null && node.getSpec().getTaints() != null
					&& !node.getSpec().getTaints().isEmpty();
			if (tainted && !untaintedByControllerManager) {
				// the admission plugin taints new nodes not-ready; the node lifecycle
				// controller lifts the taint once the node is Ready, and stands in for it
				// here when it does not run
				node.getSpec().setTaints(null);
				core.replaceNode(NODE_NAME, node).execute();
				return false;
			}
			return !tainted;
		});
	}

	private void stop(Process process) {
		if (process != null) {
			ProcessReaper.stop(process.toHandle(), STOP_GRACE);
			this.reaper.forget(this.processes.remove(process));
		}
	}

	private Process launch(String name, List<String> command) {
		Path log = logFile(name);
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		builder.environment().put("KUBEOP_EXIT_WITH_PARENT", "true");
		try {
			Process process = builder.start();
			this.processes.put(process, this.reaper.register(process, this.workDirectory));
			return process;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + command.get(0), ex);
		}
	}

	private void awaitEtcdHealthy(String clientUrl) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		HttpRequest request = HttpRequest.newBuilder(URI.create(clientUrl + "/health"))
			.timeout(Duration.ofSeconds(2))
			.build();
		awaitCondition("etcd", this.etcd, List.of(this.binaries.etcd().toString()), () -> {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
		});
	}

	private String awaitReady() {
		ApiClient client = apiClient();
		// bounded, so that a probe that reaches something other than kube-apiserver (a
		// process that took its port and never answers) does not hang the start
		OkHttpClient probes = client.getHttpClient().newBuilder().callTimeout(PROBE_TIMEOUT).build();
		awaitCondition("kube-apiserver", this.apiServer, List.of(this.binaries.kubeApiServer().toString()), () -> {
			try (Response response = probes.newCall(new Request.Builder().url(serverUrl() + "/readyz").build())
				.execute()) {
				return response.code() == 200;
			}
		});
		try (Response response = client.getHttpClient()
			.newCall(new Request.Builder().url(serverUrl() + "/version").build())
			.execute()) {
			return JsonParser.parseString(response.body().string()).getAsJsonObject().get("gitVersion").getAsString();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("kube-apiserver is ready but /version failed", ex);
		}
	}

	private void awaitCondition(String name, Process process, List<String> command, Probe probe) {
		Instant deadline = Instant.now().plus(START_TIMEOUT);
		Exception lastFailure = null;
		while (Instant.now().isBefore(deadline)) {
			if (!process.isAlive()) {
				throw new IllegalStateException(name + " exited with code " + process.exitValue()
						+ " while starting (command: " + String.join(" ", command) + "); its last output (in "
						+ logFile(name) + "):\n" + FileTree.tail(logFile(name), 30));
			}
			try {
				if (probe.ready()) {
					return;
				}
			}
			catch (Exception ex) {
				lastFailure = ex;
			}
			sleep(Duration.ofMillis(100));
		}
		throw new IllegalStateException(name + " was not ready after " + START_TIMEOUT.toSeconds() + " s (command: "
				+ String.join(" ", command) + ", last probe: " + lastFailure + "); its last output (in " + logFile(name)
				+ "):\n" + FileTree.tail(logFile(name), 30));
	}

	private void writeCertificates() throws IOException {
		CertificateAuthority.IssuedCertificate serving = this.authority.issueServer("kube-apiserver");
		writePrivate("ca.crt", this.authority.certificatePem());
		writePrivate("apiserver.crt", serving.certificatePem());
		writePrivate("apiserver.key", serving.privateKeyPem());
		KeyPair serviceAccountKeys = CertificateAuthority.newKeyPair();
		writePrivate("sa.pub", CertificateAuthority.pem(serviceAccountKeys.getPublic()));
		writePrivate("sa.key", CertificateAuthority.pem(serviceAccountKeys.getPrivate()));
		CertificateAuthority.IssuedCertificate components = this.authority.issueServer("kubeop-components");
		writePrivate("components.crt", components.certificatePem());
		writePrivate("components.key", components.privateKeyPem());
	}

	private Path writePrivate(String name, String content) throws IOException {
		Path path = file(name);
		Files.writeString(path, content, StandardCharsets.US_ASCII);
		Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
		return path;
	}

	private Path file(String name) {
		return this.workDirectory.resolve(name);
	}

	private Path logFile(String name) {
		return this.logDirectory.resolve(name + ".log");
	}

	/**
	 * Returns a fresh directory for the logs of one control plane: under
	 * {@code target/kubeop-control-plane/} when the build tool's output directory is
	 * there, so that a failed run leaves its logs behind, else in the work directory.
	 */
	private static Path logDirectory(Path workDirectory) throws IOException {
		Path target = Path.of("target");
		if (!Files.isDirectory(target)) {
			return workDirectory;
		}
		String run = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(LocalDateTime.now()) + "-"
				+ ProcessHandle.current().pid() + "-" + runs.incrementAndGet();
		return Files.createDirectories(target.resolve("kubeop-control-plane").resolve(run));
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the control plane", ex);
		}
	}

	@FunctionalInterface
	private interface Probe {

		boolean ready() throws Exception;

	}

}
