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

package io.github.kubeop.event;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Records Kubernetes Events ({@code events.k8s.io/v1}) about objects, as client-go's
 * {@code events.EventRecorder} does. Calls return at once: the Event is written in the
 * background, repeats are folded into one Event's series, and an object that produces too
 * many Events has the surplus dropped. Inject it into a handler:
 *
 * <pre class="code">
 * events.normal(site, "Rolled", "Rollout", "Rolled out revision " + revision);
 * </pre>
 *
 * @author Kubeop authors
 */
public interface EventRecorder {

	/**
	 * Records an Event about an object.
	 * @param regarding the object the Event is about: a generated model, a typed custom
	 * resource or a dynamic object; its name (and namespace, if it has one) must be set
	 * @param type whether the Event is normal or a warning
	 * @param reason why the action was taken, in UpperCamelCase, such as {@code Rolled}
	 * (at most 128 characters)
	 * @param action what was done or failed, such as {@code Rollout} (at most 128
	 * characters)
	 * @param note a human-readable description, truncated to 1 KB; may be {@code null}
	 */
	void record(KubernetesObject regarding, EventType type, String reason, String action, String note);

	/**
	 * Records a {@link EventType#NORMAL normal} Event about an object.
	 * @param regarding the object the Event is about
	 * @param reason why the action was taken
	 * @param action what was done
	 * @param note a human-readable description; may be {@code null}
	 * @see #record(KubernetesObject, EventType, String, String, String)
	 */
	default void normal(KubernetesObject regarding, String reason, String action, String note) {
		record(regarding, EventType.NORMAL, reason, action, note);
	}

	/**
	 * Records a {@link EventType#WARNING warning} Event about an object.
	 * @param regarding the object the Event is about
	 * @param reason why the action was taken
	 * @param action what was done or failed
	 * @param note a human-readable description; may be {@code null}
	 * @see #record(KubernetesObject, EventType, String, String, String)
	 */
	default void warning(KubernetesObject regarding, String reason, String action, String note) {
		record(regarding, EventType.WARNING, reason, action, note);
	}

}
