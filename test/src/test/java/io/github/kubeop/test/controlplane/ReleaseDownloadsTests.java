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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link ReleaseDownloads} through {@link ControlPlaneAssets}, on a machine
 * without Go: a local HTTP server plays setup-envtest's index and release archives, the
 * Kubernetes release binaries and kwok's GitHub release, in their real layout.
 *
 * @author Kubeop authors
 */
class ReleaseDownloadsTests {

	private static final String PLATFORM = ControlPlaneAssets.platform();

	private static final String OS = PLATFORM.split("-")[0];

	private static final String ARCH = PLATFORM.split("-")[1];

	@TempDir
	Path home;

	private final Map<String, String> environment = new HashMap<>();

	private final Map<String, byte[]> files = new ConcurrentHashMap<>();

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private HttpServer server;

	private String base;

	@BeforeEach
	void serve() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			this.requests.add(exchange.getRequestURI().getPath());
			byte[] body = this.files.get(exchange.getRequestURI().getPath());
			if (body == null) {
				exchange.sendResponseHeaders(404, -1);
			}
			else {
				exchange.sendResponseHeaders(200, body.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			}
			exchange.close();
		});
		this.server.start();
		this.base = "http://127.0.0.1:" + this.server.getAddress().getPort();
		this.environment.put("PATH", "/nonexistent");
		this.environment.put("KUBEOP_CACHE_DIR", this.home.resolve("cache").toString());
		this.environment.put("KUBEOP_TEST_ENVTEST_INDEX_URL",
				this.base + "/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml");
		this.environment.put("KUBEOP_TEST_KUBERNETES_RELEASE_URL", this.base + "/release");
		this.environment.put("KUBEOP_TEST_KWOK_RELEASE_URL", this.base + "/repos/kubernetes-sigs/kwok/releases/tags");
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void withoutGoTheReleasedBinariesAreFetchedCheckedAndCached() throws IOException {
		byte[] archive = envtestArchive(Map.of("kube-apiserver", "apiserver 1.35.4".getBytes(StandardCharsets.UTF_8),
				"etcd", "etcd 3.6".getBytes(StandardCharsets.UTF_8), "kubectl",
				"kubectl".getBytes(StandardCharsets.UTF_8)));
		publishEnvtestIndex(archive, sha512(archive));
		ControlPlaneBinaries binaries = assets().resolve();
		Path expected = this.home.resolve("cache/control-plane/envtest-v1.35.4-" + PLATFORM);
		assertThat(binaries.kubeApiServer()).isEqualTo(expected.resolve("kube-apiserver")).isExecutable();
		assertThat(binaries.etcd()).isEqualTo(expected.resolve("etcd")).isExecutable();
		assertThat(binaries.kubeApiServer()).hasContent("apiserver 1.35.4");
		assertThat(binaries.etcd()).hasContent("etcd 3.6");
		assertThat(binaries.origin()).contains("fetched release");
		assertThat(this.requests).containsExactly("/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml",
				"/kubernetes-sigs/controller-tools/releases/download/envtest-v1.35.4/envtest-v1.35.4-" + PLATFORM
						+ ".tar.gz");
		this.server.stop(0);
		ControlPlaneAssets offline = assets();
		assertThat(offline.find()).contains(binaries);
		assertThat(offline.resolve()).isEqualTo(binaries);
	}

	@Test
	void withoutTheWantedPatchTheHighestPatchOfItsMinorIsFetched() throws IOException {
		byte[] archive = envtestArchive(Map.of("kube-apiserver", new byte[] { 1 }, "etcd", new byte[] { 2 }));
		Map<String, Object> index = new LinkedHashMap<>();
		index.put("v1.35.0", archive("1.35.0", archive, sha512(archive)));
		index.put("v1.35.2", archive("1.35.2", archive, sha512(archive)));
		index.put("v1.36.0", archive("1.36.0", archive, sha512(archive)));
		publishIndex(index);
		assertThat(assets().resolve().kubeApiServer().getParent().getFileName())
			.hasToString("envtest-v1.35.2-" + PLATFORM);
	}

	@Test
	void fetchedBinariesRun() throws Exception {
		Optional<ControlPlaneBinaries> built = ControlPlaneAssets.fromEnvironment().find();
		assumeTrue(built.isPresent(), "no kube-apiserver and etcd on this machine to serve");
		byte[] archive = envtestArchive(Map.of("kube-apiserver", Files.readAllBytes(built.get().kubeApiServer()),
				"etcd", Files.readAllBytes(built.get().etcd())));
		publishEnvtestIndex(archive, sha512(archive));
		ControlPlaneBinaries fetched = assets().resolve();
		assertThat(run(fetched.kubeApiServer(), "--version")).contains("Kubernetes v1.35");
		assertThat(run(fetched.etcd(), "--version")).contains("etcd Version: 3.6");
	}

	@Test
	void anArchiveThatDoesNotMatchItsPublishedChecksumIsRefused() throws IOException {
		byte[] archive = envtestArchive(Map.of("kube-apiserver", new byte[] { 1 }, "etcd", new byte[] { 2 }));
		publishEnvtestIndex(archive, sha512("something else".getBytes(StandardCharsets.UTF_8)));
		assertThatExceptionOfType(NoControlPlaneException.class).isThrownBy(() -> assets().resolve())
			.withMessageContaining("Checksum mismatch for " + this.base
					+ "/kubernetes-sigs/controller-tools/releases/download/envtest-v1.35.4/envtest-v1.35.4-" + PLATFORM
					+ ".tar.gz: its SHA-512 is " + sha512(archive))
			.withMessageContaining("nothing was cached");
		assertThat(assets().find()).isEmpty();
		assertThat(this.home.resolve("cache/control-plane")).isDirectoryNotContaining("glob:**/envtest-*");
	}

	@Test
	void withNeitherGoNorTheDownloadSitesTheMessageNamesTheThreeWaysOut() {
		this.server.stop(0);
		ControlPlaneAssets assets = assets();
		assertThat(assets.available()).isFalse();
		assertThatExceptionOfType(NoControlPlaneException.class).isThrownBy(assets::resolve)
			.withMessageContaining(
					"Could not reach " + this.base + "/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml")
			.withMessageContaining("Go 1.25+ on the PATH")
			.withMessageContaining("KUBEBUILDER_ASSETS set to a directory with kube-apiserver and etcd")
			.withMessageContaining("the download: let this machine reach setup-envtest's index")
			.withMessageContaining("KUBEOP_TEST_ENVTEST_INDEX_URL");
	}

	@Test
	void kubernetesComponentsAreFetchedFromTheReleaseBinariesAndCached() {
		byte[] controllerManager = "kube-controller-manager".getBytes(StandardCharsets.UTF_8);
		byte[] scheduler = "kube-scheduler".getBytes(StandardCharsets.UTF_8);
		publishKubernetesBinary("kube-controller-manager", controllerManager, sha256(controllerManager));
		publishKubernetesBinary("kube-scheduler", scheduler, sha256(scheduler));
		Path fetched = assets().resolve(Component.CONTROLLER_MANAGER);
		assertThat(fetched).hasBinaryContent(controllerManager).isExecutable();
		assertThat(fetched).isEqualTo(this.home
			.resolve("cache/control-plane/kubernetes-v1.35.4-release-" + PLATFORM + "/kube-controller-manager"));
		assertThat(assets().resolve(Component.SCHEDULER)).hasBinaryContent(scheduler);
		this.server.stop(0);
		assertThat(assets().resolve(Component.CONTROLLER_MANAGER)).isEqualTo(fetched);
	}

	@Test
	void aKubernetesComponentThatDoesNotMatchItsChecksumIsRefused() {
		byte[] scheduler = "kube-scheduler".getBytes(StandardCharsets.UTF_8);
		publishKubernetesBinary("kube-scheduler", scheduler, sha256("tampered".getBytes(StandardCharsets.UTF_8)));
		assertThatExceptionOfType(ComponentUnavailableException.class)
			.isThrownBy(() -> assets().resolve(Component.SCHEDULER))
			.withMessageContaining("Checksum mismatch for " + this.base + "/release/v1.35.4/bin/" + OS + "/" + ARCH
					+ "/kube-scheduler: its SHA-256 is " + sha256(scheduler))
			.withMessageContaining("Ways out: put Go 1.25+ on the PATH, set TEST_ASSET_KUBE_SCHEDULER or "
					+ "KUBEBUILDER_ASSETS, or let the download through");
		assertThat(this.home.resolve("cache/control-plane/kubernetes-v1.35.4-release-" + PLATFORM + "/kube-scheduler"))
			.doesNotExist();
	}

	@Test
	void kwokIsFetchedFromItsGitHubReleaseAndCheckedAgainstTheAssetDigest() {
		byte[] kwok = "kwok".getBytes(StandardCharsets.UTF_8);
		publishKwok(kwok, "sha256:" + sha256(kwok));
		assertThat(assets().resolve(Component.NODES)).hasBinaryContent(kwok)
			.isEqualTo(this.home.resolve("cache/control-plane/kwok-v0.7.0-release-" + PLATFORM + "/kwok"));
	}

	@Test
	void kwokWithoutAPublishedDigestIsRefused() {
		publishKwok("kwok".getBytes(StandardCharsets.UTF_8), null);
		assertThatExceptionOfType(ComponentUnavailableException.class)
			.isThrownBy(() -> assets().resolve(Component.NODES))
			.withMessageContaining("publishes no SHA-256 digest for kwok-" + PLATFORM);
	}

	private ControlPlaneAssets assets() {
		return new ControlPlaneAssets(this.environment::get, this.home, Versions.load());
	}

	private void publishEnvtestIndex(byte[] archive, String hash) {
		publishIndex(Map.of("v1.35.4", archive("1.35.4", archive, hash), "v1.34.1", archive("1.34.1", archive, hash)));
	}

	private Map<String, Object> archive(String version, byte[] archive, String hash) {
		String name = "envtest-v" + version + "-" + PLATFORM + ".tar.gz";
		String path = "/kubernetes-sigs/controller-tools/releases/download/envtest-v" + version + "/" + name;
		this.files.put(path, archive);
		String other = "envtest-v" + version + "-windows-amd64.tar.gz";
		return Map.of(name, Map.of("hash", hash, "selfLink", this.base + path), other,
				Map.of("hash", hash, "selfLink", this.base + "/elsewhere/" + other));
	}

	private void publishIndex(Map<String, Object> releases) {
		StringBuilder yaml = new StringBuilder("releases:\n");
		releases.forEach((version, archives) -> {
			yaml.append("  ").append(version).append(":\n");
			((Map<?, ?>) archives).forEach((name, details) -> {
				Map<?, ?> fields = (Map<?, ?>) details;
				yaml.append("    ").append(name).append(":\n");
				yaml.append("      hash: ").append(fields.get("hash")).append("\n");
				yaml.append("      selfLink: ").append(fields.get("selfLink")).append("\n");
			});
		});
		this.files.put("/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml",
				yaml.toString().getBytes(StandardCharsets.UTF_8));
	}

	private void publishKubernetesBinary(String name, byte[] content, String sha256) {
		String path = "/release/v1.35.4/bin/" + OS + "/" + ARCH + "/" + name;
		this.files.put(path, content);
		this.files.put(path + ".sha256", sha256.getBytes(StandardCharsets.UTF_8));
	}

	private void publishKwok(byte[] content, String digest) {
		String download = "/kubernetes-sigs/kwok/releases/download/v0.7.0/kwok-" + PLATFORM;
		this.files.put(download, content);
		String asset = "{\"name\": \"kwok-" + PLATFORM + "\", \"browser_download_url\": \"" + this.base + download
				+ "\"" + ((digest != null) ? ", \"digest\": \"" + digest + "\"" : "") + "}";
		String release = "{\"tag_name\": \"v0.7.0\", \"assets\": [{\"name\": \"kwokctl-" + PLATFORM
				+ "\", \"browser_download_url\": \"" + this.base + "/elsewhere\"}, " + asset + "]}";
		this.files.put("/repos/kubernetes-sigs/kwok/releases/tags/v0.7.0", release.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Writes a gzipped tar archive in setup-envtest's layout: the files under
	 * {@code controller-tools/envtest/}, after that directory's own entry.
	 */
	private static byte[] envtestArchive(Map<String, byte[]> files) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (GZIPOutputStream gzip = new GZIPOutputStream(bytes, 64 * 1024) {
			{
				this.def.setLevel(Deflater.BEST_SPEED);
			}
		}) {
			gzip.write(tarHeader("controller-tools/", 0, '5'));
			gzip.write(tarHeader("controller-tools/envtest/", 0, '5'));
			for (Map.Entry<String, byte[]> file : files.entrySet()) {
				gzip.write(tarHeader("controller-tools/envtest/" + file.getKey(), file.getValue().length, '0'));
				gzip.write(file.getValue());
				gzip.write(new byte[(512 - file.getValue().length % 512) % 512]);
			}
			gzip.write(new byte[1024]);
		}
		return bytes.toByteArray();
	}

	private static byte[] tarHeader(String name, long size, char type) {
		byte[] header = new byte[512];
		put(header, 0, name);
		put(header, 100, "0000755");
		put(header, 108, "0000000");
		put(header, 116, "0000000");
		put(header, 124, String.format("%011o", size));
		put(header, 136, String.format("%011o", 0));
		header[156] = (byte) type;
		put(header, 257, "ustar");
		put(header, 263, "00");
		Arrays.fill(header, 148, 156, (byte) ' ');
		int checksum = 0;
		for (byte b : header) {
			checksum += b & 0xff;
		}
		put(header, 148, String.format("%06o", checksum));
		return header;
	}

	private static void put(byte[] header, int offset, String value) {
		byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(bytes, 0, header, offset, bytes.length);
	}

	private static String run(Path executable, String argument) throws Exception {
		Process process = new ProcessBuilder(executable.toString(), argument).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return output;
	}

	private static String sha512(byte[] content) {
		return digest("SHA-512", content);
	}

	private static String sha256(byte[] content) {
		return digest("SHA-256", content);
	}

	private static String digest(String algorithm, byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
