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

package io.github.kubeop.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.kubeop.test.KubernetesTest;
import io.github.kubeop.test.controlplane.Component;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;

/**
 * Boots an operator (the {@code @SpringBootConfiguration} of the test's package) against
 * a real Kubernetes API server: the control plane shared by the test run (see
 * {@link KubernetesTest}), with the manifests named in {@link #manifests()} (typically
 * the operator's CustomResourceDefinitions) applied before the application context
 * starts, so that its informers find them. Test methods can take {@code ControlPlane},
 * {@code ApiClient} and {@code TestNamespace} parameters, and inject beans as in any
 * {@code @SpringBootTest}.
 *
 * @author Kubeop authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@KubernetesTest
public @interface KubeopOperatorTest {

	/**
	 * YAML files to apply before the context starts, relative to the working directory
	 * (the module directory under Maven).
	 * @return the manifest paths
	 */
	String[] manifests() default {};

	/**
	 * The control plane components to run besides kube-apiserver and etcd, as in
	 * {@link KubernetesTest#components()}: none by default; an operator whose status
	 * depends on pods running asks for {@code { Component.CONTROLLER_MANAGER,
	 * Component.SCHEDULER, Component.NODES }}.
	 * @return the components
	 */
	Component[] components() default {};

	/**
	 * Properties to add to the environment, as in {@code @SpringBootTest}.
	 * @return the properties
	 */
	@AliasFor(annotation = SpringBootTest.class)
	String[] properties() default {};

}
