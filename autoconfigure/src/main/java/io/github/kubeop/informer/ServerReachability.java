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
import java.io.InterruptedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.ConnectionPool;
import okhttp3.Interceptor;

/**
 * What the list-and-watch loops of one API server know together about reaching it: one
 * signal and one probe schedule per server, not a back-off clock per informer, and one
 * pool of pinged connections, as client-go's informers share one HTTP/2 connection with
 * its health check.
 * <p>
 * A loop that cannot reach the server (a connection refused, reset or found dead, as
 * opposed to an answer such as {@code 429} or {@code 503}, which the loop backs off from
 * on its own clock, or a response that is slow to come, which is that request's own
 * failure) waits here. While the server is unreachable only one loop at a time tries it
 * (the probe), every 0.5 s growing to 2 s: a connection attempt that fails costs an
 * overloaded server nothing, and one probe per server is no herd. The first request any
 * loop gets answered, even with an error, ends every waiting loop's wait at once, each
 * after a small random delay (up to {@value #WAKE_JITTER_MILLIS} ms) so that they do not
 * all arrive in the same instant.
 * <p>
 * A watch found dead by silence closes its connection, so that every other watch and list
 * multiplexed on it fails at once and moves to a new one, rather than each waiting for
 * its own timeout; a connection that fails a ping is closed by OkHttp, with the same
 * effect.
 *
 * @author Kubeop authors
 */
final class ServerReachability {

	/**
	 * The longest random delay before a waiting loop tries again once the server
	 * answered.
	 */
	static final long WAKE_JITTER_MILLIS = 500;

	/**
	 * How long a probe may take before another loop may probe: a connection attempt that
	 * hangs (packets dropped) must not hold every loop back for its whole timeout.
	 */
	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

	/**
	 * How long a request waits for another to open the pool's first connection before it
	 * opens one of its own; an opening older than this is not waited for.
	 */
	private static final Duration OPENING_WAIT = Duration.ofSeconds(10);

	/**
	 * How often a waiting request looks whether its call was cancelled: a call run by
	 * OkHttp's dispatcher (a list's next page) is not interrupted by a cancel.
	 */
	private static final long OPENING_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final ConnectionPool connections = new ConnectionPool();

	/**
	 * The lock of {@link #opening}, apart from this object's, on which loops wait for the
	 * server to be reachable.
	 */
	private final Object openingLock = new Object();

	/**
	 * The opening in progress while the pool has no connection: its number (so that only
	 * its own opener ends it), or 0 when none is.
	 */
	private long opening;

	private long openings;

	/** When the opening in progress started, on {@link System#nanoTime()}. */
	private long openingStartedNanos;

	/** The connection of each open watch, for closing every watch on a dead one. */
	private final Map<Call, Connection> watchConnections = new ConcurrentHashMap<>();

	private final Backoff probes;

	private final LongSupplier nanoClock;

	/** How many requests were answered since the server was last unreachable. */
	private long answers;

	private boolean unreachable;

	private Thread prober;

	private long probeStartedNanos;

	private long nextProbeNanos;

	/** How many loops wait for the server to be reachable. */
	private int waiting;

	ServerReachability() {
		this(System::nanoTime);
	}

