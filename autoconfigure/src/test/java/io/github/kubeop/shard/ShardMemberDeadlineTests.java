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

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import io.github.kubeop.test.FaultProxy;
import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.TestNamespace;
import io.github.kubeop.test.controlplane.ControlPlane;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a shard member cut off from the API server gives up its keys, on a clock the test
 * moves: at the renew deadline counted from the start of its last successful renewal, as
 * client-go's leader elector counts, whatever its rounds did since.
 *
 * @author Kubeop authors
 */
@KubernetesTest
class ShardMemberDeadlineTests {

	private static final Duration LEASE = Duration.ofSeconds(10);

	private static final Duration RENEW = Duration.ofSeconds(5);

	private static final Duration RETRY = Duration.ofMillis(500);

	private static final String KEY = "default/some-key";

	@Test
	void aMemberWhoseRenewalsStallGivesUpAtTheRenewDeadline(ControlPlane controlPlane, TestNamespace namespace) {
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			AtomicLong clock = new AtomicLong(1_000_000_000L);
			Participant participant = new Participant();
			ShardMember member = working(controlPlane, proxy, namespace, "stalled", clock, participant);
			long renewed = participant.lastRenewal;
			// the connection hangs: a renewal tried just before the deadline must not
			// hold the member past it
			proxy.stall();
			clock.set(renewed + RENEW.toNanos() - RETRY.toNanos());
			member.round();
			assertThat(member.handles(KEY)).as("handles its key before the renew deadline").isTrue();
			clock.set(renewed + RENEW.toNanos());
			member.round();
			assertThat(member.handles(KEY)).as("handles its key at the renew deadline").isFalse();
			assertThat(participant.interrupted).as("time its calls were given to stop")
				.containsExactly(LEASE.minus(RENEW));
		}
	}

	@Test
	void aRoundThatThrowsStillGivesUpTheKeys(ControlPlane controlPlane, TestNamespace namespace) {
		try (FaultProxy proxy = new FaultProxy(URI.create(controlPlane.serverUrl()).getPort())) {
			AtomicLong clock = new AtomicLong(1_000_000_000L);
			Participant participant = new Participant();
			ShardMember member = working(controlPlane, proxy, namespace, "throwing", clock, participant);
			long renewed = participant.lastRenewal;
			proxy.cut();
			participant.failing.set(true);
			clock.set(renewed + RENEW.toNanos() + RETRY.toNanos());
			member.round();
			assertThat(member.handles(KEY)).as("handles its key past the renew deadline").isFalse();
			assertThat(participant.narrowedToNothing).as("handlers narrowed to no key").isTrue();
		}
	}

	/**
	 * Returns a member alone in its group that works by the first generation, its
	 * renewals going through the proxy.
	 */
	private static ShardMember working(ControlPlane controlPlane, FaultProxy proxy, TestNamespace namespace,
			String group, AtomicLong clock, Participant participant) {
		ShardingConfig config = new ShardingConfig(namespace.name(), group, "member", LEASE, RENEW, RETRY, 16);
		ShardMember member = new ShardMember(config, controlPlane.apiClientVia(proxy.url()), participant, null,
				clock::get);
		for (int round = 0; round < 10 && !member.handles(KEY); round++) {
			clock.addAndGet(RETRY.toNanos() / 4);
			participant.lastRenewal = clock.get();
			member.round();
		}
		assertThat(member.handles(KEY)).as("handles its key once it works by the first generation").isTrue();
		participant.narrowedToNothing = false;
		return member;
	}

	/**
	 * Handlers that hold no key and record what the member asks of them.
	 */
	static final class Participant implements ShardParticipant {

		final List<Duration> interrupted = new CopyOnWriteArrayList<>();

		final AtomicBoolean failing = new AtomicBoolean();

		volatile boolean narrowedToNothing;

		volatile long lastRenewal;

		@Override
		public void narrow(Predicate<String> keys) {
			this.narrowedToNothing = !keys.test(KEY);
		}

		@Override
		public boolean drained(Predicate<String> keys) {
			return true;
		}

		@Override
		public boolean interrupt(Predicate<String> keys, Duration timeout) {
			this.interrupted.add(timeout);
			return true;
		}

		@Override
		public int widen(Predicate<String> keys) {
			return 0;
		}

		@Override
		public int cached(Predicate<String> keys) {
			if (this.failing.get()) {
				throw new IllegalStateException("a handler's cache failed");
			}
			return 0;
		}

	}

}
