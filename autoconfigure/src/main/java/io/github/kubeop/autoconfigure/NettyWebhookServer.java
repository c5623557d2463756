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

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

import io.github.kubeop.webhook.CertificateWatcher;
import io.github.kubeop.webhook.SelfSignedCertificates;
import io.github.kubeop.webhook.WebhookRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.context.SmartLifecycle;

/**
 * Serves the webhooks of a WebFlux application on a Reactor Netty server of its own, the
 * reactive counterpart of {@link TomcatWebhookConnector}: a second {@code HttpServer}
 * bound to {@code kubeop.webhooks.port} with the serving certificate, as Spring Boot
 * configures its own Netty server (a TLS context from a key manager, HTTP/1.1). The
 * transport only reads the request and writes the response: the review is answered by
 * {@link WebhookRegistry#respond(String, byte[])} as on Tomcat, on Reactor's
 * {@code boundedElastic} scheduler, because a webhook method may block (it may call the
 * API server). The key manager always offers the current certificate, so a renewed one is
 * served from the next handshake on.
 *
 * @author Kubeop authors
 */
final class NettyWebhookServer implements SmartLifecycle {

	/**
	 * Starts with the application's web server, before the local registration of the
	 * webhooks, and stops after it.
	 */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	private static final Duration LIFECYCLE_TIMEOUT = Duration.ofSeconds(30);

	private final KubeopProperties.Webhooks properties;

	private final Supplier<SelfSignedCertificates> certificates;

	private final Supplier<WebhookRegistry> registry;

	private volatile DisposableServer server;

	private volatile CertificateWatcher watcher;

	private volatile boolean running;

	NettyWebhookServer(KubeopProperties.Webhooks properties, Supplier<SelfSignedCertificates> certificates,
			Supplier<WebhookRegistry> registry) {
		this.properties = properties;
		this.certificates = certificates;
		this.registry = registry;
	}

	@Override
	public void start() {
		WebhookRegistry registry = this.registry.get();
		this.running = true;
		// an application without webhooks gets no port and no certificate
		if (registry.isEmpty()) {
			return;
		}
		CertificateWatcher watcher = WebhookCertificates.watch(this.properties, this.certificates);
		this.watcher = watcher;
		String address = this.properties.getAddress();
		int port = this.properties.getPort();
		this.server = HttpServer.create()
			.bindAddress(() -> (address != null) ? new InetSocketAddress(address, port) : new InetSocketAddress(port))
			.protocol(HttpProtocol.HTTP11)
			.secure((spec) -> spec.sslContext(Http11SslContextSpec.forServer(watcher.keyManager())))
			.handle((request, response) -> serve(registry, request, response))
			.bindNow(LIFECYCLE_TIMEOUT);
	}

	private static Publisher<Void> serve(WebhookRegistry registry, HttpServerRequest request,
			HttpServerResponse response) {
		String path = request.fullPath();
		WebhookRegistry.Response refused = registry.refuse(request.method().name(), path);
		if (refused != null) {
			return send(response, refused);
		}
		return request.receive()
			.asByteArray()
			// past the limit the rest is read and dropped: respond answers 413
			.collect(ByteArrayOutputStream::new, (body, chunk) -> {
				if (body.size() <= WebhookRegistry.MAX_BODY) {
					body.writeBytes(chunk);
				}
			})
			.publishOn(Schedulers.boundedElastic())
			.map((body) -> registry.respond(path, body.toByteArray()))
			.flatMap((answer) -> send(response, answer));
	}

	private static Mono<Void> send(HttpServerResponse response, WebhookRegistry.Response answer) {
		byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
		response.status(answer.status())
			.header(HttpHeaderNames.CONTENT_TYPE, answer.contentType())
			.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(bytes.length));
		if (answer.allow() != null) {
			response.header(HttpHeaderNames.ALLOW, answer.allow());
		}
		return response.sendByteArray(Mono.just(bytes)).then();
	}

	@Override
	public void stop() {
		this.running = false;
		DisposableServer server = this.server;
		if (server != null) {
			server.disposeNow(LIFECYCLE_TIMEOUT);
			this.server = null;
		}
		CertificateWatcher watcher = this.watcher;
		if (watcher != null) {
			watcher.close();
			this.watcher = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Returns the port the server listens on.
	 * @return the port
	 * @throws IllegalStateException if the server is not listening
	 */
	int localPort() {
		DisposableServer server = this.server;
		if (server == null) {
			throw new IllegalStateException("The webhook server is not listening");
		}
		return server.port();
	}

}
