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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kubernetes control plane made of a kube-apiserver and an etcd process on free
 * loopback ports, in the spirit of kubebuilder's envtest. It generates a certificate
 * authority, a serving certificate, service-account signing keys and an administrator
 * kubeconfig; authorization is RBAC, so users other than the administrator get what their
 * bindings give them. No controller-manager or scheduler runs: namespaces stay
 * {@code Terminating} after deletion and pods stay {@code Pending}.
 * <p>
 * The processes are stopped by {@link #close()}, by a JVM shutdown hook, and, should the
 * JVM die without running hooks, by the next control plane that starts on this machine.
 *
 * @author Kubeop authors
 */
public final class LocalControlPlane implements ControlPlane {

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlane.class);

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration STOP_GRACE = Duration.ofSeconds(10);

	private final ControlPlaneBinaries binaries;

	private final List<String> extraApiServerArguments;

	private final Path workDirectory;

	private final ProcessReaper reaper;

	private final CertificateAuthority authority = CertificateAuthority.create("kubeop-test-ca");

	private final Map<Process, Path> processes = new ConcurrentHashMap<>();

	private final int etcdClientPort;

	private final int etcdPeerPort;

	private final int apiServerPort;

	private final String kubeconfig;

	private final Path kubeconfigFile;

	private final Thread shutdownHook = new Thread(this::stopProcesses, "kubeop-control-plane-shutdown");

	private volatile Process etcd;

	private volatile Process apiServer;

	private String version;

	private LocalControlPlane(ControlPlaneBinaries binaries, List<String> extraApiServerArguments, Path cacheDirectory)
			throws IOException {
		this.binaries = binaries;
		this.extraApiServerArguments = List.copyOf(extraApiServerArguments);
		this.workDirectory = Files.createTempDirectory("kubeop-control-plane-");
		this.reaper = new ProcessReaper(cacheDirectory.resolve("control-plane").resolve("run"));
		this.etcdClientPort = freePort();
		this.etcdPeerPort = freePort();
		this.apiServerPort = freePort();
		writeCertificates();
		CertificateAuthority.IssuedCertificate admin = this.authority.issueClient("kubeop-admin",
				List.of("system:masters"));
		this.kubeconfig = Kubeconfigs.withClientCertificate(serverUrl(), this.authority.certificatePem(),
				"kubeop-admin", admin.certificatePem(), admin.privateKeyPem());
		this.kubeconfigFile = writePrivate("kubeconfig", this.kubeconfig);
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
		Instant start = Instant.now();
		ControlPlaneAssets assets = ControlPlaneAssets.fromEnvironment();
		new ProcessReaper(assets.cacheDirectory().resolve("control-plane").resolve("run")).reapOrphans();
		LocalControlPlane controlPlane;
		try {
			controlPlane = new LocalControlPlane(binaries, extraApiServerArguments, assets.cacheDirectory());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not prepare a local control plane", ex);
		}
		Runtime.getRuntime().addShutdownHook(controlPlane.shutdownHook);
		try {
			controlPlane.startEtcd();
			controlPlane.startApiServer();
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
		return "kube-apiserver " + this.version + " with etcd (local processes)";
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
		this.etcd = launch("etcd",
				List.of(this.binaries.etcd().toString(), "--name=kubeop", "--data-dir=" + file("etcd"),
						"--listen-client-urls=" + clientUrl, "--advertise-client-urls=" + clientUrl,
						"--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
						"--initial-cluster=kubeop=" + peerUrl, "--unsafe-no-fsync=true", "--log-level=warn"));
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

	private void stopProcesses() {
		stop(this.apiServer);
		stop(this.etcd);
	}

	private void stop(Process process) {
		if (process != null) {
			ProcessReaper.stop(process.toHandle(), STOP_GRACE);
			this.reaper.forget(this.processes.remove(process));
		}
	}

	private Process launch(String name, List<String> command) {
		Path log = this.workDirectory.resolve(name + ".log");
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
		awaitCondition("etcd", this.etcd, () -> {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
		});
	}

	private String awaitReady() {
		ApiClient client = apiClient();
		awaitCondition("kube-apiserver", this.apiServer, () -> {
			try (Response response = client.getHttpClient()
				.newCall(new Request.Builder().url(serverUrl() + "/readyz").build())
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

	private void awaitCondition(String name, Process process, Probe probe) {
		Instant deadline = Instant.now().plus(START_TIMEOUT);
		Exception lastFailure = null;
		while (Instant.now().isBefore(deadline)) {
			if (!process.isAlive()) {
				throw new IllegalStateException(name + " exited with code " + process.exitValue()
						+ " while starting; its last output:\n" + FileTree.tail(file(name + ".log"), 30));
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
		throw new IllegalStateException(name + " was not ready after " + START_TIMEOUT.toSeconds() + " s (last probe: "
				+ lastFailure + "); its last output:\n" + FileTree.tail(file(name + ".log"), 30));
	}

	private void writeCertificates() throws IOException {
		CertificateAuthority.IssuedCertificate serving = this.authority.issueServer("kube-apiserver");
		writePrivate("ca.crt", this.authority.certificatePem());
		writePrivate("apiserver.crt", serving.certificatePem());
		writePrivate("apiserver.key", serving.privateKeyPem());
		KeyPair serviceAccountKeys = CertificateAuthority.newKeyPair();
		writePrivate("sa.pub", CertificateAuthority.pem(serviceAccountKeys.getPublic()));
		writePrivate("sa.key", CertificateAuthority.pem(serviceAccountKeys.getPrivate()));
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

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
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
