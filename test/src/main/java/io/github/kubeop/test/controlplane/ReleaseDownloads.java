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
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Fetches released control plane binaries the way kubebuilder users get them, for a
 * machine with only a JDK: kube-apiserver and etcd from setup-envtest's release index and
 * archives, kube-controller-manager and kube-scheduler from the Kubernetes release
 * binaries, kwok from its GitHub release. Each file is checked against the checksum its
 * publisher gives (SHA-512 in the envtest index, the {@code .sha256} file beside each
 * Kubernetes binary, the SHA-256 digest GitHub gives for each release asset) before it is
 * unpacked into Kubeop's cache, where later runs find it without the network.
 * <p>
 * The three base addresses can be pointed at a mirror with
 * {@code KUBEOP_TEST_ENVTEST_INDEX_URL}, {@code KUBEOP_TEST_KUBERNETES_RELEASE_URL} and
 * {@code KUBEOP_TEST_KWOK_RELEASE_URL}; the mirror serves the same layout.
 *
 * @author Kubeop authors
 */
final class ReleaseDownloads {

	/**
	 * setup-envtest's default index (controller-runtime's
	 * {@code tools/setup-envtest/remote/http_client.go}).
	 */
	static final String ENVTEST_INDEX = "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml";

	/**
	 * The Kubernetes release binaries: {@code <base>/<version>/bin/<os>/<arch>/<name>}
	 * with {@code <name>.sha256} beside each.
	 */
	static final String KUBERNETES_RELEASES = "https://dl.k8s.io/release";

	/**
	 * kwok's GitHub releases: {@code <base>/<version>} describes the release's assets.
	 */
	static final String KWOK_RELEASES = "https://api.github.com/repos/kubernetes-sigs/kwok/releases/tags";

	private static final Logger logger = LoggerFactory.getLogger(ReleaseDownloads.class);

	private static final Pattern ENVTEST_ARCHIVE = Pattern
		.compile("envtest-v(\\d+)\\.(\\d+)\\.(\\d+)-([a-z0-9]+)-([a-z0-9]+)\\.tar\\.gz");

	private static final String ENVTEST_PREFIX = "controller-tools/envtest/";

	private final UnaryOperator<String> environment;

	private final Versions versions;

	private final Path root;

	private final HttpClient http;

	/**
	 * Creates a new instance.
	 * @param environment the environment, for the mirror addresses
	 * @param versions the wanted versions
	 * @param root the cache directory that downloads are unpacked into
	 */
	ReleaseDownloads(UnaryOperator<String> environment, Versions versions, Path root) {
		this.environment = environment;
		this.versions = versions;
		this.root = root;
		this.http = HttpClient.newBuilder()
			.connectTimeout(Duration.ofSeconds(15))
			.followRedirects(HttpClient.Redirect.NORMAL)
			.build();
	}

