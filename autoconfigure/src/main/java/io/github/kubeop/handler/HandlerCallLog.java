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

package io.github.kubeop.handler;

import java.time.Duration;
import java.util.Locale;

import io.github.kubeop.informer.ResourceKind;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The DEBUG lines that let a user follow a handler: one per call (handler, key, trigger,
 * attempt, outcome, duration), one per requeue with its reason, one per finalizer added
 * or removed, and one per request a finalizer write makes (the {@code KubernetesTemplate}
 * logs its own the same way). Lines are {@code key=value} pairs after a fixed prefix, so
 * that one handler or one key can be followed with {@code grep}; they name objects, never
 * carry their contents. At INFO nothing is logged per call, and no line is built unless
 * DEBUG is enabled for this logger ({@code io.github.kubeop.handler.HandlerCallLog}).
 *
 * @author Kubeop authors
 */
final class HandlerCallLog {

	private static final Log logger = LogFactory.getLog(HandlerCallLog.class);

	private HandlerCallLog() {
	}

	/**
	 * A handler call ended.
	 * @param handler the handler name
	 * @param key the key
	 * @param trigger why it was called
	 * @param attempt the attempt number
	 * @param outcome how it ended
	 * @param start when it started, from {@link System#nanoTime()}
	 */
	static void called(String handler, String key, Trigger trigger, int attempt, HandlerObserver.Outcome outcome,
			long start) {
		if (logger.isDebugEnabled()) {
			double millis = (System.nanoTime() - start) / 1_000_000.0;
			logger.debug("Handler call: handler=" + handler + " key=" + key + " trigger=" + trigger + " attempt="
					+ attempt + " outcome=" + outcome.name().toLowerCase(Locale.ROOT) + " duration="
					+ String.format(Locale.ROOT, "%.1f", millis) + "ms");
		}
	}

	/**
	 * A key was put back into the queue.
	 * @param handler the handler name
	 * @param key the key
	 * @param after the delay, or {@code null} for the queue's rate-limited back-off
	 * @param reason why, in a few words
	 * @param detail appended to the reason (a failure, say), or {@code null}
	 * @param stackTrace a failure whose stack trace is logged with the line, or
	 * {@code null}
	 */
	static void requeued(String handler, String key, Duration after, String reason, Object detail,
			Throwable stackTrace) {
		if (logger.isDebugEnabled()) {
			String line = "Handler requeue: handler=" + handler + " key=" + key + " after="
					+ ((after != null) ? after.toMillis() + "ms" : "back-off") + " reason=" + reason
					+ ((detail != null) ? ": " + detail : "");
			if (stackTrace != null) {
				logger.debug(line, stackTrace);
			}
			else {
				logger.debug(line);
			}
		}
	}

	/**
	 * A finalizer was added to or removed from the object handled by the current call.
	 * @param finalizer the finalizer
	 * @param added whether it was added (else removed)
	 */
	static void finalizer(String finalizer, boolean added) {
		if (logger.isDebugEnabled()) {
			logger
				.debug("Finalizer " + (added ? "added" : "removed") + ":" + currentCall() + " finalizer=" + finalizer);
		}
	}

	/**
	 * A finalizer write got its answer.
	 * @param verb the verb, {@code get} or {@code patch}
	 * @param resource the resource
	 * @param namespace the object's namespace, or {@code null}
	 * @param name the object's name
	 * @param code the HTTP status code of the answer
	 */
	static void request(String verb, ResourceKind resource, String namespace, String name, int code) {
		if (logger.isDebugEnabled()) {
			logger.debug(("get".equals(verb) ? "Read" : "Write") + ": verb=" + verb + " resource=" + resource.plural()
					+ (resource.group().isEmpty() ? "" : "." + resource.group()) + " object="
					+ ((namespace != null) ? namespace + "/" : "") + name + " code=" + code + currentCall());
		}
	}

	private static String currentCall() {
		HandlerCall call = HandlerCall.current();
		return (call != null) ? " handler=" + call.handler() + " key=" + call.key() : "";
	}

}
