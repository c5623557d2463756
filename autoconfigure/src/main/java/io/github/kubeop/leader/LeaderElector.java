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

package io.github.kubeop.leader;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Call;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease with client-go's semantics:
 * acquire by creating or taking over an expired lease (expiry judged by when this replica
 * last saw the lease change, not by clocks of other machines), renew every retry period,
 * give up leadership when no renewal succeeded within the renew deadline, and release the
 * lease on stop so that another replica takes over at once. Unlike the official Java
 * client's elector, losing the lease is not the end: the elector goes back to acquiring.
 * <p>
 * Lease requests go through an HTTP client of their own, whose connections no watch
 * holds, and every request is cut off when the renew deadline passes, as client-go bounds
 * each one by its context: a leader whose connection hangs gives up in time instead of
 * waiting on a request that never returns. The deadline runs from the start of the last
 * successful renewal, so that a leader that gives up has at least the lease duration
 * minus the renew deadline before another replica can take over; that time is handed to
 * {@link LeaderCallbacks#stoppedLeading(Duration)}.
 *
 * @author Kubeop authors
 */
public final class LeaderElector {

	private static final Log logger = LogFactory.getLog(LeaderElector.class);

	private final LeaderElectionConfig config;

	private final CoordinationV1Api api;

	private final BoundedRequests requests;

	private final LeaderCallbacks callbacks;

	private final AtomicBoolean leading = new AtomicBoolean();

	private volatile boolean running;

	private Thread thread;

	private String observedVersion;

	private V1LeaseSpec observedSpec;

	private long observedNanos;

	private volatile long renewedNanos;

	private String lastReportedLeader;

	/**
	 * Creates a new elector.
	 * @param config how to elect
	 * @param client the client to read and write the Lease with; its HTTP client's
	 * settings and credentials are used on connections of the elector's own
	 * @param callbacks told of leadership changes
	 */
	public LeaderElector(LeaderElectionConfig config, ApiClient client, LeaderCallbacks callbacks) {
		this.config = config;
		this.api = new CoordinationV1Api(client);
		this.requests = new BoundedRequests(client, config.renewDeadline());
		this.callbacks = callbacks;
	}

	/**
	 * Starts electing on a thread of its own.
	 */
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		this.thread = new Thread(this::run, "kubeop-leader-election");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Stops electing; a leader stops leading and releases the lease.
	 */
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		this.thread.interrupt();
		try {
			this.thread.join(this.config.renewDeadline().toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.leading.compareAndSet(true, false)) {
			// the lease is still held: released once the callback returns
			this.callbacks.stoppedLeading(timeLeft());
		}
		release();
	}

	/**
	 * Returns whether the elector runs.
	 * @return whether it was started and not stopped
	 */
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Returns whether this replica leads.
	 * @return whether it holds the lease
	 */
	public boolean isLeader() {
		return this.leading.get();
	}

	/**
	 * Returns the config.
	 * @return the config
	 */
	public LeaderElectionConfig config() {
		return this.config;
	}

	private void run() {
		while (this.running) {
			if (!acquire()) {
				return;
			}
			this.leading.set(true);
			logger.info("Became leader of lease " + describe() + " as " + this.config.identity());
			startLeading();
			renew();
			if (!this.running) {
				return;
			}
			if (this.leading.compareAndSet(true, false)) {
				Duration timeLeft = timeLeft();
				logger.warn("Lost leadership of lease " + describe() + "; handler calls are stopped within the "
						+ timeLeft.toMillis() + " ms left before another replica can take over");
				this.callbacks.stoppedLeading(timeLeft);
			}
		}
	}

	/**
	 * Tells the callbacks on a thread of their own, as client-go runs
	 * {@code OnStartedLeading} in a goroutine: what a new leader starts (every cache
	 * walked to queue every object) must not hold back the first renewal.
	 */
	private void startLeading() {
		Thread activation = new Thread(() -> {
			try {
				this.callbacks.startedLeading();
			}
			catch (RuntimeException ex) {
				logger.error("Starting to lead lease " + describe() + " failed", ex);
			}
		}, "kubeop-leader-activation");
		activation.setDaemon(true);
		activation.start();
	}

	private boolean acquire() {
		while (this.running) {
			long attempt = System.nanoTime();
			if (tryAcquireOrRenew(attempt + this.config.renewDeadline().toNanos())) {
				this.renewedNanos = attempt;
				return true;
			}
			long retry = this.config.retryPeriod().toMillis();
			long jittered = retry
					+ (long) (retry * LeaderElectionConfig.JITTER_FACTOR * ThreadLocalRandom.current().nextDouble());
			if (!sleep(jittered)) {
				return false;
			}
		}
		return false;
	}

	/**
	 * Renews until a renewal fails for good: the lease is held by another replica, or no
	 * renewal succeeded within the renew deadline. A hanging request is cut off at the
	 * deadline.
	 */
	private void renew() {
		while (this.running) {
			if (!sleep(this.config.retryPeriod().toMillis())) {
				return;
			}
			long deadline = this.renewedNanos + this.config.renewDeadline().toNanos();
			while (true) {
				long attempt = System.nanoTime();
				if (tryAcquireOrRenew(deadline)) {
					this.renewedNanos = attempt;
					break;
				}
				long left = deadline - System.nanoTime();
				if (!isHeldByMe() || left <= 0 || !this.running) {
					return;
				}
				if (!sleep(Math.min(this.config.retryPeriod().toMillis(), TimeUnit.NANOSECONDS.toMillis(left)))) {
					return;
				}
			}
		}
	}

	/**
	 * Returns how long until another replica can take the lease: it waits the recorded
	 * lease duration after it saw the last renewal, which it cannot have seen before this
	 * replica sent it.
	 */
	private Duration timeLeft() {
		long expiry = this.renewedNanos + Duration.ofSeconds(leaseDurationSeconds()).toNanos();
		return Duration.ofNanos(Math.max(0, expiry - System.nanoTime()));
	}

	private boolean tryAcquireOrRenew(long deadline) {
		OffsetDateTime now = now();
		try {
			V1Lease lease = read(deadline);
			if (lease == null) {
				V1Lease created = execute(
						this.api
							.createNamespacedLease(this.config.leaseNamespace(),
									new V1Lease().metadata(new V1ObjectMeta().name(this.config.leaseName())
										.namespace(this.config.leaseNamespace())).spec(spec(now, now, 0)))
							.buildCall(null),
						deadline);
				observe(created);
				return true;
			}
			if (!Objects.equals(lease.getMetadata().getResourceVersion(), this.observedVersion)) {
				observe(lease);
			}
			V1LeaseSpec current = (lease.getSpec() != null) ? lease.getSpec() : new V1LeaseSpec();
			String holder = current.getHolderIdentity();
			boolean mine = this.config.identity().equals(holder);
			if (holder != null && !holder.isEmpty() && !mine && !expired(current)) {
				reportLeader(holder);
				return false;
			}
			int transitions = (current.getLeaseTransitions() != null) ? current.getLeaseTransitions() : 0;
			V1LeaseSpec spec = mine ? spec(current.getAcquireTime(), now, transitions)
					: spec(now, now, transitions + 1);
			lease.setSpec(spec);
			V1Lease updated = execute(
					this.api.replaceNamespacedLease(this.config.leaseName(), this.config.leaseNamespace(), lease)
						.buildCall(null),
					deadline);
			observe(updated);
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() != 409) {
				logger.warn("Leader election on lease " + describe() + " failed: "
						+ ((ex.getCode() != 0) ? "HTTP " + ex.getCode() : String.valueOf(ex.getCause())));
			}
			return false;
		}
		catch (RuntimeException ex) {
			logger.warn("Leader election on lease " + describe() + " failed: " + ex);
			return false;
		}
	}

	private boolean expired(V1LeaseSpec spec) {
		int seconds = (spec.getLeaseDurationSeconds() != null) ? spec.getLeaseDurationSeconds()
				: (int) this.config.leaseDuration().toSeconds();
		return System.nanoTime() - this.observedNanos > Duration.ofSeconds(seconds).toNanos();
	}

	private boolean isHeldByMe() {
		return this.observedSpec != null && this.config.identity().equals(this.observedSpec.getHolderIdentity());
	}

	private void observe(V1Lease lease) {
		this.observedVersion = lease.getMetadata().getResourceVersion();
		this.observedSpec = lease.getSpec();
		this.observedNanos = System.nanoTime();
	}

	private void reportLeader(String holder) {
		if (!holder.equals(this.lastReportedLeader)) {
			this.lastReportedLeader = holder;
			logger.info("Lease " + describe() + " is held by " + holder);
			this.callbacks.newLeader(holder);
		}
	}

	private void release() {
		long deadline = System.nanoTime() + this.config.renewDeadline().toNanos();
		try {
			V1Lease lease = read(deadline);
			if (lease == null || lease.getSpec() == null
					|| !this.config.identity().equals(lease.getSpec().getHolderIdentity())) {
				return;
			}
			OffsetDateTime now = now();
			lease.getSpec().holderIdentity("").leaseDurationSeconds(1).renewTime(now).acquireTime(now);
			execute(this.api.replaceNamespacedLease(this.config.leaseName(), this.config.leaseNamespace(), lease)
				.buildCall(null), deadline);
			logger.info("Released lease " + describe());
		}
		catch (ApiException | RuntimeException ex) {
			logger.warn("Could not release lease " + describe() + ": " + ex);
		}
	}

	private V1Lease read(long deadline) throws ApiException {
		try {
			return execute(
					this.api.readNamespacedLease(this.config.leaseName(), this.config.leaseNamespace()).buildCall(null),
					deadline);
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private V1Lease execute(Call prepared, long deadline) throws ApiException {
		return this.requests.execute(prepared, deadline, V1Lease.class);
	}

	private V1LeaseSpec spec(OffsetDateTime acquired, OffsetDateTime renewed, int transitions) {
		return new V1LeaseSpec().holderIdentity(this.config.identity())
			.leaseDurationSeconds(leaseDurationSeconds())
			.acquireTime(acquired)
			.renewTime(renewed)
			.leaseTransitions(transitions);
	}

	private int leaseDurationSeconds() {
		return (int) Math.max(1, this.config.leaseDuration().toSeconds());
	}

	private String describe() {
		return this.config.leaseNamespace() + "/" + this.config.leaseName();
	}

	private static OffsetDateTime now() {
		return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
	}

	private static boolean sleep(long millis) {
		try {
			Thread.sleep(millis);
			return true;
		}
		catch (InterruptedException ex) {
			return false;
		}
	}

}
