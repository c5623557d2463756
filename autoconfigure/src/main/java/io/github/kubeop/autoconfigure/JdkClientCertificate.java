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

package io.github.kubeop.autoconfigure;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.KeyManagerFactory;

import io.github.kubeop.webhook.InMemoryKeyStore;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.credentials.Authentication;

/**
 * Client certificate authentication with the JDK's own key and certificate readers, for
 * the unencrypted PEM keys kubeconfig files hold: PKCS#8 ({@code PRIVATE KEY}), PKCS#1
 * RSA ({@code RSA PRIVATE KEY}) and SEC 1 EC ({@code EC PRIVATE KEY}), the last two
 * re-wrapped as PKCS#8. The client's own {@code ClientCertificateAuthentication} reads
 * them through its {@code SSLUtils}, whose class initialization registers every security
 * provider on the class path, Bouncy Castle's among them: about 950 classes and a quarter
 * of a second of CPU in a cold JVM, on every start with a kubeconfig that holds a client
 * key. The key managers made here are the ones the client makes (a key store of the key
 * and its certificate chain, the default key manager algorithm). A key in another form
 * (encrypted, or of another algorithm) is left to the client.
 *
 * @author Kubeop authors
 */
final class JdkClientCertificate implements Authentication {

	private static final Pattern PEM = Pattern
		.compile("-----BEGIN ([A-Z ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");

	/** rsaEncryption, 1.2.840.113549.1.1.1, with its NULL parameters. */
	private static final byte[] RSA_ALGORITHM = { 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
			(byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00 };

	/** id-ecPublicKey, 1.2.840.10045.2.1. */
	private static final byte[] EC_PUBLIC_KEY = { 0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01 };

	private final Collection<? extends Certificate> chain;

	private final PrivateKey key;

	private JdkClientCertificate(Collection<? extends Certificate> chain, PrivateKey key) {
		this.chain = chain;
		this.key = key;
	}

	/**
	 * Reads a client certificate chain and key, as a kubeconfig holds them.
	 * @param certificate the PEM certificate chain
	 * @param key the PEM private key
	 * @return the authentication, or {@code null} if the JDK cannot read them as they are
	 * (the client's own authentication should then be used)
	 */
	static JdkClientCertificate read(byte[] certificate, byte[] key) {
		try {
			PrivateKey privateKey = privateKey(new String(key, StandardCharsets.US_ASCII));
			if (privateKey == null) {
				return null;
			}
			Collection<? extends Certificate> chain = CertificateFactory.getInstance("X.509")
				.generateCertificates(new ByteArrayInputStream(certificate));
			return chain.isEmpty() ? null : new JdkClientCertificate(chain, privateKey);
		}
		catch (GeneralSecurityException | RuntimeException ex) {
			return null;
		}
	}

	PrivateKey key() {
		return this.key;
	}

	@Override
	public void provide(ApiClient client) {
		try {
			KeyStore keyStore = InMemoryKeyStore.of("client", this.key, this.chain.toArray(new Certificate[0]));
			KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			factory.init(keyStore, InMemoryKeyStore.PASSWORD);
			client.setKeyManagers(factory.getKeyManagers());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not create the key managers of the client certificate", ex);
		}
	}

	/**
	 * Returns the private key of a PEM text, or {@code null} if it holds no unencrypted
	 * key of a form read here.
	 */
	static PrivateKey privateKey(String pem) throws GeneralSecurityException {
		Matcher matcher = PEM.matcher(pem);
		while (matcher.find()) {
			String type = matcher.group(1);
			byte[] der = Base64.getMimeDecoder().decode(matcher.group(2));
			switch (type) {
				case "PRIVATE KEY":
					return pkcs8(der);
				case "RSA PRIVATE KEY":
					return KeyFactory.getInstance("RSA")
						.generatePrivate(new PKCS8EncodedKeySpec(wrap(RSA_ALGORITHM, der)));
				case "EC PRIVATE KEY":
					byte[] curve = namedCurve(der);
					return (curve != null)
							? KeyFactory.getInstance("EC")
								.generatePrivate(new PKCS8EncodedKeySpec(wrap(sequence(EC_PUBLIC_KEY, curve), der)))
							: null;
				case "EC PARAMETERS":
					// OpenSSL may write the curve's name before the key
					continue;
				default:
					return null;
			}
		}
		return null;
	}

	private static PrivateKey pkcs8(byte[] der) {
		for (String algorithm : new String[] { "RSA", "EC", "EdDSA" }) {
			try {
				return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
			}
			catch (GeneralSecurityException ex) {
				// another algorithm's key
			}
		}
		return null;
	}

	/**
	 * Returns the named curve's object identifier, as DER, of a SEC 1 EC private key
	 * ({@code SEQUENCE { INTEGER 1, OCTET STRING key, [0] OID curve, [1] public key }}),
	 * or {@code null} if it names none.
	 */
	private static byte[] namedCurve(byte[] sec1) {
		Der outer = new Der(sec1, 0);
		int position = outer.contentStart;
		while (position < outer.end) {
			Der element = new Der(sec1, position);
			if ((sec1[position] & 0xff) == 0xa0) {
				Der oid = new Der(sec1, element.contentStart);
				return (sec1[element.contentStart] == 0x06)
						? java.util.Arrays.copyOfRange(sec1, element.contentStart, oid.end) : null;
			}
			position = element.end;
		}
		return null;
	}

	/**
	 * Returns {@code SEQUENCE { INTEGER 0, algorithm, OCTET STRING key }}: a PKCS#8
	 * private key of an algorithm's key in its own encoding.
	 */
	private static byte[] wrap(byte[] algorithm, byte[] key) {
		ByteArrayOutputStream content = new ByteArrayOutputStream();
		content.writeBytes(new byte[] { 0x02, 0x01, 0x00 });
		content.writeBytes(algorithm);
		content.writeBytes(element(0x04, key));
		return element(0x30, content.toByteArray());
	}

	private static byte[] sequence(byte[] first, byte[] second) {
		ByteArrayOutputStream content = new ByteArrayOutputStream();
		content.writeBytes(first);
		content.writeBytes(second);
		return element(0x30, content.toByteArray());
	}

	private static byte[] element(int tag, byte[] content) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.write(tag);
		int length = content.length;
		if (length < 0x80) {
			out.write(length);
		}
		else {
			int bytes = (length > 0xffffff) ? 4 : (length > 0xffff) ? 3 : (length > 0xff) ? 2 : 1;
			out.write(0x80 | bytes);
			for (int i = bytes - 1; i >= 0; i--) {
				out.write(length >>> (8 * i));
			}
		}
		out.writeBytes(content);
		return out.toByteArray();
	}

	/**
	 * Where one DER element's content starts and where the element ends.
	 */
	private static final class Der {

		private final int contentStart;

		private final int end;

		Der(byte[] der, int offset) {
			int first = der[offset + 1] & 0xff;
			int length;
			int start;
			if (first < 0x80) {
				length = first;
				start = offset + 2;
			}
			else {
				int bytes = first & 0x7f;
				length = 0;
				for (int i = 0; i < bytes; i++) {
					length = (length << 8) | (der[offset + 2 + i] & 0xff);
				}
				start = offset + 2 + bytes;
			}
			if (start + length > der.length) {
				throw new IllegalArgumentException("Truncated DER element");
			}
			this.contentStart = start;
			this.end = start + length;
		}

	}

}
