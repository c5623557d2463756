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

package io.github.kubeop.benchmarks;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.core.metrics.StartupStep;

/**
 * Kubeop's share of the main thread's start-up work, read from Spring's start-up steps:
 * its bean definition registrar and the creation of its beans (the client, the informer
 * registry, the informers with their discovery requests, the handlers), without the steps
 * of other beans created inside them. Reported in milliseconds under
 * {@code kubeopRegistrar}, {@code kubeopClient}, {@code kubeopInformers} and
 * {@code kubeopBeans} (every Kubeop step, those three included), as wall-clock time and,
 * under the same names ending in {@code Cpu}, as the main thread's CPU time. With the
 * system property {@code startup.detail} set, every Kubeop step is also printed to the
 * standard error with its main-thread CPU time and start instant (for profiling).
 *
 * @author Kubeop authors
 */
final class KubeopSteps {

	private static final boolean DETAIL = Boolean.getBoolean("startup.detail");

	private KubeopSteps() {
	}

	static Map<String, Double> of(StartupTimeline timeline, CpuTimedStartup startup,
			ConfigurableListableBeanFactory beanFactory) {
		Map<String, Double> steps = new LinkedHashMap<>();
		steps.putAll(of(timeline, beanFactory, (event) -> event.getDuration().toNanos() / 1e6, ""));
		steps.putAll(of(timeline, beanFactory, (event) -> startup.cpuNanos(event.getStartupStep()) / 1e6, "Cpu"));
		return steps;
	}

	private static Map<String, Double> of(StartupTimeline timeline, ConfigurableListableBeanFactory beanFactory,
			ToDoubleFunction<StartupTimeline.TimelineEvent> millisOf, String suffix) {
		Map<Long, StartupTimeline.TimelineEvent> byId = new HashMap<>();
		timeline.getEvents().forEach((event) -> byId.put(event.getStartupStep().getId(), event));
		double registrar = 0;
		double client = 0;
		double informers = 0;
		double total = 0;
		for (StartupTimeline.TimelineEvent event : timeline.getEvents()) {
			if (!isKubeop(event.getStartupStep(), beanFactory) || hasKubeopAncestor(event, byId, beanFactory)) {
				continue;
			}
			double millis = millisOf.applyAsDouble(event) - otherBeansInside(event, timeline, beanFactory, millisOf);
			String bean = tag(event.getStartupStep(), "beanName");
			if (event.getStartupStep().getName().startsWith("spring.context.beandef-registry")) {
				registrar += millis;
			}
			else if ("kubernetesApiClient".equals(bean)) {
				client += millis;
			}
			else if (bean != null && bean.endsWith("Informer")) {
				informers += millis;
			}
			total += millis;
			if (DETAIL && !suffix.isEmpty()) {
				System.err.printf(java.util.Locale.ROOT, "kubeop step %8.1f ms CPU at %s %s %s%n", millis,
						event.getStartTime(), event.getStartupStep().getName(),
						(bean != null) ? bean : tag(event.getStartupStep(), "postProcessor"));
			}
		}
		Map<String, Double> steps = new LinkedHashMap<>();
		steps.put("kubeopRegistrar" + suffix, registrar);
		steps.put("kubeopClient" + suffix, client);
		steps.put("kubeopInformers" + suffix, informers);
		steps.put("kubeopBeans" + suffix, total);
		return steps;
	}

	private static boolean hasKubeopAncestor(StartupTimeline.TimelineEvent event,
			Map<Long, StartupTimeline.TimelineEvent> byId, ConfigurableListableBeanFactory beanFactory) {
		Long parent = event.getStartupStep().getParentId();
		while (parent != null) {
			StartupTimeline.TimelineEvent ancestor = byId.get(parent);
			if (ancestor == null) {
				return false;
			}
			if (isKubeop(ancestor.getStartupStep(), beanFactory)) {
				return true;
			}
			parent = ancestor.getStartupStep().getParentId();
		}
		return false;
	}

	/**
	 * Returns how long the beans that are not Kubeop's, created directly inside a Kubeop
	 * step (a meter registry a Kubeop bean needs), took.
	 */
	private static double otherBeansInside(StartupTimeline.TimelineEvent event, StartupTimeline timeline,
			ConfigurableListableBeanFactory beanFactory, ToDoubleFunction<StartupTimeline.TimelineEvent> millisOf) {
		double millis = 0;
		for (StartupTimeline.TimelineEvent child : timeline.getEvents()) {
			Long parent = child.getStartupStep().getParentId();
			if (parent != null && parent == event.getStartupStep().getId()
					&& !isKubeop(child.getStartupStep(), beanFactory)) {
				millis += millisOf.applyAsDouble(child);
			}
		}
		return millis;
	}

	private static boolean isKubeop(StartupStep step, ConfigurableListableBeanFactory beanFactory) {
		String postProcessor = tag(step, "postProcessor");
		if (postProcessor != null) {
			return postProcessor.startsWith("io.github.kubeop.");
		}
		String bean = tag(step, "beanName");
		if (bean == null || !step.getName().equals("spring.beans.instantiate")) {
			return false;
		}
		if (bean.startsWith("io.github.kubeop.") || bean.startsWith("kubeop") || bean.equals("kubernetesApiClient")
				|| bean.equals("kubernetesConnectionDetails") || bean.equals("kubernetesTemplate")) {
			return true;
		}
		if (!beanFactory.containsBeanDefinition(bean)) {
			return false;
		}
		Class<?> type = beanFactory.getType(bean, false);
		return type != null && (type.getName().startsWith("io.github.kubeop.")
				|| type.getName().startsWith("io.kubernetes.client."));
	}

	private static String tag(StartupStep step, String key) {
		for (StartupStep.Tag tag : step.getTags()) {
			if (tag.getKey().equals(key)) {
				return tag.getValue();
			}
		}
		return null;
	}

}
