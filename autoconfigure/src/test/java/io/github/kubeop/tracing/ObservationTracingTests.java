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
package io.github.kubeop.tracing;

import io.github.kubeop.handler.HandlerObserver;
import io.github.kubeop.handler.HandlerTracing;
import io.github.kubeop.handler.Trigger;
import io.github.kubeop.informer.ResourceKind;
import io.github.kubeop.write.WriteTracing;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ObservationTracing}: conventions replace names and tags the usual
 * Micrometer way, and a registry without handlers gets the constant no-op handles.
 *
 * @author Kubeop authors
 */
class ObservationTracingTests {

	private static final ResourceKind CONFIG_MAPS = new ResourceKind("", "v1", "ConfigMap", "configmaps", true);

	@Test
	void aConventionReplacesTheDefaultNamesAndTags() {
		SimpleTracer tracer = new SimpleTracer();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
		HandlerCallObservationConvention convention = new DefaultHandlerCallObservationConvention() {

			@Override
			public String getContextualName(HandlerCallContext context) {
				return "reconcile " + context.getKey();
			}

			@Override
			public KeyValues getLowCardinalityKeyValues(HandlerCallContext context) {
				return super.getLowCardinalityKeyValues(context).and("team", "platform");
			}

		};
		ObservationTracing tracing = new ObservationTracing(registry, convention, null);
		tracing.start("apps", "ns/shop", CONFIG_MAPS, Trigger.CHANGED, 1, null)
			.end(HandlerObserver.Outcome.SUCCESS, null);
		SimpleSpan span = tracer.onlySpan();
		assertThat(span.getName()).isEqualTo("reconcile ns/shop");
		assertThat(span.getTags()).containsEntry("team", "platform").containsEntry("kubeop.trigger", "changed");
	}

	@Test
	void aRegistryWithoutHandlersGetsTheNoOpHandles() {
		ObservationTracing tracing = new ObservationTracing(ObservationRegistry.create());
		assertThat(tracing.start("apps", "ns/shop", CONFIG_MAPS, Trigger.CHANGED, 1, null))
			.isSameAs(HandlerTracing.Traced.NONE);
		assertThat(tracing.start(CONFIG_MAPS, "apply", "ns", "shop", "")).isSameAs(WriteTracing.Traced.NONE);
	}

}
