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

package io.github.kubeop.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of the API server that a test can break: {@link #cut()}
 * closes every connection and refuses new ones, {@link #stall()} keeps connections open
 * but stops forwarding (the network between the two is down, for connections old and
 * new), {@link #stallOpenConnections()} does so only for the connections open now (a
 * half-open connection, as a dead NAT entry leaves behind, while new connections work),
 * and {@link #restore()} forwards again. {@link #connectionsAccepted()} counts the
 * connections clients opened. Point a client at {@link #url()}; TLS still verifies the
 * API server's certificate, which is valid for 127.0.0.1.
 *
 * @author Kubeop authors
 */
public final class FaultProxy implements AutoCloseable {

	private final InetSocketAddress target;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Set<Socket> stalledSockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger accepted = new AtomicInteger();

	private final Thread acceptor;

	private volatile boolean cut;

	private volatile boolean stalled;

	private volatile boolean closed;

	/**
	 * Starts a proxy to a loopback port.
	 * @param targetPort the API server's port on 127.0.0.1
	 */
	public FaultProxy(int targetPort) {
		this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.acceptor = new Thread(this::accept, "kubeop-fault-proxy");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/**
	 * Returns the URL to reach the API server through the proxy.
	 * @return the URL
	 */
	public String url() {
		return "https://127.0.0.1:" + this.server.getLocalPort();
	}

	/**
	 * Closes every connection; new ones are accepted and closed at once.
	 */
	public void cut() {
		this.cut = true;
		closeAll();
	}

	/**
	 * Stops forwarding bytes in both directions without closing anything.
	 */
	public void stall() {
		this.stalled = true;
	}

	/**
	 * Stops forwarding bytes on the connections open now, in both directions, without
	 * closing them; connections opened later are forwarded: a half-open connection.
	 */
	public void stallOpenConnections() {
		this.stalledSockets.addAll(this.sockets);
	}

	/**
	 * Returns how many connections clients opened through the proxy, refused ones
	 * included.
	 * @return the number of connections accepted
	 */
	public int connectionsAccepted() {
		return this.accepted.get();
	}

	/**
	 * Forwards again; connections stalled meanwhile are closed, as a real network would
	 * eventually reset them.
	 */
	public void restore() {
		if (this.stalled || !this.stalledSockets.isEmpty()) {
			this.stalledSockets.forEach(FaultProxy::closeQuietly);
			closeAll();
		}
		this.stalledSockets.clear();
		this.stalled = false;
		this.cut = false;
	}

	@Override
	public void close() {
		this.closed = true;
		closeAll();
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				this.accepted.incrementAndGet();
				if (this.cut) {
					client.close();
					continue;
				}
				Socket upstream = new Socket();
				upstream.connect(this.target, 5000);
				this.sockets.add(client);
				this.sockets.add(upstream);
				pipe(client, upstream);
				pipe(upstream, client);
			}
			catch (IOException ex) {
				if (this.closed) {
					return;
				}
			}
		}
	}

	private void pipe(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16384];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					while ((this.stalled || this.stalledSockets.contains(from)) && !from.isClosed()) {
						Thread.sleep(20);
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// connection closed or cut
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "kubeop-fault-proxy-pipe");
		thread.setDaemon(true);
		thread.start();
	}

	private void closeAll() {
		this.sockets.forEach(FaultProxy::closeQuietly);
		this.sockets.clear();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

}
