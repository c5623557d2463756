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

package io.github.kubeop.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.github.kubeop.handler.Controller;
import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerRegistrar;
import io.github.kubeop.informer.ResourceInformer;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.queue.DefaultWorkQueue;
import io.github.kubeop.queue.Priority;
import io.github.kubeop.queue.QueueMetrics;
import io.github.kubeop.queue.QueueMetricsFactory;
import io.github.kubeop.shard.ShardMember;
import io.github.kubeop.write.WriteListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * Kubeop's Micrometer meters. Queue and controller meters carry the names
 * controller-runtime and client-go export ({@code workqueue_*},
 * {@code controller_runtime_*}, {@code leader_election_master_status} in Prometheus), so
 * existing dashboards work unchanged; informer meters ({@code kubeop_informer_*}) add
 * what none of them export. Tags are bounded: handler, queue and informer names, never
 * objects. Timers publish the histogram buckets controller-runtime's histograms have, so
 * that {@code histogram_quantile} over {@code _bucket} works as it does for a Go
 * operator.
 *
 * @author Kubeop authors
 */
public class KubeopMetrics implements HandlerObserver, QueueMetricsFactory, WriteListener {

	private static final String[] RESULTS = { "success", "error", "requeue", "requeue_after" };

	/**
	 * The buckets of controller-runtime's
	 * {@code controller_runtime_reconcile_time_seconds}
	 * (pkg/internal/controller/metrics), in seconds.
	 */
	private static final Duration[] RECONCILE_TIME_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25,
			0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7,
			8, 9, 10, 15, 20, 25, 30, 40, 50, 60);

	/**
	 * The buckets of controller-runtime's {@code workqueue_queue_duration_seconds} and
	 * {@code workqueue_work_duration_seconds} (pkg/internal/metrics/workqueue.go:
	 * {@code prometheus.ExponentialBuckets(10e-9, 10, 12)}, 10 ns to 1,000 s) from 1 µs
	 * up. Registries without histograms of their own (Micrometer's simple registry, the
	 * one an application with Actuator alone gets) publish each bucket as a gauge tagged
	 * with its bound to six decimals of a second: 10 ns and 100 ns were both
	 * {@code le=0}, and the second was refused with a warning at every start. Hardly a
	 * queue wait or an item's work on the JVM falls below 1 µs, and those count in the 1
	 * µs bucket.
	 */
	private static final Duration[] WORKQUEUE_BUCKETS = exponentialBuckets(Duration.ofNanos(1_000), 10, 10);

	private final MeterRegistry registry;

	private final Map<String, AtomicInteger> activeWorkers = new ConcurrentHashMap<>();

	/**
	 * Queue depths by queue and priority.
	 */
	private final Map<String, Map<Integer, AtomicLong>> depths = new ConcurrentHashMap<>();

	/**
	 * Creates a new instance.
	 * @param registry the registry to register meters in
	 */
	public KubeopMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Counts a request of the {@code KubernetesTemplate}: {@code kubeop.writes} for
	 * writes, {@code kubeop.reads} for reads the cache could not answer, by verb,
	 * resource and status code ({@code 0} when there was no answer).
	 * @param resource the resource
	 * @param verb the verb
	 * @param code the status code
	 */
	@Override
	public void requested(ResourceKind resource, String verb, int code) {
		boolean read = "get".equals(verb) || "list".equals(verb);
		Counter.builder(read ? "kubeop.reads" : "kubeop.writes")
			.description(read ? "Reads of the KubernetesTemplate sent to the API server"
					: "Writes of the KubernetesTemplate sent to the API server")
			.tags("verb", verb, "resource", resourceName(resource), "code", Integer.toString(code))
			.register(this.registry)
			.increment();
	}

	/**
	 * Counts an apply not sent because the live object has its state already, as
	 * {@code kubeop.writes.unchanged}.
	 * @param resource the resource
	 * @param verb {@code apply} or {@code apply-status}
	 */
	@Override
	public void unchanged(ResourceKind resource, String verb) {
		Counter.builder("kubeop.writes.unchanged")
			.description("Applies of the KubernetesTemplate not sent: the live object had their state")
			.tags("verb", verb, "resource", resourceName(resource))
			.register(this.registry)
			.increment();
	}

	private static String resourceName(ResourceKind resource) {
		return resource.group().isEmpty() ? resource.plural() : resource.plural() + "." + resource.group();
	}

	/**
	 * Returns the metrics of a handler's queue, named after the handler.
	 * @param name the queue and handler name
	 * @return the queue metrics
	 */
	@Override
	public QueueMetrics queueMetrics(String name) {
		Tags tags = Tags.of("name", name, "controller", name);
		Counter adds = Counter.builder("workqueue.adds")
			.description("Adds handled by the work queue")
			.tags(tags)
			.register(this.registry);
		Counter retries = Counter.builder("workqueue.retries")
			.description("Retries handled by the work queue")
			.tags(tags)
			.register(this.registry);
		Timer queued = Timer.builder("workqueue.queue.duration")
			.description("How long an item stays in the work queue before being requested")
			.serviceLevelObjectives(WORKQUEUE_BUCKETS)
			.tags(tags)
			.register(this.registry);
		Timer worked = Timer.builder("workqueue.work.duration")
			.description("How long processing an item from the work queue takes")
			.serviceLevelObjectives(WORKQUEUE_BUCKETS)
			.tags(tags)
			.register(this.registry);
		return new QueueMetrics() {

			@Override
			public void added(int priority) {
				adds.increment();
				depth(name, priority).incrementAndGet();
			}

			@Override
			public void raised(int from, int to) {
				depth(name, from).decrementAndGet();
				depth(name, to).incrementAndGet();
			}

			@Override
			public void taken(long waitedNanos, int priority) {
				depth(name, priority).decrementAndGet();
				queued.record(waitedNanos, TimeUnit.NANOSECONDS);
			}

			@Override
			public void done(long workedNanos) {
				worked.record(workedNanos, TimeUnit.NANOSECONDS);
			}

			@Override
			public void retried() {
				retries.increment();
			}

		};
	}

	/**
	 * Registers the gauges of a running controller and its counters at zero.
	 * @param controller the controller
	 */
	public void bind(Controller<?> controller) {
		String name = controller.name();
		Tags tags = Tags.of("name", name, "controller", name);
		// the depth of normal priority is there from the start; others from their first
		// item
		depth(name, Priority.NORMAL);
		if (controller.queue() instanceof DefaultWorkQueue<?> queue) {
			Gauge.builder("workqueue.unfinished.work", queue, (q) -> q.unfinishedWorkNanos() / 1e9)
				.description("Seconds of work in progress not yet observed by work duration")
				.baseUnit("seconds")
				.tags(tags)
				.register(this.registry);
			Gauge.builder("workqueue.longest.running.processor", queue, (q) -> q.longestRunningProcessorNanos() / 1e9)
				.description("Seconds the longest running processor has been running")
				.baseUnit("seconds")
				.tags(tags)
				.register(this.registry);
		}
		Tags controllerTags = Tags.of("controller", name);
		Gauge.builder("controller.runtime.active.workers", active(name), AtomicInteger::get)
			.description("Number of workers handling a key right now")
			.tags(controllerTags)
			.register(this.registry);
		Gauge.builder("controller.runtime.max.concurrent.reconciles", controller, Controller::workerCount)
			.description("Number of workers of the handler")
			.tags(controllerTags)
			.register(this.registry);
		for (String result : RESULTS) {
			reconciles(name, result);
		}
		errors(name);
		terminalErrors(name);
		reconcileTime(name);
	}

	/**
	 * Registers {@code kubeop.references.mapping.failures}, the calls of a handler's
	 * reference mappers that threw (each logged once per object until it maps again).
	 * @param registrar the registrar of the handler, which counts them
	 * @param handler the handler name
	 */
	public void bindReferenceMappingFailures(HandlerRegistrar registrar, String handler) {
		// the registrar, a bean, keeps the meter's weakly held object reachable
		FunctionCounter
			.builder("kubeop.references.mapping.failures", registrar, (r) -> r.referenceMappingFailures(handler))
			.description("Calls of the handler's reference mappers that threw")
			.tags("controller", handler)
			.register(this.registry);
	}

	/**
	 * Registers the meters of an informer.
	 * @param informer the informer
	 */
	public void bind(ResourceInformer<?> informer) {
		Tags tags = Tags.of("name", informer.spec().name(), "resource", informer.resource().toString());
		Gauge.builder("kubeop.informer.cache.size", informer, (i) -> i.indexer().listKeys().size())
			.description("Objects in the informer's cache")
			.baseUnit("objects")
			.tags(tags)
			.register(this.registry);
		for (String type : new String[] { "added", "modified", "deleted" }) {
			FunctionCounter.builder("kubeop.informer.events", informer, (i) -> i.eventCount(type))
				.description("Events received from the API server")
				.tags(tags.and("type", type))
				.register(this.registry);
		}
		FunctionCounter.builder("kubeop.informer.watch.restarts", informer, (i) -> i.status().watchRestarts())
			.description("Watches opened again after the first")
			.tags(tags)
			.register(this.registry);
		FunctionCounter.builder("kubeop.informer.relists", informer, (i) -> i.status().relists())
			.description("Complete lists, the initial one included")
			.tags(tags)
			.register(this.registry);
		Gauge.builder("kubeop.informer.last.event.age", informer, (i) -> i.nanosSinceLastEvent() / 1e9)
			.description("Seconds since the informer last received an event")
			.baseUnit("seconds")
			.tags(tags)
			.register(this.registry);
	}

	/**
	 * Registers the leader gauge: 1 while this replica leads.
	 * @param leaseName the lease name
	 * @param leading whether this replica leads
	 */
	public void bindLeaderElection(String leaseName, BooleanSupplier leading) {
		Gauge.builder("leader.election.master.status", leading, (supplier) -> supplier.getAsBoolean() ? 1 : 0)
			.description("Whether this replica is the leader (1) or not (0)")
			.tags("name", leaseName)
			.strongReference(true)
			.register(this.registry);
	}

	/**
	 * Registers the sharding meters: the cached objects this replica handles, the ring's
	 * members, and the objects that moved in and out.
	 * @param group the shard group
	 * @param state the member's state
	 */
	public void bindSharding(String group, Supplier<ShardMember.State> state) {
		Gauge.builder("kubeop.sharding.keys", state, (s) -> s.get().keys())
			.description("Cached objects this replica's shard handles")
			.tags("name", group)
			.strongReference(true)
			.register(this.registry);
		Gauge.builder("kubeop.sharding.members", state, (s) -> s.get().members().size())
			.description("Members of the shard ring")
			.tags("name", group)
			.strongReference(true)
			.register(this.registry);
		FunctionCounter.builder("kubeop.sharding.moves", state, (s) -> s.get().movedIn())
			.description("Cached objects that moved to or away from this replica")
			.tags("name", group, "direction", "in")
			.register(this.registry);
		FunctionCounter.builder("kubeop.sharding.moves", state, (s) -> s.get().movedOut())
			.description("Cached objects that moved to or away from this replica")
			.tags("name", group, "direction", "out")
			.register(this.registry);
	}

	@Override
	public void handled(String handler, Outcome outcome, long nanos) {
		reconcileTime(handler).record(nanos, TimeUnit.NANOSECONDS);
		switch (outcome) {
			case SUCCESS -> reconciles(handler, "success").increment();
			case REQUEUE -> reconciles(handler, "requeue").increment();
			case REQUEUE_AFTER -> reconciles(handler, "requeue_after").increment();
			case ERROR -> {
				reconciles(handler, "error").increment();
				errors(handler).increment();
			}
			case TERMINAL_ERROR -> {
				reconciles(handler, "error").increment();
				errors(handler).increment();
				terminalErrors(handler).increment();
			}
		}
	}

	@Override
	public void workerStarted(String handler) {
		active(handler).incrementAndGet();
	}

	@Override
	public void workerFinished(String handler) {
		active(handler).decrementAndGet();
	}

	/**
	 * Returns the depth of one priority of a queue, registering its gauge on first use:
	 * client-go's depth, incremented by every add of an item not already waiting (one
	 * re-added while it is processed included), decremented when a worker takes it
	 * (delayed items are not added yet), by priority as controller-runtime's priority
	 * queue reports it.
	 */
	private AtomicLong depth(String queue, int priority) {
		return this.depths.computeIfAbsent(queue, (name) -> new ConcurrentHashMap<>())
			.computeIfAbsent(priority, (p) -> {
				AtomicLong depth = new AtomicLong();
				Gauge.builder("workqueue.depth", depth, AtomicLong::get)
					.description("Current depth of the work queue")
					.tags("name", queue, "controller", queue, "priority", Integer.toString(p))
					.strongReference(true)
					.register(this.registry);
				return depth;
			});
	}

	private AtomicInteger active(String handler) {
		return this.activeWorkers.computeIfAbsent(handler, (name) -> new AtomicInteger());
	}

	private Counter reconciles(String handler, String result) {
		return Counter.builder("controller.runtime.reconcile")
			.description("Handler calls per controller and result")
			.tags("controller", handler, "result", result)
			.register(this.registry);
	}

	private Counter errors(String handler) {
		return Counter.builder("controller.runtime.reconcile.errors")
			.description("Handler calls that failed")
			.tags("controller", handler)
			.register(this.registry);
	}

	private Counter terminalErrors(String handler) {
		return Counter.builder("controller.runtime.terminal.reconcile.errors")
			.description("Handler calls that failed for good")
			.tags("controller", handler)
			.register(this.registry);
	}

	private Timer reconcileTime(String handler) {
		return Timer.builder("controller.runtime.reconcile.time")
			.description("How long handler calls take")
			.serviceLevelObjectives(RECONCILE_TIME_BUCKETS)
			.tags("controller", handler)
			.register(this.registry);
	}

	private static Duration[] exponentialBuckets(Duration start, int factor, int count) {
		Duration[] buckets = new Duration[count];
		Duration bound = start;
		for (int i = 0; i < count; i++) {
			buckets[i] = bound;
			bound = bound.multipliedBy(factor);
		}
		return buckets;
	}

	private static Duration[] seconds(double... seconds) {
		Duration[] durations = new Duration[seconds.length];
		for (int i = 0; i < seconds.length; i++) {
			durations[i] = Duration.ofNanos(Math.round(seconds[i] * 1e9));
		}
		return durations;
	}

}
