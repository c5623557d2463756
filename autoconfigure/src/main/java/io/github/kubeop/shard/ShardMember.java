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

package io.github.kubeop.shard;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import io.github.kubeop.leader.BoundedRequests;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseList;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Call;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One replica's membership in a shard group, coordinated through the API server alone.
 * <p>
 * Every member renews a Lease of its own. The ring (a generation number and the member
 * list) is kept on one more Lease that any member rewrites, with a resourceVersion
 * precondition, when it sees the live members differ from it: a member adds itself and
 * drops members whose Lease it saw go silent for the lease duration or disappear.
 * <p>
 * A key moves only through a handshake: on a new generation, a member first narrows what
 * it handles to the keys it owns under both the ring it works by and the new one, waits
 * until no call runs for a key it gave away, and only then acknowledges the generation on
 * its Lease. It widens to every key the new ring gives it once it has seen every member
 * of that ring acknowledge exactly that generation. Acknowledgements only grow and are
 * written after the drain, so a stale view of them can only hold a member back; a member
 * that cannot renew within the renew deadline gives up every key (interrupting its calls)
 * before anyone can see its Lease expire. Hence no key is ever handled by two members at
 * once.
 *
 * @author Kubeop authors
 */
public final class ShardMember {

	/**
	 * The label on member Leases naming their group.
	 */
	public static final String GROUP_LABEL = "shard.kubeop.io/group";

	/**
	 * The label on the ring Lease naming its group.
	 */
	public static final String RING_LABEL = "shard.kubeop.io/ring";

	/**
	 * The annotation of the ring's generation.
	 */
	public static final String GENERATION = "shard.kubeop.io/generation";

	/**
	 * The annotation of the ring's members.
	 */
	public static final String MEMBERS = "shard.kubeop.io/members";

	/**
	 * The annotation of the generation a member acknowledged.
	 */
	public static final String ACKNOWLEDGED = "shard.kubeop.io/acknowledged";

	private static final Log logger = LogFactory.getLog(ShardMember.class);

	private static final Predicate<String> NONE = (key) -> false;

	private final ShardingConfig config;

	private final CoordinationV1Api api;

	private final BoundedRequests requests;

	private final ShardParticipant participant;

	private final ShardLabels labels;

	private final LongSupplier clock;

	private final Map<String, Observed> observed = new HashMap<>();

	private final Map<String, Long> firstNoticed = new HashMap<>();

	private final AtomicLong movedIn = new AtomicLong();

	private final AtomicLong movedOut = new AtomicLong();

	private volatile boolean running;

	private Thread thread;

	private volatile long renewedNanos;

	private volatile Ring ring;

	private volatile long acknowledged;

	private volatile long narrowedFor;

	private volatile long active;

	private volatile Predicate<String> gate = NONE;

	private volatile String lastError;

	/**
	 * Creates a member.
	 * @param config the group and its timings
	 * @param client the client whose settings and credentials the member's own
	 * connections use
	 * @param participant the handlers keys move in and out of
	 */
	public ShardMember(ShardingConfig config, ApiClient client, ShardParticipant participant) {
		this(config, client, participant, null);
	}

	/**
	 * Creates a member whose informers watch only the objects labelled with its shard.
	 * @param config the group and its timings
	 * @param client the client whose settings and credentials the member's own
	 * connections use
	 * @param participant the handlers keys move in and out of
	 * @param labels the shard labels of the sharded informers' objects, or {@code null}
	 * when every replica caches everything
	 */
	public ShardMember(ShardingConfig config, ApiClient client, ShardParticipant participant, ShardLabels labels) {
		this(config, client, participant, labels, System::nanoTime);
	}

	/**
	 * Creates a member on a clock of its own, for tests of its deadlines.
	 */
	ShardMember(ShardingConfig config, ApiClient client, ShardParticipant participant, ShardLabels labels,
			LongSupplier clock) {
		this.clock = clock;
		this.labels = labels;
		this.config = config;
		this.api = new CoordinationV1Api(client);
		this.requests = new BoundedRequests(client, config.renewDeadline());
		this.participant = participant;
	}

