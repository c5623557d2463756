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
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for one local control plane: it signs the serving
 * certificate of kube-apiserver and the client certificates of test users. Keys are RSA
 * 2048, which every TLS stack and the Kubernetes Java client read without extra
 * providers.
 *
 * @author Kubeop authors
 */
final class CertificateAuthority {

	private static final Duration VALIDITY = Duration.ofDays(7);

	private static final SecureRandom random = new SecureRandom();

	private final KeyPair keyPair;

	private final X509Certificate certificate;

	private CertificateAuthority(KeyPair keyPair, X509Certificate certificate) {
		this.keyPair = keyPair;
		this.certificate = certificate;
	}

	static CertificateAuthority create(String commonName) {
		KeyPair keyPair = newKeyPair();
		X500Name name = name(commonName, List.of());
		X509Certificate certificate = sign(name, keyPair.getPublic(), name, keyPair.getPrivate(), (builder, utils) -> {
			builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
			builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
			builder.addExtension(Extension.subjectKeyIdentifier, false,
					utils.createSubjectKeyIdentifier(keyPair.getPublic()));
		});
		return new CertificateAuthority(keyPair, certificate);
	}

	/**
	 * Issues a TLS server certificate valid for the loopback names.
	 * @param commonName the subject common name
	 * @return the issued key pair and certificate
	 */
	IssuedCertificate issueServer(String commonName) {
		KeyPair pair = newKeyPair();
		X509Certificate issued = sign(name(commonName, List.of()), pair.getPublic(), issuerName(),
				this.keyPair.getPrivate(), (builder, utils) -> {
					builder.addExtension(Extension.keyUsage, true,
							new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
					builder.addExtension(Extension.extendedKeyUsage, false,
							new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
					builder.addExtension(Extension.subjectAlternativeName, false,
							new GeneralNames(new GeneralName[] { new GeneralName(GeneralName.dNSName, "localhost"),
									new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
									new GeneralName(GeneralName.iPAddress, "::1") }));
					builder.addExtension(Extension.authorityKeyIdentifier, false,
							utils.createAuthorityKeyIdentifier(this.certificate));
				});
		return new IssuedCertificate(pair.getPrivate(), issued);
	}

	/**
	 * Issues a client certificate. kube-apiserver reads the common name as the user name
	 * and each organization as a group.
	 * @param user the user name
	 * @param groups the groups of the user
	 * @return the issued key pair and certificate
	 */
	IssuedCertificate issueClient(String user, List<String> groups) {
		KeyPair pair = newKeyPair();
		X509Certificate issued = sign(name(user, groups), pair.getPublic(), issuerName(), this.keyPair.getPrivate(),
				(builder, utils) -> {
					builder.addExtension(Extension.keyUsage, true,
							new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
					builder.addExtension(Extension.extendedKeyUsage, false,
							new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
					builder.addExtension(Extension.authorityKeyIdentifier, false,
							utils.createAuthorityKeyIdentifier(this.certificate));
				});
		return new IssuedCertificate(pair.getPrivate(), issued);
	}

	String certificatePem() {
		return pem(this.certificate);
	}

	static KeyPair newKeyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048, random);
			return generator.generateKeyPair();
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("RSA key generation is not available", ex);
		}
	}

	static String pem(Object object) {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(object);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toString();
	}

	private X500Name issuerName() {
		return X500Name.getInstance(this.certificate.getSubjectX500Principal().getEncoded());
	}

	private static X500Name name(String commonName, List<String> organizations) {
		X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
		organizations.forEach((organization) -> builder.addRDN(BCStyle.O, organization));
		builder.addRDN(BCStyle.CN, commonName);
		return builder.build();
	}

	private static X509Certificate sign(X500Name subject, PublicKey subjectKey, X500Name issuer, PrivateKey issuerKey,
			Extensions extensions) {
		Instant now = Instant.now();
		try {
			X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
					new BigInteger(127, random).add(BigInteger.ONE), Date.from(now.minus(Duration.ofHours(1))),
					Date.from(now.plus(VALIDITY)), subject, subjectKey);
			extensions.add(builder, new JcaX509ExtensionUtils());
			ContentSigner signer = new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey);
			return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
		}
		catch (GeneralSecurityException | OperatorCreationException | IOException ex) {
			throw new IllegalStateException("Could not sign certificate for " + subject, ex);
		}
	}

	@FunctionalInterface
	private interface Extensions {

		void add(X509v3CertificateBuilder builder, JcaX509ExtensionUtils utils)
				throws IOException, GeneralSecurityException;

	}

	/**
	 * A private key and the certificate issued for it.
	 *
	 * @param privateKey the private key
	 * @param certificate the certificate
	 */
	record IssuedCertificate(PrivateKey privateKey, X509Certificate certificate) {

		String certificatePem() {
			return pem(this.certificate);
		}

		String privateKeyPem() {
			return pem(this.privateKey);
		}

	}

}
