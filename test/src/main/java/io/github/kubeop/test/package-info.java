/**
 * Test support for Kubeop users and for Kubeop itself: {@link KubernetesTest} runs a test
 * class against a real Kubernetes API server, shared by the whole run, with a namespace
 * of its own.
 */
package io.github.kubeop.test;
