/**
 * Real Kubernetes control planes for tests: kube-apiserver and etcd as local processes
 * (found in {@code KUBEBUILDER_ASSETS}, setup-envtest's directory or Kubeop's cache, or
 * built from the official Go modules), or K3s through Testcontainers where Docker runs.
 */
package io.github.kubeop.test.controlplane;
