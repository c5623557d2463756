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
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ssl.pem.PemContent;

/**
 * The webhooks' serving certificate, read again when its files change, as
 * controller-runtime's {@code certwatcher} does: cert-manager renews the Secret, the
 * kubelet updates the files mounted from it, and the webhook server serves the new
 * certificate without a restart. The files are read at an interval and compared byte for
 * byte rather than watched for events, because the kubelet replaces a mounted Secret by
 * swapping a symbolic link to a new directory, which a watch of the files themselves does
 * not see; a poll sees it as any other change. A certificate and a key that do not belong
 * together (one file written, the other not yet) are not taken: the next read tries
 * again.
 * <p>
 * A transport serves {@link #keyManager()}, which always answers with the current
 * certificate, or rebuilds its TLS configuration from {@link #keyStore()} when told of a
 * change ({@link #onChange(Runnable)}).
 *
 * @author Kubeop authors
 */
public final class CertificateWatcher implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(CertificateWatcher.class);

	private static final AtomicInteger generations = new AtomicInteger();

	private final Path certificateFile;

	private final Path keyFile;

	private final Duration interval;

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	private final X509ExtendedKeyManager keyManager = new CurrentKeyManager();

	private volatile Serving current;

	private volatile Serving previous;

	private ScheduledExecutorService poller;

	private CertificateWatcher(Path certificateFile, Path keyFile, Duration interval, Serving current) {
		this.certificateFile = certificateFile;
		this.keyFile = keyFile;
		this.interval = interval;
		this.current = current;
	}

	/**
	 * Returns a watcher of a certificate that never changes: the one made at startup.
	 * @param certificates the certificates made at startup
	 * @return the watcher
	 */
	public static CertificateWatcher of(SelfSignedCertificates certificates) {
		try {
			KeyStore store = certificates.keyStore();
			Certificate[] chain = store.getCertificateChain(SelfSignedCertificates.ALIAS);
			PrivateKey key = (PrivateKey) store.getKey(SelfSignedCertificates.ALIAS, InMemoryKeyStore.PASSWORD);
			return new CertificateWatcher(null, null, null,
					Serving.of(key, Arrays.stream(chain).map(X509Certificate.class::cast).toList(), null, null));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not read the certificate made at startup", ex);
		}
	}

	/**
	 * Returns a watcher of the serving certificate and key in a directory, as
	 * {@code tls.crt} and {@code tls.key} (PEM, the Secret cert-manager issues), read now
	 * and again every {@code interval} once {@linkplain #start() started}.
	 * @param directory the directory
	 * @param interval how often to read the files again
	 * @return the watcher
	 * @throws IllegalArgumentException if the files cannot be read or do not hold a
	 * certificate and its key
	 */
	public static CertificateWatcher watching(Path directory, Duration interval) {
		Path certificateFile = directory.resolve("tls.crt");
		Path keyFile = directory.resolve("tls.key");
		try {
			return new CertificateWatcher(certificateFile, keyFile, interval, read(certificateFile, keyFile));
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalArgumentException(
					"it must hold the serving certificate and its key as tls.crt and tls.key in PEM: "
							+ ex.getMessage(),
					ex);
		}
	}

	/**
	 * Starts reading the files at the interval; nothing for a certificate made at
	 * startup.
	 */
	public synchronized void start() {
		if (this.certificateFile == null || this.poller != null) {
			return;
		}
		this.poller = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "kubeop-webhook-certificates");
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, this.interval.toMillis());
		this.poller.scheduleWithFixedDelay(this::reloadQuietly, millis, millis, TimeUnit.MILLISECONDS);
	}

	@Override
	public synchronized void close() {
		if (this.poller != null) {
			this.poller.shutdownNow();
			this.poller = null;
		}
	}

	/**
	 * Registers a listener told (on the watcher's thread) when the certificate changed.
	 * @param listener the listener
	 */
	public void onChange(Runnable listener) {
		this.listeners.add(listener);
	}

	/**
	 * Returns a key manager that always offers the current certificate, for a TLS stack
	 * that takes one (Netty): a handshake begun with the certificate before a change
	 * still finishes with it.
	 * @return the key manager
	 */
	public X509ExtendedKeyManager keyManager() {
		return this.keyManager;
	}

	/**
	 * Returns a key store with the current key and chain under {@link #alias()}, with an
	 * empty password, for a TLS stack that reads one (Tomcat).
	 * @return the key store
	 */
	public KeyStore keyStore() {
		return this.current.store();
	}

	/**
	 * Returns the alias of the key in {@link #keyStore()}, new with every certificate so
	 * that no TLS stack can take a cached key of an earlier one for it.
	 * @return the alias
	 */
	public String alias() {
		return this.current.alias();
	}

	/**
	 * Returns the certificate served now.
	 * @return the certificate
	 */
	public X509Certificate certificate() {
		return this.current.chain().get(0);
	}

	/**
	 * Reads the files again and, if they hold another certificate and its key, serves
	 * that from now on and tells the listeners.
	 * @return whether the certificate changed
	 * @throws IOException if the files cannot be read
	 * @throws IllegalArgumentException if they do not hold a certificate and its key
	 */
	public synchronized boolean reload() throws IOException {
		if (this.certificateFile == null) {
			return false;
		}
		byte[] certificateBytes = Files.readAllBytes(this.certificateFile);
		byte[] keyBytes = Files.readAllBytes(this.keyFile);
		Serving serving = this.current;
		if (Arrays.equals(certificateBytes, serving.certificateBytes())
				&& Arrays.equals(keyBytes, serving.keyBytes())) {
			return false;
		}
		Serving next = parse(certificateBytes, keyBytes);
		this.previous = serving;
		this.current = next;
		logger.info("Serving the webhooks with a new certificate from " + this.certificateFile.getParent() + " ("
				+ next.chain().get(0).getSubjectX500Principal() + ", valid until " + next.chain().get(0).getNotAfter()
				+ ")");
		this.listeners.forEach(Runnable::run);
		return true;
	}

	private void reloadQuietly() {
		try {
			reload();
		}
		catch (IOException | RuntimeException ex) {
			// a rotation in progress, most of the time: the next read will see it done
			logger.warn("Could not read the webhook serving certificate from " + this.certificateFile.getParent()
					+ " (still serving the one read before): " + ex.getMessage());
		}
	}

	private static Serving read(Path certificateFile, Path keyFile) throws IOException {
		return parse(Files.readAllBytes(certificateFile), Files.readAllBytes(keyFile));
	}

	private static Serving parse(byte[] certificateBytes, byte[] keyBytes) {
		PemContent certificates = PemContent.of(new String(certificateBytes, StandardCharsets.UTF_8));
		PemContent key = PemContent.of(new String(keyBytes, StandardCharsets.UTF_8));
		if (certificates == null || certificates.getCertificates().isEmpty()) {
			throw new IllegalArgumentException("tls.crt holds no certificate");
		}
		if (key == null) {
			throw new IllegalArgumentException("tls.key holds no key");
		}
		List<X509Certificate> chain = certificates.getCertificates();
		PrivateKey privateKey = key.getPrivateKey();
		checkPair(chain.get(0), privateKey);
		return Serving.of(privateKey, chain, certificateBytes, keyBytes);
	}

	/**
	 * Checks that the key is the certificate's by signing with one and verifying with the
	 * other: a rotation that has written one file but not the other yet would otherwise
	 * be served, and every handshake fail.
	 */
	private static void checkPair(X509Certificate certificate, PrivateKey key) {
		String algorithm = switch (key.getAlgorithm()) {
			case "RSA" -> "SHA256withRSA";
			case "EC" -> "SHA256withECDSA";
			case "Ed25519", "EdDSA" -> "Ed25519";
			default -> null;
		};
		if (algorithm == null) {
			return;
		}
		try {
			byte[] data = "kubeop".getBytes(StandardCharsets.UTF_8);
			Signature signer = Signature.getInstance(algorithm);
			signer.initSign(key);
			signer.update(data);
			byte[] signature = signer.sign();
			Signature verifier = Signature.getInstance(algorithm);
			verifier.initVerify(certificate.getPublicKey());
			verifier.update(data);
			if (!verifier.verify(signature)) {
				throw new IllegalArgumentException("tls.key is not the key of the certificate in tls.crt");
			}
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalArgumentException(
					"tls.key is not the key of the certificate in tls.crt: " + ex.getMessage(), ex);
		}
	}

	/**
	 * One certificate served: its key, chain and key store, the files it was read from,
	 * and the JDK's key manager of it.
	 */
	private record Serving(String alias, List<X509Certificate> chain, KeyStore store, X509ExtendedKeyManager keys,
			byte[] certificateBytes, byte[] keyBytes) {

		static Serving of(PrivateKey key, List<X509Certificate> chain, byte[] certificateBytes, byte[] keyBytes) {
			String alias = SelfSignedCertificates.ALIAS + "-" + generations.incrementAndGet();
			try {
				KeyStore store = InMemoryKeyStore.of(alias, key, chain.toArray(Certificate[]::new));
				KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
				factory.init(store, InMemoryKeyStore.PASSWORD);
				X509ExtendedKeyManager keys = null;
				for (KeyManager manager : factory.getKeyManagers()) {
					if (manager instanceof X509ExtendedKeyManager extended) {
						keys = extended;
					}
				}
				if (keys == null) {
					throw new IllegalStateException("The JDK made no X509ExtendedKeyManager");
				}
				return new Serving(alias, chain, store, keys, certificateBytes, keyBytes);
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException("Could not store the webhook serving certificate", ex);
			}
		}

	}

	/**
	 * Chooses the current certificate for each handshake, and finds the chain and key of
	 * an alias chosen just before a change among the previous ones.
	 */
	private final class CurrentKeyManager extends X509ExtendedKeyManager {

		@Override
		public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
			return CertificateWatcher.this.current.keys().chooseEngineServerAlias(keyType, issuers, engine);
		}

		@Override
		public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
			return CertificateWatcher.this.current.keys().chooseServerAlias(keyType, issuers, socket);
		}

		@Override
		public String[] getServerAliases(String keyType, Principal[] issuers) {
			return CertificateWatcher.this.current.keys().getServerAliases(keyType, issuers);
		}

		@Override
		public X509Certificate[] getCertificateChain(String alias) {
			X509Certificate[] chain = CertificateWatcher.this.current.keys().getCertificateChain(alias);
			Serving previous = CertificateWatcher.this.previous;
			return (chain != null || previous == null) ? chain : previous.keys().getCertificateChain(alias);
		}

		@Override
		public PrivateKey getPrivateKey(String alias) {
			PrivateKey key = CertificateWatcher.this.current.keys().getPrivateKey(alias);
			Serving previous = CertificateWatcher.this.previous;
			return (key != null || previous == null) ? key : previous.keys().getPrivateKey(alias);
		}

		@Override
		public String[] getClientAliases(String keyType, Principal[] issuers) {
			return null;
		}

		@Override
		public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
			return null;
		}

	}

}
