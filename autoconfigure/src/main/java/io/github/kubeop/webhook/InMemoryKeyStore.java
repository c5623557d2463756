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
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;

import javax.crypto.spec.PBEParameterSpec;

/**
 * A PKCS#12 key store that lives in memory only, holding one private key and its
 * certificate chain under an empty password, for the JDK's key managers and TLS stacks
 * that take a key store (the webhooks' serving certificate, the client certificate of a
 * kubeconfig).
 * <p>
 * The key is protected with a single iteration of PBKDF2, where
 * {@link KeyStore#setKeyEntry} would use the JDK's default of 10,000: such a store is
 * never written anywhere and its password is empty, so the iterations protect nothing,
 * yet each store and each read of its key (a key manager factory reads it once more) cost
 * 20,000 HMAC-SHA256 rounds, which in a cold JVM were about 70 ms of the thread that made
 * them and another 0.3 s of JIT compilation on every start.
 *
 * @author Kubeop authors
 */
public final class InMemoryKeyStore {

	/**
	 * The password of the key: empty.
	 */
	public static final char[] PASSWORD = new char[0];

	private static final String PROTECTION = "PBEWithHmacSHA256AndAES_256";

	private static final SecureRandom random = new SecureRandom();

	private InMemoryKeyStore() {
	}

	/**
	 * Returns a key store holding a key and its chain under an alias, with the
	 * {@linkplain #PASSWORD empty password}.
	 * @param alias the alias
	 * @param key the private key
	 * @param chain the certificate chain, the key's certificate first
	 * @return the key store
	 * @throws GeneralSecurityException if the JDK cannot make or fill the store
	 */
	public static KeyStore of(String alias, PrivateKey key, Certificate... chain) throws GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try {
			store.load(null, null);
		}
		catch (IOException ex) {
			// an empty store reads no stream
			throw new IllegalStateException(ex);
		}
		byte[] salt = new byte[16];
		random.nextBytes(salt);
		try {
			store.setEntry(alias, new KeyStore.PrivateKeyEntry(key, chain),
					new KeyStore.PasswordProtection(PASSWORD, PROTECTION, new PBEParameterSpec(salt, 1)));
		}
		catch (GeneralSecurityException ex) {
			// a provider that refuses so few iterations (one in FIPS mode): its default
			store.setKeyEntry(alias, key, PASSWORD, chain);
		}
		return store;
	}

}
