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

import java.util.List;

import io.github.kubeop.typed.Gadget;
import io.github.kubeop.typed.Gizmo;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubernetesResourceClasses}.
 *
 * @author Kubeop authors
 */
class KubernetesResourceClassesTests {

	private final KubernetesResourceClasses classes = KubernetesResourceClasses
		.scan(List.of(Gadget.class.getPackageName()), getClass().getClassLoader());

	@Test
	void findsAnnotatedClassesByKindAndByPlural() {
		assertThat(this.classes.find("typed.kubeop.test", "v1", "Gadget")).isEqualTo(Gadget.class);
		assertThat(this.classes.find("typed.kubeop.test", "v1", "gizmos")).isEqualTo(Gizmo.class);
	}

	@Test
	void aBeanFactoryIsScannedOnce() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		AutoConfigurationPackages.register(beanFactory, Gadget.class.getPackageName());
		KubernetesResourceClasses first = KubernetesResourceClasses.scan(beanFactory);
		assertThat(first.find("typed.kubeop.test", "v1", "Gadget")).isEqualTo(Gadget.class);
		assertThat(KubernetesResourceClasses.scan(beanFactory)).isSameAs(first);
		assertThat(KubernetesResourceClasses.scan(new DefaultListableBeanFactory())).isNotSameAs(first);
	}

	@Test
	void informersOfBuiltInKindsAloneDoNotScanTheClassPath() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		AutoConfigurationPackages.register(beanFactory, Gadget.class.getPackageName());
		MockEnvironment environment = new MockEnvironment()
			.withProperty("kubeop.informers.resources.pods.api-version", "v1")
			.withProperty("kubeop.informers.resources.pods.kind", "Pod")
			.withProperty("kubeop.informers.resources.deployments.api-version", "apps/v1")
			.withProperty("kubeop.informers.resources.deployments.kind", "Deployment");
		InformerSpecs.bind(environment, beanFactory);
		assertThat(beanFactory.containsSingleton(KubernetesResourceClasses.BEAN)).isFalse();
	}

	@Test
	void anInformerOfAnotherKindScansTheClassPath() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		AutoConfigurationPackages.register(beanFactory, Gadget.class.getPackageName());
		MockEnvironment environment = new MockEnvironment()
			.withProperty("kubeop.informers.resources.pods.api-version", "v1")
			.withProperty("kubeop.informers.resources.pods.kind", "Pod")
			.withProperty("kubeop.informers.resources.gadgets.api-version", "typed.kubeop.test/v1")
			.withProperty("kubeop.informers.resources.gadgets.kind", "Gadget");
		InformerSpecs specs = InformerSpecs.bind(environment, beanFactory);
		assertThat(beanFactory.containsSingleton(KubernetesResourceClasses.BEAN)).isTrue();
		assertThat(specs.spec("gadgets").type()).isEqualTo(Gadget.class);
	}

	@Test
	void findsNothingForAnotherGroupOrVersion() {
		assertThat(this.classes.find("other.kubeop.test", "v1", "Gadget")).isNull();
		assertThat(this.classes.find("typed.kubeop.test", "v2", "Gadget")).isNull();
	}

}
