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

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease with client-go's semantics:
 * acquire by creating or taking over an expired lease (expiry judged by when this replica
 * last saw the lease change, not by clocks of other machines), renew every retry period,
 * give up leadership when no renewal succeeded within the renew deadline, and release the
 * lease on stop so that another replica takes over at once. Unlike the official Java
 * client's elector, losing the lease is not the end: the elector goes back to acquiring.
 *
 * @author Kubeop authors
 */
public final class LeaderElector {

	private static final Log logger = LogFactory.getLog(LeaderElector.class);

	private final LeaderElectionConfig config;

	private final CoordinationV1Api api;

	private final LeaderCallbacks callbacks;

	private volatile boolean running;

	private volatile boolean leading;

	private Thread thread;

	private String observedVersion;

	private V1LeaseSpec observedSpec;

	private long observedNanos;

	private String lastReportedLeader;

	/**
	 * Creates a new elector.
	 * @param config how to elect
	 * @param client the client to read and write the Lease with
	 * @param callbacks told of leadership changes
	 */
	public LeaderElector(LeaderElectionConfig config, ApiClient client, LeaderCallbacks callbacks) {
		this.config = config;
		this.api = new CoordinationV1Api(client);
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
		if (this.leading) {
			this.leading = false;
			this.callbacks.stoppedLeading();
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
		return this.leading;
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
			this.leading = true;
			logger.info("Became leader of lease " + this.config.leaseNamespace() + "/" + this.config.leaseName()
					+ " as " + this.config.identity());
			this.callbacks.startedLeading();
			renew();
			if (!this.running) {
				return;
			}
			if (this.leading) {
				this.leading = false;
				logger.warn("Lost leadership of lease " + this.config.leaseNamespace() + "/" + this.config.leaseName()
						+ "; workers stop, and this replica tries to acquire it again");
				this.callbacks.stoppedLeading();
			}
		}
	}

	private boolean acquire() {
		while (this.running) {
			if (tryAcquireOrRenew()) {
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

	private void renew() {
		long lastRenewal = System.nanoTime();
		while (this.running) {
			if (!sleep(this.config.retryPeriod().toMillis())) {
				return;
			}
			if (tryAcquireOrRenew()) {
				lastRenewal = System.nanoTime();
			}
			else if (!isHeldByMe() || System.nanoTime() - lastRenewal > this.config.renewDeadline().toNanos()) {
				return;
			}
		}
	}

	private boolean tryAcquireOrRenew() {
		OffsetDateTime now = now();
		try {
			V1Lease lease = read();
			if (lease == null) {
				V1Lease created = this.api
					.createNamespacedLease(this.config.leaseNamespace(),
							new V1Lease().metadata(new V1ObjectMeta().name(this.config.leaseName())
								.namespace(this.config.leaseNamespace())).spec(spec(now, now, 0)))
					.execute();
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
			V1Lease updated = this.api
				.replaceNamespacedLease(this.config.leaseName(), this.config.leaseNamespace(), lease)
				.execute();
			observe(updated);
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() != 409) {
				logger.warn("Leader election on lease " + this.config.leaseNamespace() + "/" + this.config.leaseName()
						+ " failed: HTTP " + ex.getCode());
			}
			return false;
		}
		catch (RuntimeException ex) {
			logger.warn("Leader election on lease " + this.config.leaseNamespace() + "/" + this.config.leaseName()
					+ " failed: " + ex);
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
			logger.info(
					"Lease " + this.config.leaseNamespace() + "/" + this.config.leaseName() + " is held by " + holder);
			this.callbacks.newLeader(holder);
		}
	}

	private void release() {
		try {
			V1Lease lease = read();
			if (lease == null || lease.getSpec() == null
					|| !this.config.identity().equals(lease.getSpec().getHolderIdentity())) {
				return;
			}
			OffsetDateTime now = now();
			lease.getSpec().holderIdentity("").leaseDurationSeconds(1).renewTime(now).acquireTime(now);
			this.api.replaceNamespacedLease(this.config.leaseName(), this.config.leaseNamespace(), lease).execute();
			logger.info("Released lease " + this.config.leaseNamespace() + "/" + this.config.leaseName());
		}
		catch (ApiException | RuntimeException ex) {
			logger.warn("Could not release lease " + this.config.leaseNamespace() + "/" + this.config.leaseName() + ": "
					+ ex);
		}
	}

	private V1Lease read() throws ApiException {
		try {
			return this.api.readNamespacedLease(this.config.leaseName(), this.config.leaseNamespace()).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private V1LeaseSpec spec(OffsetDateTime acquired, OffsetDateTime renewed, int transitions) {
		return new V1LeaseSpec().holderIdentity(this.config.identity())
			.leaseDurationSeconds((int) Math.max(1, this.config.leaseDuration().toSeconds()))
			.acquireTime(acquired)
			.renewTime(renewed)
			.leaseTransitions(transitions);
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
