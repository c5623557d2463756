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

import java.io.ByteArrayOutputStream;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509KeyManager;

import org.bouncycastle.asn1.pkcs.PBES2Parameters;
import org.bouncycastle.asn1.pkcs.PBKDF2Params;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.pkcs.PKCS12PfxPdu;
import org.bouncycastle.pkcs.PKCS12SafeBag;
import org.bouncycastle.pkcs.PKCS12SafeBagFactory;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InMemoryKeyStore}.
 *
 * @author Kubeop authors
 */
class InMemoryKeyStoreTests {

	private static final KeyStore made = SelfSignedCertificates.create(List.of()).keyStore();

	@Test
	void theJdkKeyManagersServeTheKeyAndChain() throws Exception {
		PrivateKey key = (PrivateKey) made.getKey(SelfSignedCertificates.ALIAS, InMemoryKeyStore.PASSWORD);
		Certificate[] chain = made.getCertificateChain(SelfSignedCertificates.ALIAS);
		KeyStore store = InMemoryKeyStore.of("test", key, chain);
		KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		factory.init(store, InMemoryKeyStore.PASSWORD);
		X509KeyManager keys = (X509KeyManager) factory.getKeyManagers()[0];
		assertThat(keys.getPrivateKey("test")).isEqualTo(key);
		assertThat((Certificate[]) keys.getCertificateChain("test")).containsExactly(chain);
		assertThat(keys.getServerAliases(key.getAlgorithm(), null)).containsExactly("test");
	}

	@Test
	void theKeyIsProtectedByOneIterationOfPbkdf2() throws Exception {
		PrivateKey key = (PrivateKey) made.getKey(SelfSignedCertificates.ALIAS, InMemoryKeyStore.PASSWORD);
		KeyStore store = InMemoryKeyStore.of("test", key, made.getCertificateChain(SelfSignedCertificates.ALIAS));
		List<PKCS8EncryptedPrivateKeyInfo> keys = encryptedKeys(store);
		assertThat(keys).hasSize(1);
		assertThat(keys.get(0).getEncryptionAlgorithm().getAlgorithm()).isEqualTo(PKCSObjectIdentifiers.id_PBES2);
		PBES2Parameters parameters = PBES2Parameters.getInstance(keys.get(0).getEncryptionAlgorithm().getParameters());
		PBKDF2Params derivation = PBKDF2Params.getInstance(parameters.getKeyDerivationFunc().getParameters());
		assertThat(derivation.getIterationCount().intValue()).isEqualTo(1);
	}

	/**
	 * Reads the shrouded key bags of a store as it would be written.
	 */
	private static List<PKCS8EncryptedPrivateKeyInfo> encryptedKeys(KeyStore store) throws Exception {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		store.store(out, InMemoryKeyStore.PASSWORD);
		List<PKCS8EncryptedPrivateKeyInfo> keys = new ArrayList<>();
		for (var info : new PKCS12PfxPdu(out.toByteArray()).getContentInfos()) {
			if (!info.getContentType().equals(PKCSObjectIdentifiers.data)) {
				// the certificates, encrypted with the store's password: not the key
				continue;
			}
			for (PKCS12SafeBag bag : new PKCS12SafeBagFactory(info).getSafeBags()) {
				if (bag.getBagValue() instanceof PKCS8EncryptedPrivateKeyInfo encrypted) {
					keys.add(encrypted);
				}
			}
		}
		return keys;
	}

}
