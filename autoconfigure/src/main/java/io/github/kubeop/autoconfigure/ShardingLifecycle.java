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

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.handler.HandlersLifecycle;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.shard.ShardMember;
import io.github.kubeop.shard.ShardParticipant;
import io.kubernetes.client.common.KubernetesObject;

import org.springframework.context.SmartLifecycle;

/**
 * Runs the replica's shard membership: it joins before the handler workers start (so that
 * they start with no key) and leaves after they stopped.
 *
 * @author Kubeop authors
 */
public class ShardingLifecycle implements SmartLifecycle {

	/**
	 * The phase sharding starts in: after the informers, before the handlers.
	 */
	public static final int PHASE = HandlersLifecycle.PHASE - 500;

	private final ShardMember member;

	ShardingLifecycle(ShardMember member) {
		this.member = member;
	}

	/**
	 * Returns the member, for health, metrics and the actuator endpoint.
	 * @return the member
	 */
	public ShardMember member() {
		return this.member;
	}

	@Override
	public void start() {
		this.member.start();
	}

	@Override
	public void stop() {
		this.member.stop();
	}

	@Override
	public boolean isRunning() {
		return this.member.isRunning();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * The replica's handlers as the keys of a shard move in and out of them.
	 */
	public static final class Handlers implements ShardParticipant {

		private final HandlerRegistrar registrar;

		/**
		 * Creates the participant of a registrar's handlers.
		 * @param registrar the handlers
		 */
		public Handlers(HandlerRegistrar registrar) {
			this.registrar = registrar;
		}

		@Override
		public void narrow(Predicate<String> keys) {
			this.registrar.narrowKeys(keys);
		}

		@Override
		public boolean drained(Predicate<String> keys) {
			return this.registrar.drained(keys);
		}

		@Override
		public boolean interrupt(Predicate<String> keys, Duration timeout) {
			return this.registrar.awaitCallsOutside(keys, timeout, true);
		}

		@Override
		public int widen(Predicate<String> keys) {
			return this.registrar.widenKeys(keys);
		}

		@Override
		public int cached(Predicate<String> keys) {
			Set<ResourceInformer<?>> informers = new HashSet<>();
			for (Controller<?> controller : this.registrar.controllers()) {
				informers.add(controller.informer());
			}
			int count = 0;
			for (ResourceInformer<?> informer : informers) {
				for (KubernetesObject object : informer.indexer().list()) {
					if (keys.test(this.registrar.shardKey(object))) {
						count++;
					}
				}
			}
			return count;
		}

	}

}
