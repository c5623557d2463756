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

import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.ControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AuthenticationV1Api;
import io.kubernetes.client.openapi.models.V1SelfSubjectReview;
import io.kubernetes.client.util.KubeConfig;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdkClientCertificate}: the key forms a kubeconfig holds read without
 * Bouncy Castle, and a client built from the control plane's kubeconfig authenticated by
 * the API server as the kubeconfig's user.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class JdkClientCertificateTests {

	@Test
	void rsaKeysAreReadAsPkcs1AndPkcs8() throws Exception {
		KeyPair pair = KeyPairGenerator.getInstance("RSA").generateKeyPair();
		String pkcs1 = traditionalPem(pair.getPrivate());
		assertThat(pkcs1).startsWith("-----BEGIN RSA PRIVATE KEY-----");
		assertSameRsaKey(JdkClientCertificate.privateKey(pkcs1), pair.getPrivate());
		assertSameRsaKey(JdkClientCertificate.privateKey(pkcs8Pem(pair.getPrivate())), pair.getPrivate());
	}

	/** A throw-away key as {@code openssl ecparam -name prime256v1 -genkey} writes it. */
	private static final String OPENSSL_EC_KEY = """
			-----BEGIN EC PARAMETERS-----
			BggqhkjOPQMBBw==
			-----END EC PARAMETERS-----
			-----BEGIN EC PRIVATE KEY-----
			MHcCAQEEIOBnOr0zP0kCvyI9rFoDqv6LXn5SCOQGDQAJCsulzYO1oAoGCCqGSM49
			AwEHoUQDQgAEqG6kHyDNUDjiQcpaEsP0HS1+PyrlaJX3Gjff8zJuS9kCpfFFbJTb
			kDgxFRUyON90BCHiOKz4PXog8KbGYdO4XQ==
			-----END EC PRIVATE KEY-----
			""";

	/** The same key as {@code openssl pkcs8 -topk8 -nocrypt} writes it. */
	private static final String OPENSSL_EC_KEY_PKCS8 = """
			-----BEGIN PRIVATE KEY-----
			MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4Gc6vTM/SQK/Ij2s
			WgOq/oteflII5AYNAAkKy6XNg7WhRANCAASobqQfIM1QOOJByloSw/QdLX4/KuVo
			lfcaN9/zMm5L2QKl8UVslNuQODEVFTI433QEIeI4rPg9eiDwpsZh07hd
			-----END PRIVATE KEY-----
			""";

	@Test
	void ecKeysAreReadAsSec1WithOrWithoutParametersAndAsPkcs8() throws Exception {
		PrivateKey expected = JdkClientCertificate.privateKey(OPENSSL_EC_KEY_PKCS8);
		assertThat(expected).isInstanceOf(ECPrivateKey.class);
		assertSameEcKey(JdkClientCertificate.privateKey(OPENSSL_EC_KEY), expected);
		String withoutParameters = OPENSSL_EC_KEY.substring(OPENSSL_EC_KEY.indexOf("-----BEGIN EC PRIVATE KEY"));
		assertSameEcKey(JdkClientCertificate.privateKey(withoutParameters), expected);
	}

	@Test
	void keysInOtherFormsAreLeftToTheClient() throws Exception {
		// a SEC 1 key that does not name its curve
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
		generator.initialize(new ECGenParameterSpec("secp256r1"));
		assertThat(JdkClientCertificate.privateKey(traditionalPem(generator.generateKeyPair().getPrivate()))).isNull();
		assertThat(JdkClientCertificate.privateKey(
				"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0w\n-----END ENCRYPTED PRIVATE KEY-----\n"))
			.isNull();
		assertThat(JdkClientCertificate.read("not a certificate".getBytes(), "not a key".getBytes())).isNull();
	}

	@Test
	void theControlPlanesClientCertificateAuthenticatesItsUser(ControlPlane controlPlane) throws Exception {
		KubeConfig config = KubeConfig
			.loadKubeConfig(new StringReader(Files.readString(controlPlane.kubeconfigFile())));
		byte[] certificate = config.getDataOrFileRelative(config.getClientCertificateData(),
				config.getClientCertificateFile());
		byte[] key = config.getDataOrFileRelative(config.getClientKeyData(), config.getClientKeyFile());
		// the JDK reads it: the client below is built without the client's own reader
		assertThat(JdkClientCertificate.read(certificate, key)).isNotNull();
		String expected = whoAmI(controlPlane.apiClient());
		assertThat(expected).isNotEqualTo("system:anonymous");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeopClientAutoConfiguration.class))
			.withPropertyValues("kubeop.client.kubeconfig=" + controlPlane.kubeconfigFile())
			.run((context) -> assertThat(whoAmI(context.getBean(ApiClient.class))).isEqualTo(expected));
	}

	private static String whoAmI(ApiClient client) throws Exception {
		V1SelfSubjectReview review = new AuthenticationV1Api(client).createSelfSubjectReview(new V1SelfSubjectReview())
			.execute();
		return review.getStatus().getUserInfo().getUsername();
	}

	private static String traditionalPem(PrivateKey key) throws Exception {
		StringWriter out = new StringWriter();
		try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
			writer.writeObject(key);
		}
		return out.toString();
	}

	private static String pkcs8Pem(PrivateKey key) {
		return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
				+ "\n-----END PRIVATE KEY-----\n";
	}

	private static void assertSameRsaKey(PrivateKey actual, PrivateKey expected) {
		assertThat(actual).isInstanceOf(RSAPrivateCrtKey.class);
		assertThat(((RSAPrivateCrtKey) actual).getModulus()).isEqualTo(((RSAPrivateCrtKey) expected).getModulus());
		assertThat(((RSAPrivateCrtKey) actual).getPrivateExponent())
			.isEqualTo(((RSAPrivateCrtKey) expected).getPrivateExponent());
	}

	private static void assertSameEcKey(PrivateKey actual, PrivateKey expected) {
		assertThat(actual).isInstanceOf(ECPrivateKey.class);
		assertThat(((ECPrivateKey) actual).getS()).isEqualTo(((ECPrivateKey) expected).getS());
		assertThat(((ECPrivateKey) actual).getParams().getCurve())
			.isEqualTo(((ECPrivateKey) expected).getParams().getCurve());
	}

}
