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

package io.github.kubeop.health;

import io.github.kubeop.shard.ShardMember;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the replica's shard membership: its identity, the ring's generation and
 * members, the generation each member acknowledged and how many cached objects this
 * replica handles. DOWN when the replica cannot renew its Lease (it handles nothing, and
 * its keys move once the Lease expires) or the ring has no member; UNKNOWN while it waits
 * for every member to acknowledge the ring it joined.
 *
 * @author Kubeop authors
 */
public class ShardingHealthIndicator extends AbstractHealthIndicator {

	private final ShardMember member;

	/**
	 * Creates a new instance.
	 * @param member the replica's membership
	 */
	public ShardingHealthIndicator(ShardMember member) {
		super("Sharding health check failed");
		this.member = member;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		ShardMember.State state = this.member.state();
		if (!state.renewing()) {
			builder.down()
				.withDetail("reason", "the replica cannot renew its Lease and handles no key"
						+ ((state.lastError() != null) ? ": " + state.lastError() : ""));
		}
		else if (state.members().isEmpty()) {
			builder.down().withDetail("reason", "the ring has no live member");
		}
		else if (state.active() != state.generation()) {
			builder.unknown()
				.withDetail("reason", "waiting for every member to acknowledge generation " + state.generation());
		}
		else {
			builder.up();
		}
		builder.withDetail("group", state.group())
			.withDetail("identity", state.identity())
			.withDetail("generation", state.generation())
			.withDetail("active", state.active())
			.withDetail("members", state.members())
			.withDetail("acknowledged", state.acknowledgements())
			.withDetail("keys", state.keys())
			.withDetail("movedIn", state.movedIn())
			.withDetail("movedOut", state.movedOut());
	}

}
