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

package io.github.kubeop.informer;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.SocketFactory;

import com.sun.net.httpserver.HttpServer;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of the gate that lets one request at a time open a connection while the
 * informers' pool has none ({@link ServerReachability#oneOpeningAtATime()}): a request
 * that waits for another's opening goes on as soon as that opening fails, and stops
 * waiting when its call is cancelled. OkHttp against a local HTTP server, with the first
 * connection's attempt held by the test (a socket that connects only when told);
 * {@code SharedConnectionIntegrationTests} tests the gate against the real API server.
 *
 * @author Kubeop authors
 */
class ConnectionOpeningTests {

	/**
	 * Shorter than the 10 s a request waits for an opening at most: a request that goes
	 * on within it was told.
	 */
	private static final long TOLD_SECONDS = 5;

	private final ServerReachability reachability = new ServerReachability();

	private final HeldFirstConnection sockets = new HeldFirstConnection();

	private HttpServer server;

	private OkHttpClient http;

	@BeforeEach
	void startServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		this.server.start();
		this.http = new OkHttpClient.Builder().connectionPool(this.reachability.connections())
			.addInterceptor(this.reachability.oneOpeningAtATime())
			.addNetworkInterceptor(this.reachability.connectionOpen())
			.socketFactory(this.sockets)
			.retryOnConnectionFailure(false)
			.build();
	}

	@AfterEach
	void stopServer() {
		this.sockets.refuse();
		this.http.dispatcher().executorService().shutdownNow();
		this.server.stop(0);
	}

	@Test
	void aRequestWaitingForAnOpeningThatFailsGoesOnAtOnce() throws Exception {
		Call opener = this.http.newCall(request("opener"));
		CompletableFuture<Integer> opening = CompletableFuture.supplyAsync(() -> execute(opener));
		this.sockets.awaitFirstConnecting();
		Call waiter = this.http.newCall(request("waiter"));
		CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> execute(waiter));
		awaitWaiting();
		assertThat(this.sockets.connects()).as("connections tried while the first opens").isEqualTo(1);
		this.sockets.refuse();
		assertThat(waiting.get(TOLD_SECONDS, TimeUnit.SECONDS)).as("the waiter, once the opening failed")
			.isEqualTo(200);
		assertThat(opening).failsWithin(Duration.ofSeconds(10));
	}

	@Test
	void aWaitingRequestWhoseCallIsCancelledStopsWaiting() throws Exception {
		Call opener = this.http.newCall(request("opener"));
		CompletableFuture.supplyAsync(() -> execute(opener));
		this.sockets.awaitFirstConnecting();
		// a list's next page runs on OkHttp's dispatcher, which a cancel does not
		// interrupt
		CompletableFuture<String> waiting = new CompletableFuture<>();
		Call waiter = this.http.newCall(request("waiter"));
		waiter.enqueue(new Callback() {

			@Override
			public void onFailure(Call call, IOException ex) {
				waiting.complete(ex.getMessage());
			}

			@Override
			public void onResponse(Call call, Response response) {
				response.close();
				waiting.complete("answered");
			}

		});
		awaitWaiting();
		waiter.cancel();
		assertThat(waiting.get(TOLD_SECONDS, TimeUnit.SECONDS)).isEqualTo("Canceled");
		assertThat(this.sockets.connects()).as("connections tried").isEqualTo(1);
	}

	private Request request(String name) {
		return new Request.Builder().url("http://127.0.0.1:" + this.server.getAddress().getPort() + "/" + name).build();
	}

	private static int execute(Call call) {
		try (Response response = call.execute()) {
			return response.code();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Waits until a second request waits in the gate: the threads that wait there are the
	 * only ones of this test in a timed wait on the gate's lock.
	 */
	private void awaitWaiting() {
		await().atMost(Duration.ofSeconds(10))
			.alias("a request waits for the opening")
			.until(() -> Thread.getAllStackTraces()
				.entrySet()
				.stream()
				.anyMatch((thread) -> thread.getKey().getState() == Thread.State.TIMED_WAITING
						&& Arrays.stream(thread.getValue())
							.anyMatch((frame) -> frame.getMethodName().equals("awaitOpenConnection"))));
	}

	/**
	 * Sockets whose first connection attempt waits until the test refuses it; later ones
	 * connect at once.
	 */
	private static final class HeldFirstConnection extends SocketFactory {

		private final AtomicInteger connects = new AtomicInteger();

		private final CountDownLatch firstConnecting = new CountDownLatch(1);

		private final CountDownLatch refused = new CountDownLatch(1);

		int connects() {
			return this.connects.get();
		}

		void awaitFirstConnecting() throws InterruptedException {
			assertThat(this.firstConnecting.await(10, TimeUnit.SECONDS)).isTrue();
		}

		void refuse() {
			this.refused.countDown();
		}

		@Override
		public Socket createSocket() {
			return new Socket() {

				@Override
				public void connect(SocketAddress endpoint, int timeout) throws IOException {
					if (HeldFirstConnection.this.connects.incrementAndGet() == 1) {
						HeldFirstConnection.this.firstConnecting.countDown();
						try {
							HeldFirstConnection.this.refused.await(30, TimeUnit.SECONDS);
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
						throw new ConnectException("Connection refused");
					}
					super.connect(endpoint, timeout);
				}

			};
		}

		@Override
		public Socket createSocket(String host, int port) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Socket createSocket(InetAddress host, int port) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
			throw new UnsupportedOperationException();
		}

	}

}
