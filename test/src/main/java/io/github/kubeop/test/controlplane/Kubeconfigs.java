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
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;

/**
 * Writes kubeconfig documents with embedded certificates and turns them into clients.
 *
 * @author Kubeop authors
 */
final class Kubeconfigs {

	private Kubeconfigs() {
	}

	static String withClientCertificate(String server, String caPem, String user, String certificatePem,
			String keyPem) {
		return """
				apiVersion: v1
				kind: Config
				clusters:
				- name: kubeop-test
				  cluster:
				    server: %s
				    certificate-authority-data: %s
				users:
				- name: %s
				  user:
				    client-certificate-data: %s
				    client-key-data: %s
				contexts:
				- name: kubeop-test
				  context:
				    cluster: kubeop-test
				    user: %s
				current-context: kubeop-test
				""".formatted(server, base64(caPem), user, base64(certificatePem), base64(keyPem), user);
	}

	static ApiClient client(String kubeconfig) {
		try {
			return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig))).build();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not build a client from the test kubeconfig", ex);
		}
	}

	private static String base64(String pem) {
		return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
	}

}
