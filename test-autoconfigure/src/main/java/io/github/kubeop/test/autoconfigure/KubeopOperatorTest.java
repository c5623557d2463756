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
 * Boots an operator (the {@code @SpringBootConfiguration} found from the test's package,
 * as for any {@code @SpringBootTest}) against a real Kubernetes API server. It is a
 * {@link SpringBootTest @SpringBootTest} and a {@link KubernetesTest @KubernetesTest} in
 * one annotation, so a test class gets what both give:
 * <ul>
 * <li>the control plane shared by the test run that runs the {@link #components()} asked
 * for (see {@link KubernetesTest});</li>
 * <li>an application context whose {@code ApiClient} bean, and so the operator, is
 * connected to that control plane as a cluster administrator, with the
 * {@link #manifests()} applied before the context starts. The CustomResourceDefinitions
 * among them are then established and served, so that the operator's informers start
 * without errors, and known to kube-controller-manager, so that objects owned by custom
 * resources are garbage-collected within seconds of their owner's deletion. As in any
 * Spring test, the context is cached and shared by the test classes of the same
 * configuration;</li>
 * <li>a namespace of its own, created before its {@code @BeforeAll} methods and deleted
 * after its {@code @AfterAll} methods;</li>
 * <li>parameters of test, lifecycle and constructor methods: a
 * {@link io.github.kubeop.test.controlplane.ControlPlane ControlPlane}, an
 * {@code ApiClient} (a new administrator client, not the operator's bean) and the
 * {@link io.github.kubeop.test.TestNamespace TestNamespace}; a parameter annotated with
 * {@code @Autowired} (or {@code @Qualifier}, {@code @Value}) is a bean, such as the
 * operator's own {@code @Autowired ApiClient}, and fields are injected as in any
 * {@code @SpringBootTest}.</li>
 * </ul>
 * For example, with the CRD that the Kubeop Maven plugin generates: <pre class="code">
 * &#64;KubeopOperatorTest(manifests = "target/classes/META-INF/kubeop/crds/queues.example.com.yaml",
 *         components = Component.CONTROLLER_MANAGER)
 * class QueueOperatorTests {
 *
 *     &#64;Test
 *     void createsTheQueuesConfigMap(ApiClient admin, TestNamespace namespace) {
 *         new Manifests(admin).apply("""
 *                 apiVersion: example.com/v1
 *                 kind: Queue
 *                 metadata:
 *                   name: orders
 *                 """, namespace.name());
 *         // await what the operator does
 *     }
 *
 * }
 * </pre>
 *
 * @author Kubeop authors
 * @see KubernetesTest
 * @see io.github.kubeop.test.Manifests
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@KubernetesTest
public @interface KubeopOperatorTest {

	/**
	 * YAML files to apply before the context starts, such as the operator's
	 * CustomResourceDefinitions and RBAC: paths relative to the working directory (the
	 * module directory under Maven), applied in order, as
	 * {@code kubectl apply --server-side} would (see
	 * {@link io.github.kubeop.test.Manifests}). Namespaced objects that name no namespace
	 * go to {@code default}: the test's own namespace does not exist yet when the context
	 * starts. None by default.
	 * @return the manifest paths
	 */
	String[] manifests() default {};

	/**
	 * The control plane components to run besides kube-apiserver and etcd, as in
	 * {@link KubernetesTest#components()}: none by default; an operator that relies on
	 * garbage collection of the objects it owns asks for
	 * {@code Component.CONTROLLER_MANAGER}, one whose status depends on pods running for
	 * {@code { Component.CONTROLLER_MANAGER, Component.SCHEDULER, Component.NODES }}.
	 * @return the components
	 */
	Component[] components() default {};

	/**
	 * Properties to add to the environment, in {@code key=value} form, as
	 * {@link SpringBootTest#properties()}, such as
	 * {@code "kubeop.informers.resources.queues.kind=Queue"}. None by default.
	 * @return the properties
	 */
	@AliasFor(annotation = SpringBootTest.class)
	String[] properties() default {};

	/**
	 * The web environment, as {@link SpringBootTest#webEnvironment()}: by default a web
	 * application runs its real web server on a free port, so that the API server can
	 * call the application's admission and conversion webhooks, which are registered with
	 * the control plane when the context starts (on a free webhook port, with the
	 * loopback URL and the CA of a certificate made at startup) and removed when it
	 * closes. A test that creates an invalid object sees the webhook's denial from the
	 * API server, and one that reads an object at another version sees it converted. An
	 * application without a web server starts as it would otherwise.
	 * @return the web environment
	 */
	@AliasFor(annotation = SpringBootTest.class)
	SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.RANDOM_PORT;

}
