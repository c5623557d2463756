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

import java.nio.file.Path;
import java.util.function.Supplier;

import io.github.kubeop.webhook.CertificateWatcher;
import io.github.kubeop.webhook.SelfSignedCertificates;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The serving certificate of the webhooks for either transport: the files of
 * {@code kubeop.webhooks.certificate-directory}, watched, or the certificate made at
 * startup.
 *
 * @author Kubeop authors
 */
final class WebhookCertificates {

	private WebhookCertificates() {
	}

	/**
	 * Returns the watcher of the serving certificate, started.
	 * @param properties the webhook properties
	 * @param selfSigned the certificate made at startup, asked for only without a
	 * directory
	 * @return the watcher, to close when the transport stops
	 * @throws InvalidConfigurationPropertyValueException if the directory does not hold a
	 * certificate and its key
	 */
	static CertificateWatcher watch(KubeopProperties.Webhooks properties, Supplier<SelfSignedCertificates> selfSigned) {
		String directory = properties.getCertificateDirectory();
		if (directory == null) {
			return CertificateWatcher.of(selfSigned.get());
		}
		CertificateWatcher watcher;
		try {
			watcher = CertificateWatcher.watching(Path.of(directory), properties.getCertificateReloadInterval());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException("kubeop.webhooks.certificate-directory", directory,
					ex.getMessage());
		}
		watcher.start();
		return watcher;
	}

}
