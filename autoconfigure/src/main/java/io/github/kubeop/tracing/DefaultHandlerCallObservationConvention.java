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

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.github.kubeop.tracing.KubeopObservation.HandlerCallHighCardinalityKeys;
import io.github.kubeop.tracing.KubeopObservation.HandlerCallLowCardinalityKeys;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags of a handler call's observation: named
 * {@code kubeop.handler.call}, its span {@code handle <handler>}.
 *
 * @author Kubeop authors
 * @see KubeopObservation#HANDLER_CALL
 */
public class DefaultHandlerCallObservationConvention implements HandlerCallObservationConvention {

	/**
	 * The name of the observation, and of the timer a meter handler makes of it.
	 */
	public static final String NAME = "kubeop.handler.call";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(HandlerCallContext context) {
		return "handle " + context.getHandler();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(HandlerCallContext context) {
		String namespace = context.getNamespace();
		return KeyValues.of(HandlerCallLowCardinalityKeys.HANDLER.withValue(context.getHandler()),
				HandlerCallLowCardinalityKeys.TRIGGER.withValue(lowerCase(context.getTrigger())),
				HandlerCallLowCardinalityKeys.ATTEMPT.withValue((context.getAttempt() > 1) ? "retry" : "first"),
				HandlerCallLowCardinalityKeys.OUTCOME.withValue(lowerCase(context.getOutcome())),
				HandlerCallLowCardinalityKeys.NAMESPACE
					.withValue((namespace != null) ? namespace : KeyValue.NONE_VALUE),
				HandlerCallLowCardinalityKeys.KIND.withValue(context.getResource().kind()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(HandlerCallContext context) {
		KeyValues values = KeyValues.of(HandlerCallHighCardinalityKeys.KEY.withValue(context.getKey()),
				HandlerCallHighCardinalityKeys.ATTEMPT_NUMBER.withValue(Integer.toString(context.getAttempt())));
		if (context.getQueueWaitNanos() >= 0) {
			values = values.and(HandlerCallHighCardinalityKeys.QUEUE_WAIT
				.withValue(Long.toString(TimeUnit.NANOSECONDS.toMillis(context.getQueueWaitNanos()))));
		}
		return values;
	}

	private static String lowerCase(Enum<?> value) {
		return (value != null) ? value.name().toLowerCase(Locale.ROOT) : KeyValue.NONE_VALUE;
	}

}
