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

package io.github.kubeop.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.kubeop.test.controlplane.Component;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real Kubernetes API server. One control plane is shared by
 * every test class of the run that asks for the same {@link #components() components}
 * (see {@link io.github.kubeop.test.controlplane.ControlPlanes#shared(java.util.Set)});
 * each test class gets a fresh namespace of its own. Test methods, constructors and
 * lifecycle methods may declare parameters of type
 * {@link io.github.kubeop.test.controlplane.ControlPlane},
 * {@link io.kubernetes.client.openapi.ApiClient} (an administrator client) and
 * {@link TestNamespace}; in a Spring test, those that Spring's extension resolves (such
 * as an {@code @Autowired ApiClient}) are left to it. The namespace is created before the
 * class's {@code @BeforeAll} methods run and deleted after its {@code @AfterAll} methods.
 * A test that applies CustomResourceDefinitions and relies on kube-controller-manager for
 * their objects applies them with
 * {@link Manifests#Manifests(io.github.kubeop.test.controlplane.ControlPlane)}.
 *
 * @author Kubeop authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ControlPlaneExtension.class)
public @interface KubernetesTest {

	/**
	 * The components to run besides kube-apiserver and etcd, which always run. None by
	 * default, which starts fastest; a test of garbage collection, Deployments, pods or
	 * namespace deletion asks for the ones it needs, such as
	 * {@code @KubernetesTest(components = { Component.CONTROLLER_MANAGER,
	 * Component.SCHEDULER, Component.NODES })}. A component that cannot be built or
	 * started fails the classes that need it, with its name, its command and the tail of
	 * its log.
	 * @return the components
	 */
	Component[] components() default {};

}