	/**
	 * Returns kube-apiserver and etcd fetched earlier, of the wanted minor version, the
	 * highest patch first.
	 * @return the binaries, if fetched earlier
	 */
	Optional<ControlPlaneBinaries> findCore() {
		if (!Files.isDirectory(this.root)) {
			return Optional.empty();
		}
		String prefix = "envtest-v" + this.versions.kubernetesMinor() + ".";
		String suffix = "-" + ControlPlaneAssets.platform();
		List<Path> candidates = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.root)) {
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (name.startsWith(prefix) && name.endsWith(suffix) && ControlPlaneBinaries.in(entry, "") != null) {
					candidates.add(entry);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return candidates.stream()
			.max(Comparator.comparingInt(ReleaseDownloads::patchOf))
			.map((directory) -> ControlPlaneBinaries.in(directory, "fetched release"));
	}

	/**
	 * Returns the executable of a component fetched earlier.
	 * @param component the component
	 * @return the executable, if fetched earlier
	 */
	Optional<Path> find(Component component) {
		Path executable = directory(component).resolve(component.executableName());
		return ControlPlaneBinaries.isExecutable(executable) ? Optional.of(executable) : Optional.empty();
	}

	/**
	 * Fetches kube-apiserver and etcd from setup-envtest's index: the wanted Kubernetes
	 * version if the index has it, else the highest patch of its minor version.
	 * @return the binaries
	 * @throws DownloadException if they cannot be fetched or do not match their checksum
	 */
	ControlPlaneBinaries fetchCore() {
		String indexUrl = address("KUBEOP_TEST_ENVTEST_INDEX_URL", ENVTEST_INDEX);
		return locked(() -> {
			Optional<ControlPlaneBinaries> fetched = findCore();
			if (fetched.isPresent()) {
				return fetched.get();
			}
			EnvtestArchive archive = chooseArchive(indexUrl, fetchText(indexUrl));
			Path target = this.root.resolve("envtest-v" + archive.version() + "-" + ControlPlaneAssets.platform());
			Path staging = Files.createTempDirectory(this.root, "fetch-");
			try {
				Path file = staging.resolve(archive.name());
				fetchFile(archive.url(), file, "SHA-512", archive.sha512(), indexUrl);
				Path unpacked = Files.createDirectories(staging.resolve("unpacked"));
				untar(file, unpacked, archive.name());
				if (ControlPlaneBinaries.in(unpacked, "") == null) {
					throw new DownloadException(archive.url() + " holds no " + ENVTEST_PREFIX
							+ "kube-apiserver and etcd: it is not a setup-envtest archive");
				}
				FileTree.deleteQuietly(target);
				Files.move(unpacked, target, StandardCopyOption.ATOMIC_MOVE);
			}
			finally {
				FileTree.deleteQuietly(staging);
			}
			logger.info("Fetched kube-apiserver and etcd of Kubernetes {} from {} (SHA-512 checked against {}) into {}",
					archive.version(), archive.url(), indexUrl, target);
			return ControlPlaneBinaries.in(target, "fetched release");
		});
	}

	/**
	 * Fetches the executable of a component: kube-controller-manager and kube-scheduler
	 * from the Kubernetes release binaries, kwok from its GitHub release.
	 * @param component the component
	 * @return the executable
	 * @throws DownloadException if it cannot be fetched or does not match its checksum
	 */
	Path fetch(Component component) {
		return locked(() -> {
			Optional<Path> fetched = find(component);
			if (fetched.isPresent()) {
				return fetched.get();
			}
			Path target = directory(component);
			Files.createDirectories(target);
			Path staging = Files.createTempDirectory(this.root, "fetch-");
			try {
				Path file = staging.resolve(component.executableName());
				String url;
				String checksumSource;
				if (component == Component.NODES) {
					String releaseUrl = address("KUBEOP_TEST_KWOK_RELEASE_URL", KWOK_RELEASES) + "/"
							+ this.versions.kwok();
					String asset = "kwok-" + ControlPlaneAssets.platform();
					JsonObject found = findAsset(releaseUrl, fetchText(releaseUrl), asset);
					url = found.get("browser_download_url").getAsString();
					JsonElement digest = found.get("digest");
					if (digest == null || digest.isJsonNull() || !digest.getAsString().startsWith("sha256:")) {
						throw new DownloadException(
								releaseUrl + " publishes no SHA-256 digest for " + asset + ", so it cannot be checked");
					}
					checksumSource = releaseUrl;
					fetchFile(url, file, "SHA-256", digest.getAsString().substring("sha256:".length()), checksumSource);
				}
				else {
					String[] platform = ControlPlaneAssets.platform().split("-");
					url = address("KUBEOP_TEST_KUBERNETES_RELEASE_URL", KUBERNETES_RELEASES) + "/"
							+ this.versions.kubernetes() + "/bin/" + platform[0] + "/" + platform[1] + "/"
							+ component.executableName();
					checksumSource = url + ".sha256";
					String published = fetchText(checksumSource).trim().split("\\s+")[0];
					fetchFile(url, file, "SHA-256", published, checksumSource);
				}
				Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
				Files.move(file, target.resolve(component.executableName()), StandardCopyOption.ATOMIC_MOVE);
				logger.info("Fetched {} from {} (SHA-256 checked against {}) into {}", component.executableName(), url,
						checksumSource, target);
			}
			finally {
				FileTree.deleteQuietly(staging);
			}
			return target.resolve(component.executableName());
		});
	}

	/**
	 * Returns the address of setup-envtest's index in use, for messages.
	 * @return the index address
	 */
	String envtestIndex() {
		return address("KUBEOP_TEST_ENVTEST_INDEX_URL", ENVTEST_INDEX);
	}

	Path directory(Component component) {
		if (component == Component.NODES) {
			return this.root.resolve("kwok-" + this.versions.kwok() + "-release-" + ControlPlaneAssets.platform());
		}
		return this.root
			.resolve("kubernetes-" + this.versions.kubernetes() + "-release-" + ControlPlaneAssets.platform());
	}

	EnvtestArchive chooseArchive(String indexUrl, String index) {
		Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(index);
		if (!(loaded instanceof Map<?, ?> document) || !(document.get("releases") instanceof Map<?, ?> releases)) {
			throw new DownloadException(indexUrl + " is not a setup-envtest index: it has no 'releases'");
		}
		String[] platform = ControlPlaneAssets.platform().split("-");
		String wantedMinor = this.versions.kubernetesVersionPart(1) + "." + this.versions.kubernetesVersionPart(2);
		EnvtestArchive best = null;
		for (Object release : releases.values()) {
			if (!(release instanceof Map<?, ?> archives)) {
				continue;
			}
			for (Map.Entry<?, ?> entry : archives.entrySet()) {
				Matcher matcher = ENVTEST_ARCHIVE.matcher(String.valueOf(entry.getKey()));
				if (!matcher.matches() || !(matcher.group(1) + "." + matcher.group(2)).equals(wantedMinor)
						|| !matcher.group(4).equals(platform[0]) || !matcher.group(5).equals(platform[1])
						|| !(entry.getValue() instanceof Map<?, ?> details)) {
					continue;
				}
				EnvtestArchive candidate = new EnvtestArchive(matcher.group(0),
						matcher.group(1) + "." + matcher.group(2) + "." + matcher.group(3),
						Integer.parseInt(matcher.group(3)), String.valueOf(details.get("selfLink")),
						String.valueOf(details.get("hash")));
				if (best == null || preferred(candidate, best)) {
					best = candidate;
				}
			}
		}
		if (best == null) {
			throw new DownloadException(indexUrl + " has no envtest archive of Kubernetes " + wantedMinor + ".x for "
					+ ControlPlaneAssets.platform());
		}
		return best;
	}

	private boolean preferred(EnvtestArchive candidate, EnvtestArchive best) {
		String wanted = this.versions.kubernetes().substring(1);
		if (best.version().equals(wanted)) {
			return false;
		}
		return candidate.version().equals(wanted) || candidate.patch() > best.patch();
	}

	private static JsonObject findAsset(String releaseUrl, String release, String asset) {
		try {
			JsonObject document = JsonParser.parseString(release).getAsJsonObject();
			for (JsonElement element : document.getAsJsonArray("assets")) {
				JsonObject candidate = element.getAsJsonObject();
				if (asset.equals(candidate.get("name").getAsString())) {
					return candidate;
				}
			}
		}
		catch (RuntimeException ex) {
			throw new DownloadException(releaseUrl + " is not a GitHub release: " + ex.getMessage(), ex);
		}
		throw new DownloadException(releaseUrl + " has no asset " + asset);
	}

	private String fetchText(String url) throws IOException {
		HttpResponse<String> response = send(url, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		return response.body();
	}

	/**
	 * Streams {@code url} into {@code file} while computing its digest, and refuses it
	 * unless the digest matches the published one.
	 */
	private void fetchFile(String url, Path file, String algorithm, String published, String checksumSource)
			throws IOException {
		HttpResponse<InputStream> response = send(url, HttpResponse.BodyHandlers.ofInputStream());
		MessageDigest digest = messageDigest(algorithm);
		try (InputStream in = new DigestInputStream(response.body(), digest);
				OutputStream out = Files.newOutputStream(file)) {
			in.transferTo(out);
		}
		String computed = HexFormat.of().formatHex(digest.digest());
		if (!computed.equalsIgnoreCase(published.trim())) {
			Files.deleteIfExists(file);
			throw new DownloadException("Checksum mismatch for " + url + ": its " + algorithm + " is " + computed
					+ " but " + checksumSource + " publishes " + published.trim() + "; nothing was cached");
		}
	}

	private <T> HttpResponse<T> send(String url, HttpResponse.BodyHandler<T> handler) throws IOException {
		HttpRequest request;
		try {
			request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build();
		}
		catch (IllegalArgumentException ex) {
			throw new DownloadException("'" + url + "' is not a valid address", ex);
		}
		HttpResponse<T> response;
		try {
			response = this.http.send(request, handler);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new DownloadException("Interrupted while fetching " + url, ex);
		}
		catch (IOException ex) {
			throw new DownloadException("Could not reach " + url + ": " + describe(ex), ex);
		}
		if (response.statusCode() != 200) {
			if (response.body() instanceof InputStream body) {
				body.close();
			}
			throw new DownloadException("Fetching " + url + " answered HTTP " + response.statusCode());
		}
		return response;
	}

	/**
	 * Unpacks the regular files under {@code controller-tools/envtest/} of a gzipped tar
	 * archive into {@code target}, as executables. The JDK reads gzip but not tar, and
	 * the archive needs only the ustar basics, GNU long names and PAX paths.
	 */
	static void untar(Path archive, Path target, String archiveName) throws IOException {
		try (InputStream in = new GZIPInputStream(Files.newInputStream(archive), 64 * 1024)) {
			byte[] header = new byte[512];
			String longName = null;
			while (in.readNBytes(header, 0, 512) == 512 && !isZero(header)) {
				long size = parseSize(header, archiveName);
				char type = (char) header[156];
				String name = (longName != null) ? longName : entryName(header);
				longName = null;
				long padded = (size + 511) / 512 * 512;
				if (type == 'L' || type == 'x') {
					String content = new String(in.readNBytes((int) size), StandardCharsets.UTF_8);
					in.skipNBytes(padded - size);
					longName = (type == 'L') ? content.replace("\0", "") : paxPath(content);
					continue;
				}
				boolean regular = type == '0' || type == '\0';
				String relative = name.startsWith("./") ? name.substring(2) : name;
				if (regular && relative.startsWith(ENVTEST_PREFIX)) {
					String fileName = relative.substring(ENVTEST_PREFIX.length());
					if (fileName.isEmpty() || fileName.contains("/") || fileName.equals("..")) {
						in.skipNBytes(padded);
						continue;
					}
					Path file = target.resolve(fileName);
					try (OutputStream out = Files.newOutputStream(file)) {
						copy(in, out, size);
					}
					Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
					in.skipNBytes(padded - size);
				}
				else {
					in.skipNBytes(padded);
				}
			}
		}
	}

	private static void copy(InputStream in, OutputStream out, long size) throws IOException {
		byte[] buffer = new byte[64 * 1024];
		long remaining = size;
		while (remaining > 0) {
			int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
			if (read < 0) {
				throw new IOException("Truncated archive");
			}
			out.write(buffer, 0, read);
			remaining -= read;
		}
	}

	private static String entryName(byte[] header) {
		String name = field(header, 0, 100);
		boolean ustar = field(header, 257, 5).equals("ustar");
		String prefix = ustar ? field(header, 345, 155) : "";
		return prefix.isEmpty() ? name : prefix + "/" + name;
	}

	private static String paxPath(String records) {
		for (String record : records.split("\n")) {
			int space = record.indexOf(' ');
			if (space > 0 && record.startsWith("path=", space + 1)) {
				return record.substring(space + 1 + "path=".length());
			}
		}
		return null;
	}

	private static long parseSize(byte[] header, String archiveName) {
		if ((header[124] & 0x80) != 0) {
			long size = 0;
			for (int i = 125; i < 136; i++) {
				size = (size << 8) | (header[i] & 0xff);
			}
			return size;
		}
		String octal = field(header, 124, 12).trim();
		try {
			return octal.isEmpty() ? 0 : Long.parseLong(octal, 8);
		}
		catch (NumberFormatException ex) {
			throw new DownloadException(archiveName + " is not a tar archive", ex);
		}
	}

	private static String field(byte[] header, int offset, int length) {
		int end = offset;
		while (end < offset + length && header[end] != 0) {
			end++;
		}
		return new String(header, offset, end - offset, StandardCharsets.UTF_8);
	}

	private static boolean isZero(byte[] block) {
		for (byte b : block) {
			if (b != 0) {
				return false;
			}
		}
		return true;
	}

	private <T> T locked(IoSupplier<T> action) {
		try {
			Files.createDirectories(this.root);
			try (FileChannel channel = FileChannel.open(this.root.resolve("build.lock"), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
				return action.get();
			}
		}
		catch (IOException ex) {
			throw new DownloadException("Could not write the fetched binaries into " + this.root + ": " + ex, ex);
		}
	}

	private String address(String variable, String fallback) {
		String value = this.environment.apply(variable);
		String address = (value != null && !value.isBlank()) ? value.trim() : fallback;
		return address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
	}

	private static MessageDigest messageDigest(String algorithm) {
		try {
			return MessageDigest.getInstance(algorithm);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String describe(IOException ex) {
		String message = ex.getMessage();
		return ex.getClass().getSimpleName() + ((message != null) ? " (" + message + ")" : "");
	}

	private static int patchOf(Path directory) {
		Matcher matcher = Pattern.compile("envtest-v\\d+\\.\\d+\\.(\\d+)-").matcher(directory.getFileName().toString());
		return matcher.lookingAt() ? Integer.parseInt(matcher.group(1)) : 0;
	}

	/**
	 * One archive of setup-envtest's index.
	 *
	 * @param name the archive's name, such as {@code envtest-v1.35.0-linux-amd64.tar.gz}
	 * @param version the Kubernetes version it holds, without the leading {@code v}
	 * @param patch the patch number of that version
	 * @param url where the archive is
	 * @param sha512 its published SHA-512, in hex
	 */
	record EnvtestArchive(String name, String version, int patch, String url, String sha512) {

	}

	/**
	 * Thrown when released binaries cannot be fetched, or do not match their published
	 * checksum. The message names the address and the reason.
	 */
	static final class DownloadException extends IllegalStateException {

		DownloadException(String message) {
			super(message);
		}

		DownloadException(String message, Throwable cause) {
			super(message, cause);
		}

	}

	@FunctionalInterface
	private interface IoSupplier<T> {

		T get() throws IOException;

	}

}