	ServerReachability(LongSupplier nanoClock) {
		this.nanoClock = nanoClock;
		this.probes = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofMinutes(2), 0.25,
				nanoClock);
	}

	/**
	 * Returns the pool of the connections lists and watches of this server use.
	 * @return the connection pool
	 */
	ConnectionPool connections() {
		return this.connections;
	}

	/**
	 * Returns the network interceptor that records which connection each watch runs on.
	 * @return the interceptor
	 */
	Interceptor watchConnectionRecorder() {
		return (chain) -> {
			if ("true".equals(chain.request().url().queryParameter("watch")) && chain.connection() != null) {
				this.watchConnections.put(chain.call(), chain.connection());
			}
			return chain.proceed(chain.request());
		};
	}

	/**
	 * Returns the application interceptor that lets one request at a time open a
	 * connection while the pool has none, the others waiting until it is open (or until
	 * the opening is {@link #OPENING_WAIT} old, or their call is cancelled). The loops
	 * start together (every informer when the application starts, every loop once an
	 * unreachable server answers again), and OkHttp pools a new connection only once it
	 * is made: each loop opened one of its own, with a whole TLS handshake each (with the
	 * client certificate, four informers cost four handshakes at start-up, and so many of
	 * the JIT's work on the handshake's arithmetic), and then kept one of the HTTP/2
	 * connections and closed the others. The waiting requests find the open connection in
	 * the pool and are multiplexed on it. Over HTTP/1.1 they open their own, as before,
	 * once the first is open. After a dead connection was evicted, loops that retry while
	 * its calls still hold it see a connection in the pool and may each open one, as
	 * before.
	 * @return the interceptor
	 * @see #connectionOpen()
	 */
	Interceptor oneOpeningAtATime() {
		return (chain) -> {
			long opening = awaitOpenConnection(chain.call());
			try {
				return chain.proceed(chain.request());
			}
			finally {
				if (opening != 0) {
					opened(opening);
				}
			}
		};
	}

	/**
	 * Returns the network interceptor that tells the requests waiting in
	 * {@link #oneOpeningAtATime()} that a connection is open: network interceptors run
	 * once the request has its connection, before its response comes (a list's may take
	 * long).
	 * @return the interceptor
	 */
	Interceptor connectionOpen() {
		return (chain) -> {
			synchronized (this.openingLock) {
				if (this.opening != 0) {
					opened(this.opening);
				}
			}
			return chain.proceed(chain.request());
		};
	}

	/**
	 * Waits while another request opens the pool's first connection, at most until that
	 * opening is {@link #OPENING_WAIT} old.
	 * @param call the waiting request's call, whose cancel ends the wait
	 * @return the number of the opening the calling request is to make, or 0 if it goes
	 * on without one (a connection is open, or the opening took too long)
	 */
	private long awaitOpenConnection(Call call) throws IOException {
		synchronized (this.openingLock) {
			while (this.connections.connectionCount() == 0) {
				long now = System.nanoTime();
				if (this.opening == 0) {
					this.opening = ++this.openings;
					this.openingStartedNanos = now;
					return this.opening;
				}
				long left = this.openingStartedNanos + OPENING_WAIT.toNanos() - now;
				if (left <= 0) {
					return 0;
				}
				if (call.isCanceled()) {
					throw new IOException("Canceled");
				}
				try {
					TimeUnit.NANOSECONDS.timedWait(this.openingLock, Math.min(left, OPENING_POLL_NANOS));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new InterruptedIOException("Interrupted while another request opened a connection");
				}
			}
			return 0;
		}
	}

	/**
	 * Ends an opening, if it is still the one in progress.
	 */
	private void opened(long opening) {
		synchronized (this.openingLock) {
			if (this.opening == opening) {
				this.opening = 0;
				this.openingLock.notifyAll();
			}
		}
	}

	/**
	 * Tells that a watch ended, whatever the reason.
	 * @param call the watch's call
	 */
	void watchEnded(Call call) {
		this.watchConnections.remove(call);
	}

	/**
	 * Tells that a watch was found dead although its connection looked open (it stayed
	 * silent past the stall timeout): the connection is closed, so that every watch and
	 * list on it fails now and moves to a new one.
	 * @param call the dead watch's call
	 */
	void watchFoundDead(Call call) {
		Connection connection = this.watchConnections.remove(call);
		if (connection != null) {
			Socket socket = connection.socket();
			// closing a TLS socket sends close_notify: never on the loop's thread, which
			// a
			// stalled peer could hold
			Thread closer = new Thread(() -> closeQuietly(socket), "kubeop-informer-close-dead-connection");
			closer.setDaemon(true);
			closer.start();
		}
		this.connections.evictAll();
	}

	/**
	 * Tells that a request of some loop was answered successfully: the server is
	 * reachable, and every loop waiting for it tries again.
	 */
	synchronized void answered() {
		this.answers++;
		if (this.unreachable || this.prober != null) {
			this.unreachable = false;
			this.prober = null;
			this.probes.reset();
			notifyAll();
		}
	}

	/**
	 * Waits until the calling loop may try again after a failure. A loop that could not
	 * reach the server waits until a request of any loop is answered, or until it is its
	 * turn to probe. A loop whose request was answered, even with an error, tells every
	 * waiting loop that the server is reachable and waits for its own delay: each loop
	 * then backs off from the server's errors on its own clock. A loop whose request got
	 * no answer on a connection that is up (its response headers did not come in time)
	 * waits for its own delay and tells nothing.
	 * @param delay the loop's own back-off delay, for a failure other than
	 * {@link Failure#UNREACHABLE}
	 * @param failure what the failure says about reaching the server
	 * @throws InterruptedException if interrupted while waiting
	 */
	void awaitRetry(Duration delay, Failure failure) throws InterruptedException {
		long wakeJitter;
		synchronized (this) {
			long now = this.nanoClock.getAsLong();
			if (this.prober == Thread.currentThread()) {
				// the probe failed: the next one after the schedule's delay, or after
				// the loop's own if it is still this loop's turn
				this.prober = null;
				this.nextProbeNanos = now + ((failure != Failure.ANSWERED) ? this.probes.next() : delay).toNanos();
			}
			else if (failure == Failure.UNREACHABLE && !this.unreachable) {
				this.unreachable = true;
				this.nextProbeNanos = now + this.probes.next().toNanos();
			}
			if (failure == Failure.ANSWERED) {
				// an answer, even an error, says the server is reachable: the loops
				// waiting for it must not wait on this loop's back-off
				answered();
			}
			long seen = this.answers;
			if (failure != Failure.UNREACHABLE) {
				// the loop's own back-off, not a signal
				long deadline = now + delay.toNanos();
				while (now - deadline < 0) {
					TimeUnit.NANOSECONDS.timedWait(this, deadline - now);
					now = this.nanoClock.getAsLong();
				}
				return;
			}
			this.waiting++;
			try {
				while (true) {
					if (this.answers != seen || !this.unreachable) {
						wakeJitter = ThreadLocalRandom.current().nextLong(WAKE_JITTER_MILLIS + 1);
						break;
					}
					now = this.nanoClock.getAsLong();
					boolean probeFree = this.prober == null || now - this.probeStartedNanos > PROBE_TIMEOUT.toNanos();
					if (probeFree && now - this.nextProbeNanos >= 0) {
						this.prober = Thread.currentThread();
						this.probeStartedNanos = now;
						return;
					}
					long until = (this.prober == null) ? this.nextProbeNanos
							: Math.max(this.nextProbeNanos, this.probeStartedNanos + PROBE_TIMEOUT.toNanos());
					// bounded, so that a clock that moves without notice is seen
					TimeUnit.NANOSECONDS.timedWait(this,
							Math.min(Math.max(until - now, TimeUnit.MILLISECONDS.toNanos(1)),
									TimeUnit.MILLISECONDS.toNanos(100)));
				}
			}
			finally {
				this.waiting--;
			}
		}
		Thread.sleep(wakeJitter);
	}

	/**
	 * Returns how many loops wait for the server to be reachable.
	 * @return the number of waiting loops
	 */
	synchronized int waiting() {
		return this.waiting;
	}

	/**
	 * Tells that a loop stopped: a probe it held is free.
	 */
	synchronized void stopped() {
		if (this.prober == Thread.currentThread()) {
			this.prober = null;
			notifyAll();
		}
	}

	/**
	 * What a failed request says about reaching its API server.
	 */
	enum Failure {

		/**
		 * No connection to the server: refused, reset, or found dead.
		 */
		UNREACHABLE,

		/**
		 * The server answered, if only with an error such as {@code 429} or {@code 503}:
		 * it is reachable.
		 */
		ANSWERED,

		/**
		 * The request went out on a connection that is up, but its answer did not come in
		 * time: a busy server, not a dead connection, which the pings and the silence of
		 * the watches already on it find.
		 */
		UNANSWERED

	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
