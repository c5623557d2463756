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

package io.github.kubeop.autoconfigure.health;

import java.util.List;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Adds the {@code informers} health contributor to the readiness group (beside Spring
 * Boot's {@code readinessState}), so that a Kubernetes readiness probe on
 * {@code /actuator/health/readiness} waits for the caches. It leaves the group alone when
 * the application configures the group's members itself, and never touches the liveness
 * group: an unreachable API server is no reason to restart the process.
 * <p>
 * A bean rather than a default {@code management.endpoint.health.group.readiness.include}
 * property: the bean exists only where the contributor does, whereas a property naming a
 * contributor that an application switched off or excluded fails its startup.
 *
 * @author Kubeop authors
 */
@Order(Ordered.LOWEST_PRECEDENCE)
final class InformersReadinessGroupPostProcessor implements HealthEndpointGroupsPostProcessor {

	static final String READINESS = "readiness";

	static final String INFORMERS = "informers";

	private final boolean explicitMembership;

	private final boolean explicitVisibility;

	InformersReadinessGroupPostProcessor(Environment environment) {
		String group = "management.endpoint.health.group." + READINESS;
		this.explicitMembership = environment.containsProperty(group + ".include")
				|| environment.containsProperty(group + ".exclude");
		this.explicitVisibility = environment.containsProperty(group + ".show-components")
				|| environment.containsProperty(group + ".show-details");
	}

	@Override
	public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
		return this.explicitMembership ? groups : new WithInformers(groups, this.explicitVisibility);
	}

	/**
	 * The groups, with the readiness group (Spring Boot's availability probe group, or
	 * one the application configured without naming its members) extended.
	 */
	private static final class WithInformers implements HealthEndpointGroups, AdditionalPathsMapper {

		private final HealthEndpointGroups groups;

		private final boolean explicitVisibility;

		WithInformers(HealthEndpointGroups groups, boolean explicitVisibility) {
			this.groups = groups;
			this.explicitVisibility = explicitVisibility;
		}

		@Override
		public HealthEndpointGroup getPrimary() {
			return this.groups.getPrimary();
		}

		@Override
		public Set<String> getNames() {
			return this.groups.getNames();
		}

		@Override
		public HealthEndpointGroup get(String name) {
			HealthEndpointGroup group = this.groups.get(name);
			if (group == null || !READINESS.equals(name)) {
				return group;
			}
			// Boot's probe group hides components and details; show what the health
			// endpoint shows (as a group configured by properties does) unless the
			// application set the group's own visibility
			HealthEndpointGroup visibility = this.explicitVisibility ? group : this.groups.getPrimary();
			return new ReadinessWithInformers(group, visibility);
		}

		@Override
		public List<String> getAdditionalPaths(EndpointId endpointId, WebServerNamespace namespace) {
			return (this.groups instanceof AdditionalPathsMapper mapper)
					? mapper.getAdditionalPaths(endpointId, namespace) : null;
		}

	}

	private record ReadinessWithInformers(HealthEndpointGroup group,
			HealthEndpointGroup visibility) implements HealthEndpointGroup {

		@Override
		public boolean isMember(String name) {
			return INFORMERS.equals(name) || this.group.isMember(name);
		}

		@Override
		public boolean showComponents(SecurityContext securityContext) {
			return this.visibility.showComponents(securityContext);
		}

		@Override
		public boolean showDetails(SecurityContext securityContext) {
			return this.visibility.showDetails(securityContext);
		}

		@Override
		public StatusAggregator getStatusAggregator() {
			return this.group.getStatusAggregator();
		}

		@Override
		public HttpCodeStatusMapper getHttpCodeStatusMapper() {
			return this.group.getHttpCodeStatusMapper();
		}

		@Override
		public AdditionalHealthEndpointPath getAdditionalPath() {
			return this.group.getAdditionalPath();
		}

	}

}
