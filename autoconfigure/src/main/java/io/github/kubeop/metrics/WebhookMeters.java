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
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeop.webhook.WebhookObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Records webhook calls under the names controller-runtime's webhook server exports
 * (pkg/webhook/internal/metrics), so that its dashboards read a Kubeop operator:
 * {@code controller_runtime_webhook_requests_total{webhook,code}},
 * {@code controller_runtime_webhook_latency_seconds{webhook,code}},
 * {@code controller_runtime_webhook_requests_in_flight{webhook}} and
 * {@code controller_runtime_webhook_panics_total} (a webhook method that threw;
 * {@code controller_runtime_conversion_webhook_panics_total} for conversion). The
 * {@code webhook} tag is the path, as in controller-runtime; {@code code} is 200 for
 * allowed or converted, 403 denied, 400 unreadable, 500 threw.
 *
 * @author Kubeop authors
 */
public class WebhookMeters implements WebhookObserver {

	/**
	 * The default buckets of a Prometheus histogram, which controller-runtime's webhook
	 * latency uses, in seconds.
	 */
	private static final Duration[] LATENCY_BUCKETS = Arrays
		.stream(new double[] { 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 })
		.mapToObj((seconds) -> Duration.ofNanos((long) (seconds * 1e9)))
		.toArray(Duration[]::new);

	private static final String CONVERSION_PATH = "/convert";

	private final MeterRegistry registry;

	private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

	private final Counter panics;

	private final Counter conversionPanics;

	/**
	 * Creates a new instance, with the panic counters at zero.
	 * @param registry the registry to register meters in
	 */
	public WebhookMeters(MeterRegistry registry) {
		this.registry = registry;
		this.panics = Counter.builder("controller.runtime.webhook.panics")
			.description("Total number of webhook panics")
			.register(registry);
		this.conversionPanics = Counter.builder("controller.runtime.conversion.webhook.panics")
			.description("Total number of conversion webhook panics")
			.register(registry);
	}

	@Override
	public void registered(String path) {
		inFlight(path);
		requests(path, 200);
		latency(path, 200);
	}

	@Override
	public void started(String path) {
		inFlight(path).incrementAndGet();
	}

	@Override
	public void answered(String path, int code, long nanos) {
		inFlight(path).decrementAndGet();
		requests(path, code).increment();
		latency(path, code).record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void threw(String path, Throwable failure) {
		(path.startsWith(CONVERSION_PATH) ? this.conversionPanics : this.panics).increment();
	}

	private AtomicInteger inFlight(String path) {
		return this.inFlight.computeIfAbsent(path, (key) -> {
			AtomicInteger value = new AtomicInteger();
			Gauge.builder("controller.runtime.webhook.requests.in.flight", value, AtomicInteger::get)
				.description("Current number of admission requests being served")
				.tag("webhook", key)
				.register(this.registry);
			return value;
		});
	}

	private Counter requests(String path, int code) {
		return Counter.builder("controller.runtime.webhook.requests")
			.description("Total number of admission requests by HTTP status code")
			.tags("webhook", path, "code", Integer.toString(code))
			.register(this.registry);
	}

	private Timer latency(String path, int code) {
		return Timer.builder("controller.runtime.webhook.latency")
			.description("Histogram of the latency of processing admission requests")
			.tags("webhook", path, "code", Integer.toString(code))
			.serviceLevelObjectives(LATENCY_BUCKETS)
			.register(this.registry);
	}

}
