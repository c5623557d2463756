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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Go wrapper modules this jar ships and the Kubernetes and etcd versions they build.
 * The Kubernetes version is a single setting: the {@code require} line of the committed
 * {@code kube-apiserver/go.mod}, overridable with the
 * {@code kubeop.test.kubernetes-version} system property or the
 * {@code KUBEOP_TEST_KUBERNETES_VERSION} environment variable to test a newer release.
 *
 * @param kubernetes the Kubernetes version, such as {@code v1.35.4}
 * @param etcd the etcd version, such as {@code v3.6.16}
 * @param sources the wrapper module files, by path relative to the Go source root
 * @author Kubeop authors
 */
record Versions(String kubernetes, String etcd, Map<String, String> sources) {

	static final String RESOURCE_ROOT = "io/github/kubeop/test/controlplane/go/";

	/**
	 * The files kube-apiserver and etcd are built from.
	 */
	static final List<String> CORE_FILES = List.of("kube-apiserver/go.mod", "kube-apiserver/go.sum",
			"kube-apiserver/main.go", "etcd/go.mod", "etcd/go.sum", "etcd/main.go");

	/**
	 * The files kube-controller-manager and kube-scheduler are built from: packages of
	 * the kube-apiserver wrapper module, so that the three share dependencies and the Go
	 * build cache.
	 */
	static final List<String> CONTROLLER_FILES = List.of("kube-apiserver/go.mod", "kube-apiserver/go.sum",
			"kube-apiserver/kube-controller-manager/main.go", "kube-apiserver/kube-scheduler/main.go");

	/**
	 * The files kwok is built from.
	 */
	static final List<String> KWOK_FILES = List.of("kwok/go.mod", "kwok/go.sum", "kwok/main.go");

	static final List<String> SOURCE_FILES = List.of("kube-apiserver/go.mod", "kube-apiserver/go.sum",
			"kube-apiserver/main.go", "kube-apiserver/kube-controller-manager/main.go",
			"kube-apiserver/kube-scheduler/main.go", "etcd/go.mod", "etcd/go.sum", "etcd/main.go", "kwok/go.mod",
			"kwok/go.sum", "kwok/main.go");

	private static final Pattern KUBERNETES_REQUIRE = Pattern
		.compile("(?m)^(?:require)?\\s+k8s\\.io/kubernetes (v\\S+)$");

	private static final Pattern ETCD_REQUIRE = Pattern
		.compile("(?m)^(?:require)?\\s+go\\.etcd\\.io/etcd/server/v3 (v\\S+)$");

	private static final Pattern KWOK_REQUIRE = Pattern.compile("(?m)^(?:require)?\\s+sigs\\.k8s\\.io/kwok (v\\S+)$");

	private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");

	static Versions load() {
		Map<String, String> sources = new LinkedHashMap<>();
		for (String file : SOURCE_FILES) {
			sources.put(file, readResource(RESOURCE_ROOT + file));
		}
		String kubernetes = find(KUBERNETES_REQUIRE, sources.get("kube-apiserver/go.mod"));
		String override = System.getProperty("kubeop.test.kubernetes-version",
				System.getenv("KUBEOP_TEST_KUBERNETES_VERSION"));
		Versions versions = new Versions(kubernetes, find(ETCD_REQUIRE, sources.get("etcd/go.mod")), sources);
		return (override != null && !override.isBlank()) ? versions.withKubernetes(override.trim()) : versions;
	}

	/**
	 * Returns these versions with another Kubernetes release. The kube-apiserver module's
	 * {@code go.mod} is rewritten to require it, with every staging module replaced by
	 * the matching {@code v0.minor.patch}; its {@code go.sum} is then completed by the
	 * build.
	 * @param version the Kubernetes version, with or without the leading {@code v}
	 * @return the new versions
	 */
	Versions withKubernetes(String version) {
		Matcher matcher = VERSION.matcher(version);
		if (!matcher.matches()) {
			throw new IllegalArgumentException(
					"kubeop.test.kubernetes-version must look like 1.35.4, but was '" + version + "'");
		}
		String wanted = "v" + matcher.group(1) + "." + matcher.group(2) + "." + matcher.group(3);
		if (wanted.equals(this.kubernetes)) {
			return this;
		}
		String staging = "v0." + matcher.group(2) + "." + matcher.group(3);
		String currentStaging = "v0." + kubernetesVersionPart(2) + "." + kubernetesVersionPart(3);
		String goMod = this.sources.get("kube-apiserver/go.mod")
			.replace("k8s.io/kubernetes " + this.kubernetes, "k8s.io/kubernetes " + wanted)
			.replaceAll("(k8s\\.io/[a-z0-9-]+) " + Pattern.quote(currentStaging) + "(?=\\s|$)", "$1 " + staging);
		Map<String, String> sources = new LinkedHashMap<>(this.sources);
		sources.put("kube-apiserver/go.mod", goMod);
		return new Versions(wanted, this.etcd, sources);
	}

	boolean isCommitted() {
		return this.sources.get("kube-apiserver/go.mod").equals(readResource(RESOURCE_ROOT + "kube-apiserver/go.mod"));
	}

	/**
	 * Returns the Kubernetes minor version, such as {@code 1.35}.
	 * @return the minor version
	 */
	String kubernetesMinor() {
		return kubernetesVersionPart(1) + "." + kubernetesVersionPart(2);
	}

	/**
	 * Returns one number of the Kubernetes version.
	 * @param part 1 for the major, 2 for the minor and 3 for the patch number
	 * @return the number
	 */
	String kubernetesVersionPart(int part) {
		Matcher matcher = VERSION.matcher(this.kubernetes);
		matcher.matches();
		return matcher.group(part);
	}

	/**
	 * Returns the kwok version the kwok wrapper module requires.
	 * @return the version, such as {@code v0.7.0}
	 */
	String kwok() {
		return find(KWOK_REQUIRE, this.sources.get("kwok/go.mod"));
	}

	/**
	 * Returns a short digest of all wrapper sources, naming the directory they are
	 * written to.
	 * @return twelve hex digits
	 */
	String sourceDigest() {
		return digest(this.sources.keySet());
	}

	/**
	 * Returns a short digest of some of the wrapper sources, so that binaries built from
	 * them are rebuilt when they change, and only then.
	 * @param files the files, such as {@link #CORE_FILES}
	 * @return twelve hex digits
	 */
	String digest(Collection<String> files) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			for (String name : files) {
				digest.update(name.getBytes(StandardCharsets.UTF_8));
				digest.update(this.sources.get(name).getBytes(StandardCharsets.UTF_8));
			}
			return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String find(Pattern pattern, String content) {
		Matcher matcher = pattern.matcher(content);
		if (!matcher.find()) {
			throw new IllegalStateException("Go wrapper module does not match " + pattern);
		}
		return matcher.group(1);
	}

	private static String readResource(String name) {
		try (InputStream in = Versions.class.getClassLoader().getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalStateException("Missing resource " + name + " in kubeop-spring-boot-starter-test");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
