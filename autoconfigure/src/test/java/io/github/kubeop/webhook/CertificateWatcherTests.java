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

package io.github.kubeop.webhook;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CertificateWatcher}: what it takes from the files, and what its key
 * manager answers across a change. Serving a rotated certificate to the API server is
 * tested in {@link CertificateRotationIntegrationTests}.
 *
 * @author Kubeop authors
 */
class CertificateWatcherTests {

	// shared: an RSA key pair takes long to make on a loaded machine
	private static final SelfSignedCertificates first = SelfSignedCertificates.create(List.of());

	private static final SelfSignedCertificates second = SelfSignedCertificates.create(List.of());

	@TempDir
	Path directory;

	@Test
	void aCertificateWithoutItsKeyIsNotTakenUntilTheKeyArrives() throws Exception {
		write("tls.crt", certificate(first));
		write("tls.key", key(first));
		CertificateWatcher watcher = CertificateWatcher.watching(this.directory, Duration.ofHours(1));
		write("tls.crt", certificate(second));
		assertThatIllegalArgumentException().isThrownBy(watcher::reload)
			.withMessage("tls.key is not the key of the certificate in tls.crt");
		assertThat(watcher.certificate()).isEqualTo(certificate(first));
		write("tls.key", key(second));
		assertThat(watcher.reload()).isTrue();
		assertThat(watcher.certificate()).isEqualTo(certificate(second));
		assertThat(watcher.reload()).isFalse();
	}

	@Test
	void aHandshakeBegunBeforeAChangeFindsTheKeyOfTheAliasItChose() throws Exception {
		write("tls.crt", certificate(first));
		write("tls.key", key(first));
		CertificateWatcher watcher = CertificateWatcher.watching(this.directory, Duration.ofHours(1));
		String chosen = watcher.keyManager().chooseEngineServerAlias("RSA", null, null);
		write("tls.crt", certificate(second));
		write("tls.key", key(second));
		assertThat(watcher.reload()).isTrue();
		assertThat(watcher.keyManager().getPrivateKey(chosen)).isEqualTo(key(first));
		assertThat(watcher.keyManager().getCertificateChain(chosen)[0]).isEqualTo(certificate(first));
		String next = watcher.keyManager().chooseEngineServerAlias("RSA", null, null);
		assertThat(next).isNotEqualTo(chosen);
		assertThat(watcher.keyManager().getCertificateChain(next)[0]).isEqualTo(certificate(second));
	}

	@Test
	void aDirectoryWithoutTheFilesIsRefusedSayingWhatItMustHold() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CertificateWatcher.watching(this.directory, Duration.ofHours(1)))
			.withMessageStartingWith("it must hold the serving certificate and its key as tls.crt and tls.key in PEM");
	}

	private void write(String file, Object object) throws IOException {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(object);
		}
		Files.writeString(this.directory.resolve(file), out.toString());
	}

	private static X509Certificate certificate(SelfSignedCertificates certificates) throws GeneralSecurityException {
		KeyStore store = certificates.keyStore();
		return (X509Certificate) store.getCertificateChain(SelfSignedCertificates.ALIAS)[0];
	}

	private static PrivateKey key(SelfSignedCertificates certificates) throws GeneralSecurityException {
		return (PrivateKey) certificates.keyStore().getKey(SelfSignedCertificates.ALIAS, new char[0]);
	}

}
