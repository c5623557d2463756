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

import java.util.Map;
import java.util.function.Function;

/**
 * How a handler's queue orders its keys: at priorities (real changes before the work a
 * start, an activation or a resync queues), and with fairness across namespaces or
 * another partition of the objects. Each value may be unset ({@code null}), to be taken
 * from the next source: a handler's properties, then its {@code @HandlerQueue}
 * annotation, then {@code kubeop.handlers.*}.
 *
 * @param priorities whether keys are queued at priorities, or {@code null} if unset
 * @param fairness how keys take turns, or {@code null} if unset
 * @param partitionLabel the label whose value partitions the objects, for
 * {@link Fairness#LABEL}, or {@code null}
 * @author Kubeop authors
 */
public record QueueSettings(Boolean priorities, Fairness fairness, String partitionLabel) {

	/**
	 * Every value unset.
	 */
	public static final QueueSettings UNSET = new QueueSettings(null, null, null);

	/**
	 * The defaults: priorities on, no fairness.
	 */
	public static final QueueSettings DEFAULTS = new QueueSettings(true, Fairness.NONE, null);

	public QueueSettings {
		partitionLabel = (partitionLabel == null || partitionLabel.isBlank()) ? null : partitionLabel;
	}

	/**
	 * Returns these settings with unset values taken from others.
	 * @param others the settings to fall back to
	 * @return the settings
	 */
	public QueueSettings orElse(QueueSettings others) {
		return new QueueSettings((this.priorities != null) ? this.priorities : others.priorities,
				(this.fairness != null) ? this.fairness : others.fairness,
				(this.partitionLabel != null) ? this.partitionLabel : others.partitionLabel);
	}

	/**
	 * Returns the lane of a key for these settings: its namespace, or the partition
	 * label's value of its cached object.
	 * @param labels the labels of a key's cached object, {@code null} if none is cached
	 * @return the lane function, or {@code null} for one lane
	 */
	Function<String, String> lanes(Function<String, Map<String, String>> labels) {
		if (this.fairness == null || this.fairness == Fairness.NONE) {
			return null;
		}
		if (this.fairness == Fairness.NAMESPACE) {
			return QueueSettings::namespaceLane;
		}
		String label = this.partitionLabel;
		return (key) -> {
			Map<String, String> values = labels.apply(key);
			String value = (values != null) ? values.get(label) : null;
			// objects without the label share one lane; a lane's name cannot clash with a
			// label value, which never starts with a space
			return (value != null) ? value : " unlabelled";
		};
	}

	/**
	 * Checks a partition label: a label key an object could carry.
	 * @param label the label key
	 * @throws IllegalArgumentException with the reason if no object could carry it
	 */
	public static void checkPartitionLabel(String label) {
		if (label == null || label.isBlank()) {
			throw new IllegalArgumentException("fairness by label needs the label's key");
		}
		if (!label.matches("[A-Za-z0-9./_-]+")) {
			throw new IllegalArgumentException("'" + label + "' is not a label key");
		}
		// an existence requirement checks the key as the API server does
		LabelSelector.parse(label);
	}

	private static String namespaceLane(String key) {
		int slash = key.indexOf('/');
		// cluster-scoped keys form their own lane
		return (slash < 0) ? " cluster" : key.substring(0, slash);
	}

	/**
	 * How the keys of a handler's queue take turns.
	 */
	public enum Fairness {

		/**
		 * In the order queued (within a priority).
		 */
		NONE,

		/**
		 * Round-robin across namespaces: a namespace with thousands of waiting keys
		 * delays another namespace's key by at most one key per worker. Cluster-scoped
		 * objects form their own lane.
		 */
		NAMESPACE,

		/**
		 * Round-robin across the values of a label (a tenant label, for example); objects
		 * without the label form one lane.
		 */
		LABEL

	}

}