	/**
	 * Joins the group: the member's Lease is created at once (a namespace that does not
	 * exist, or missing permissions, fail here), then a thread of its own renews it and
	 * follows the ring. Until the first generation is acknowledged by all, the replica
	 * handles no key.
	 * @throws ShardingException if the Lease cannot be written
	 */
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.gate = NONE;
		this.participant.narrow(NONE);
		if (this.labels != null) {
			this.labels.checkPermissions();
		}
		long attempt = now();
		try {
			renew(attempt + this.config.renewDeadline().toNanos());
			this.renewedNanos = attempt;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404 || ex.getCode() == 403 || ex.getCode() == 401) {
				throw new ShardingException(describeFailure(ex), ex);
			}
			logger.warn("Could not join shard group " + this.config.name() + " yet: " + describeFailure(ex));
		}
		this.running = true;
		this.thread = new Thread(this::run, "kubeop-sharding");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Leaves the group: gives up every key, waits for running calls (interrupting them
	 * after the renew deadline), then deletes the member's Lease so that others take its
	 * keys at once. If calls are still running, the Lease is left to expire instead.
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
		this.gate = NONE;
		this.participant.narrow(NONE);
		boolean drained = this.participant.drained(NONE)
				|| this.participant.interrupt(NONE, this.config.renewDeadline());
		if (this.labels != null) {
			this.labels.shutdown();
		}
		if (drained) {
			deleteLease();
		}
		else {
			logger.warn("Handler calls still run on leaving shard group " + this.config.name()
					+ "; its Lease is left to expire before others take its keys");
		}
	}

	/**
	 * Returns whether the member runs.
	 * @return whether it was started and not stopped
	 */
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Returns the member's state, for health and the actuator endpoint.
	 * @return the state
	 */
	public State state() {
		Ring ring = this.ring;
		List<String> members = (ring != null) ? ring.members() : List.of();
		Map<String, Long> acks = new java.util.TreeMap<>();
		synchronized (this.observed) {
			for (String member : members) {
				Observed seen = this.observed.get(member);
				acks.put(member, member.equals(this.config.identity()) ? this.acknowledged
						: (seen != null) ? seen.acknowledged() : 0);
			}
		}
		boolean renewing = this.renewedNanos != 0 && now() - this.renewedNanos <= this.config.renewDeadline().toNanos();
		return new State(this.config.name(), this.config.identity(), (ring != null) ? ring.generation() : 0,
				this.acknowledged, this.active, members, acks, renewing, this.participant.cached(this.gate),
				this.movedIn.get(), this.movedOut.get(), this.lastError);
	}

	/**
	 * Returns whether this replica handles a key now.
	 * @param key the key
	 * @return whether it is this replica's
	 */
	public boolean handles(String key) {
		return this.gate.test(key);
	}

	/**
	 * Returns the config.
	 * @return the config
	 */
	public ShardingConfig config() {
		return this.config;
	}

	private void run() {
		while (this.running) {
			if (!sleep(round())) {
				return;
			}
		}
	}

	/**
	 * One round on the member's thread.
	 * @return how long to pause before the next, in milliseconds
	 */
	long round() {
		boolean changed = false;
		try {
			changed = tick();
		}
		catch (RuntimeException ex) {
			logger.warn("Shard member " + this.config.identity() + " failed a round: " + ex, ex);
		}
		// whatever the round did or threw
		giveUpIfPastDeadline();
		long pause = changed ? this.config.retryPeriod().toNanos() / 4 : this.config.retryPeriod().toNanos();
		if (this.renewedNanos != 0) {
			// wake up at the deadline, not a retry period after it
			pause = Math.min(pause, Math.max(0, renewDeadline() - now()));
		}
		return Math.max(1, TimeUnit.NANOSECONDS.toMillis(pause));
	}

	/**
	 * Returns when this member gives up its keys unless a renewal succeeds before: the
	 * renew deadline after the start of its last successful renewal, as client-go's
	 * leader elector counts. Every Lease request of a round is cut off at it.
	 */
	private long renewDeadline() {
		return this.renewedNanos + this.config.renewDeadline().toNanos();
	}

	private void giveUpIfPastDeadline() {
		if (this.renewedNanos != 0 && now() - renewDeadline() >= 0) {
			lose();
		}
	}

	/**
	 * One round: renew, look at the members and the ring, and move keys.
	 * @return whether something changed, so that the next round comes sooner
	 */
	private boolean tick() {
		giveUpIfPastDeadline();
		long attempt = now();
		// before the first renewal there is nothing to give up: each attempt gets the
		// renew deadline
		long deadline = (this.renewedNanos != 0) ? renewDeadline() : attempt + this.config.renewDeadline().toNanos();
		try {
			renew(deadline);
			this.renewedNanos = attempt;
			this.lastError = null;
		}
		catch (ApiException ex) {
			this.lastError = describeFailure(ex);
			return false;
		}
		try {
			deadline = renewDeadline();
			observeMembers(deadline);
			Ring ring = maintain(readRing(deadline), deadline);
			if (ring == null) {
				return true;
			}
			this.ring = ring;
			return advance(ring);
		}
		catch (ApiException ex) {
			this.lastError = describeFailure(ex);
			return false;
		}
	}

	/**
	 * Gives up every key: no renewal succeeded within the renew deadline, so the other
	 * members may soon take this member's keys.
	 */
	private void lose() {
		// others wait the whole seconds on the Lease
		Duration timeLeft = Duration.ofNanos(Math.max(0,
				renewDeadline()
						+ ShardingConfig.timeToStop(this.config.leaseDuration(), this.config.renewDeadline()).toNanos()
						- now()));
		logger.warn("Shard member " + this.config.identity() + " could not renew its Lease within the renew "
				+ "deadline; giving up its keys within the " + timeLeft.toMillis() + " ms left");
		Predicate<String> given = this.gate;
		// the gate first: nothing the handlers report may keep the keys here
		this.gate = NONE;
		this.acknowledged = 0;
		this.narrowedFor = 0;
		this.active = 0;
		this.renewedNanos = 0;
		try {
			this.participant.narrow(NONE);
		}
		finally {
			// interrupted whatever narrowing threw
			if (!this.participant.interrupt(NONE, timeLeft)) {
				logger.error("Handler calls still run although shard member " + this.config.identity()
						+ " gave up its keys; they ignored the interrupt");
			}
		}
		try {
			this.movedOut.addAndGet(this.participant.cached(given));
		}
		catch (RuntimeException ex) {
			logger.warn("Shard member " + this.config.identity() + " could not count the keys it gave up: " + ex);
		}
	}

	private boolean advance(Ring ring) {
		Ring current = ring;
		if (current.generation() > this.acknowledged) {
			String self = this.config.identity();
			if (this.narrowedFor != current.generation()) {
				Predicate<String> before = this.gate;
				HashRing next = current.hashRing();
				Predicate<String> kept = (key) -> before.test(key) && next.owns(self, key);
				this.movedOut.addAndGet(this.participant.cached(before) - this.participant.cached(kept));
				this.gate = kept;
				this.participant.narrow(kept);
				this.narrowedFor = current.generation();
			}
			if (!this.participant.drained(this.gate)) {
				return false;
			}
			this.acknowledged = current.generation();
			logger.debug("Shard member " + self + " acknowledged generation " + current.generation());
			if (this.labels != null) {
				// drained: what is no longer this member's may go to its new owner's
				// cache
				this.labels.release(current.hashRing(), self);
			}
			return true;
		}
		if (current.generation() == this.acknowledged && this.active != current.generation()
				&& allAcknowledged(current)) {
			HashRing next = current.hashRing();
			String self = this.config.identity();
			Predicate<String> mine = (key) -> next.owns(self, key);
			this.gate = mine;
			this.movedIn.addAndGet(this.participant.widen(mine));
			this.active = current.generation();
			logger.info("Shard member " + self + " works by generation " + current.generation() + " of "
					+ current.members());
			return true;
		}
		if (this.labels != null && this.active == current.generation()) {
			// settled: hand on what still carries this member's label though it is
			// another's
			// (labelled back by a pass that ran on an older ring), and let the first
			// member
			// label objects that carry no live member's label
			this.labels.release(current.hashRing(), this.config.identity());
			if (current.members().get(0).equals(this.config.identity())) {
				this.labels.adopt(current.hashRing());
			}
		}
		return false;
	}

	private boolean allAcknowledged(Ring ring) {
		synchronized (this.observed) {
			for (String member : ring.members()) {
				if (member.equals(this.config.identity())) {
					continue;
				}
				Observed seen = this.observed.get(member);
				if (seen == null || seen.acknowledged() != ring.generation()) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * Rewrites the ring when its members differ from the live ones.
	 * @return the ring to work by, or {@code null} if another member rewrote it first
	 */
	private Ring maintain(V1Lease lease, long deadline) throws ApiException {
		Ring ring = Ring.of(lease, this.config.virtualNodes());
		TreeSet<String> desired = new TreeSet<>();
		for (String member : ring.members()) {
			if (isLive(member)) {
				desired.add(member);
			}
		}
		desired.add(this.config.identity());
		if (desired.equals(new TreeSet<>(ring.members()))) {
			return ring;
		}
		long generation = ring.generation() + 1;
		Map<String, String> annotations = new HashMap<>(
				(lease.getMetadata().getAnnotations() != null) ? lease.getMetadata().getAnnotations() : Map.of());
		annotations.put(GENERATION, Long.toString(generation));
		annotations.put(MEMBERS, String.join(",", desired));
		lease.getMetadata().setAnnotations(annotations);
		try {
			V1Lease written = execute(
					this.api.replaceNamespacedLease(lease.getMetadata().getName(), this.config.leaseNamespace(), lease)
						.buildCall(null),
					deadline);
			logger.info("Shard group " + this.config.name() + " is now generation " + generation + ": " + desired);
			return Ring.of(written, this.config.virtualNodes());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 409) {
				return null;
			}
			throw ex;
		}
	}

	private boolean isLive(String member) {
		if (member.equals(this.config.identity())) {
			return true;
		}
		long now = now();
		synchronized (this.observed) {
			Observed seen = this.observed.get(member);
			if (seen != null) {
				return !seen.departed() && now - seen.observedNanos() < seen.leaseDuration().toNanos();
			}
			// in the ring before its Lease was seen here: it just joined, give it time
			long noticed = this.firstNoticed.computeIfAbsent(member, (m) -> now);
			return now - noticed < this.config.leaseDuration().toNanos();
		}
	}

	private void observeMembers(long deadline) throws ApiException {
		V1LeaseList leases = execute(this.api.listNamespacedLease(this.config.leaseNamespace())
			.labelSelector(GROUP_LABEL + "=" + this.config.name())
			.buildCall(null), deadline, V1LeaseList.class);
		long now = now();
		synchronized (this.observed) {
			java.util.Set<String> listed = new java.util.HashSet<>();
			for (V1Lease lease : leases.getItems()) {
				V1LeaseSpec spec = lease.getSpec();
				String holder = (spec != null) ? spec.getHolderIdentity() : null;
				if (holder == null || holder.isEmpty()) {
					continue;
				}
				listed.add(holder);
				String version = lease.getMetadata().getResourceVersion();
				Observed seen = this.observed.get(holder);
				Map<String, String> annotations = lease.getMetadata().getAnnotations();
				long acknowledged = parse((annotations != null) ? annotations.get(ACKNOWLEDGED) : null);
				int seconds = (spec.getLeaseDurationSeconds() != null) ? spec.getLeaseDurationSeconds()
						: (int) this.config.leaseDuration().toSeconds();
				long observedNanos = (seen == null || !Objects.equals(seen.resourceVersion(), version)) ? now
						: seen.observedNanos();
				this.observed.put(holder,
						new Observed(version, observedNanos, Duration.ofSeconds(seconds), acknowledged, false));
			}
			// a Lease that was seen and is gone was deleted by its member, after it gave
			// up
			// its keys
			this.observed.replaceAll((member, seen) -> listed.contains(member) ? seen
					: new Observed(seen.resourceVersion(), seen.observedNanos(), seen.leaseDuration(), 0, true));
		}
	}

	private V1Lease readRing(long deadline) throws ApiException {
		String name = this.config.name() + "-ring";
		try {
			return execute(this.api.readNamespacedLease(name, this.config.leaseNamespace()).buildCall(null), deadline);
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
		}
		V1Lease ring = new V1Lease().metadata(new V1ObjectMeta().name(name)
			.namespace(this.config.leaseNamespace())
			.labels(Map.of(RING_LABEL, this.config.name()))
			.annotations(Map.of(GENERATION, "0", MEMBERS, "")));
		try {
			return execute(this.api.createNamespacedLease(this.config.leaseNamespace(), ring).buildCall(null),
					deadline);
		}
		catch (ApiException ex) {
			if (ex.getCode() == 409) {
				return execute(this.api.readNamespacedLease(name, this.config.leaseNamespace()).buildCall(null),
						deadline);
			}
			throw ex;
		}
	}

	private void renew(long deadline) throws ApiException {
		OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
		V1LeaseSpec spec = new V1LeaseSpec().holderIdentity(this.config.identity())
			.leaseDurationSeconds((int) Math.max(1, this.config.leaseDuration().toSeconds()))
			.renewTime(now);
		V1Lease existing = null;
		try {
			existing = execute(this.api.readNamespacedLease(leaseName(), this.config.leaseNamespace()).buildCall(null),
					deadline);
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
		}
		Map<String, String> annotations = Map.of(ACKNOWLEDGED, Long.toString(this.acknowledged));
		if (existing == null) {
			V1Lease lease = new V1Lease()
				.metadata(new V1ObjectMeta().name(leaseName())
					.namespace(this.config.leaseNamespace())
					.labels(Map.of(GROUP_LABEL, this.config.name()))
					.annotations(annotations))
				.spec(spec.acquireTime(now));
			execute(this.api.createNamespacedLease(this.config.leaseNamespace(), lease).buildCall(null), deadline);
			return;
		}
		existing.getMetadata().setAnnotations(annotations);
		existing.getMetadata().setLabels(Map.of(GROUP_LABEL, this.config.name()));
		existing.setSpec(spec.acquireTime((existing.getSpec() != null && existing.getSpec().getAcquireTime() != null)
				? existing.getSpec().getAcquireTime() : now));
		execute(this.api.replaceNamespacedLease(leaseName(), this.config.leaseNamespace(), existing).buildCall(null),
				deadline);
	}

	private void deleteLease() {
		long deadline = now() + this.config.renewDeadline().toNanos();
		try {
			execute(this.api.deleteNamespacedLease(leaseName(), this.config.leaseNamespace()).buildCall(null), deadline,
					Object.class);
			logger.info("Shard member " + this.config.identity() + " left group " + this.config.name());
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				logger.warn("Could not delete the Lease of shard member " + this.config.identity()
						+ "; others take its keys once it expires: " + describeFailure(ex));
			}
		}
	}

	/**
	 * Returns the member's Lease name: the group's name and the identity, made a valid
	 * object name.
	 * @return the Lease name
	 */
	String leaseName() {
		String identity = this.config.identity().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
		return this.config.name() + "-member-" + identity;
	}

	private V1Lease execute(Call prepared, long deadline) throws ApiException {
		return execute(prepared, deadline, V1Lease.class);
	}

	private <R> R execute(Call prepared, long deadline, Class<R> type) throws ApiException {
		return this.requests.execute(prepared, Duration.ofNanos(deadline - now()), type);
	}

	private long now() {
		return this.clock.getAsLong();
	}

	private String describeFailure(ApiException ex) {
		String lease = "Lease " + this.config.leaseNamespace() + "/" + leaseName();
		return switch (ex.getCode()) {
			case 404 -> "the namespace '" + this.config.leaseNamespace()
					+ "' of the shard Leases does not exist; create it or set kubeop.sharding.lease-namespace";
			case 401, 403 -> "the operator may not write " + lease + ": it needs get, list, create, update and "
					+ "delete on leases (coordination.k8s.io) in namespace " + this.config.leaseNamespace();
			case 0 -> "cannot reach the API server for " + lease + ": " + ex.getMessage();
			default -> "HTTP " + ex.getCode() + " on " + lease;
		};
	}

	private static long parse(String value) {
		try {
			return (value != null) ? Long.parseLong(value) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
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

	/**
	 * What this member saw of another's Lease.
	 */
	private record Observed(String resourceVersion, long observedNanos, Duration leaseDuration, long acknowledged,
			boolean departed) {

	}

	/**
	 * A generation of the ring.
	 *
	 * @param generation the generation
	 * @param members the members, sorted
	 * @param hashRing the ring
	 */
	record Ring(long generation, List<String> members, HashRing hashRing) {

		static Ring of(V1Lease lease, int virtualNodes) {
			Map<String, String> annotations = (lease.getMetadata().getAnnotations() != null)
					? lease.getMetadata().getAnnotations() : Map.of();
			String listed = annotations.getOrDefault(MEMBERS, "");
			List<String> members = listed.isEmpty() ? List.of()
					: new ArrayList<>(new TreeSet<>(Arrays.asList(listed.split(","))));
			return new Ring(parse(annotations.get(GENERATION)), List.copyOf(members),
					HashRing.of(members, virtualNodes));
		}

	}

	/**
	 * A member's state.
	 *
	 * @param group the shard group
	 * @param identity this member's identity
	 * @param generation the newest ring generation seen
	 * @param acknowledged the generation this member acknowledged
	 * @param active the generation this member works by, 0 before the first
	 * @param members the ring's members
	 * @param acknowledgements the generation each member was seen to acknowledge
	 * @param renewing whether the member's Lease was renewed within the renew deadline
	 * @param keys how many cached objects this member handles
	 * @param movedIn how many cached objects moved to this member
	 * @param movedOut how many cached objects moved away from this member
	 * @param lastError the last failure to renew or read, or {@code null}
	 */
	public record State(String group, String identity, long generation, long acknowledged, long active,
			List<String> members, Map<String, Long> acknowledgements, boolean renewing, int keys, long movedIn,
			long movedOut, String lastError) {

	}

}
