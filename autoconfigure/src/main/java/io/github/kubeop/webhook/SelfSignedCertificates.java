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
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made at startup and the serving certificate it signs, for
 * webhooks that a local control plane calls on a loopback address: the API server trusts
 * the authority through the {@code caBundle} of the configurations Kubeop registers. Made
 * with BouncyCastle, which the Kubernetes client already brings (the JDK has no public
 * API to issue certificates); keys are RSA 2048, which every TLS stack reads.
 *
 * @author Kubeop authors
 */
public final class SelfSignedCertificates {

	/**
	 * The alias of the serving key in {@link #keyStore()}.
	 */
	public static final String ALIAS = "kubeop-webhooks";

	private static final SecureRandom random = new SecureRandom();

	private static final Duration VALIDITY = Duration.ofDays(30);

	private final X509Certificate authority;

	private final X509Certificate serving;

	private final PrivateKey servingKey;

	private SelfSignedCertificates(X509Certificate authority, X509Certificate serving, PrivateKey servingKey) {
		this.authority = authority;
		this.serving = serving;
		this.servingKey = servingKey;
	}

	/**
	 * Makes an authority and a serving certificate for the loopback names
	 * ({@code localhost}, {@code 127.0.0.1}, {@code ::1}) and the given host names.
	 * @param hostNames more DNS names for the serving certificate
	 * @return the certificates
	 */
	public static SelfSignedCertificates create(List<String> hostNames) {
		try {
			KeyPair authorityKeys = keyPair();
			X500Name authorityName = new X500Name("CN=kubeop-webhook-ca");
			X509Certificate authority = sign(authorityName, authorityKeys.getPublic(), authorityName,
					authorityKeys.getPrivate(), (builder) -> {
						builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
						builder.addExtension(Extension.keyUsage, true,
								new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
					});
			KeyPair servingKeys = keyPair();
			List<GeneralName> names = new ArrayList<>(List.of(new GeneralName(GeneralName.dNSName, "localhost"),
					new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
					new GeneralName(GeneralName.iPAddress, "::1")));
			hostNames.forEach((name) -> names.add(new GeneralName(GeneralName.dNSName, name)));
			X509Certificate serving = sign(new X500Name("CN=kubeop-webhooks"), servingKeys.getPublic(), authorityName,
					authorityKeys.getPrivate(), (builder) -> {
						builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
						builder.addExtension(Extension.keyUsage, true,
								new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
						builder.addExtension(Extension.extendedKeyUsage, false,
								new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
						builder.addExtension(Extension.subjectAlternativeName, false,
								new GeneralNames(names.toArray(GeneralName[]::new)));
					});
			return new SelfSignedCertificates(authority, serving, servingKeys.getPrivate());
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not make the webhook serving certificate", ex);
		}
	}

	/**
	 * Returns a key store with the serving key and its chain under {@link #ALIAS}, with
	 * an empty password.
	 * @return the key store
	 */
	public KeyStore keyStore() {
		try {
			return InMemoryKeyStore.of(ALIAS, this.servingKey, this.serving, this.authority);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not store the webhook serving certificate", ex);
		}
	}

	/**
	 * Returns the authority's certificate in PEM, as a configuration's {@code caBundle}
	 * takes it.
	 * @return the PEM text
	 */
	public String authorityPem() {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(this.authority);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toString();
	}

	/**
	 * Returns the authority's certificate, for clients that call the webhooks in tests.
	 * @return the certificate
	 */
	public X509Certificate authority() {
		return this.authority;
	}

	private static KeyPair keyPair() throws GeneralSecurityException {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048, random);
		return generator.generateKeyPair();
	}

	private static X509Certificate sign(X500Name subject, PublicKey subjectKey, X500Name issuer, PrivateKey issuerKey,
			Extensions extensions) throws GeneralSecurityException, OperatorCreationException, IOException {
		Instant now = Instant.now();
		X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
				new BigInteger(127, random).add(BigInteger.ONE), Date.from(now.minus(Duration.ofHours(1))),
				Date.from(now.plus(VALIDITY)), subject, subjectKey);
		extensions.add(builder);
		return new JcaX509CertificateConverter()
			.getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey)));
	}

	@FunctionalInterface
	private interface Extensions {

		void add(X509v3CertificateBuilder builder) throws IOException;

	}

}
