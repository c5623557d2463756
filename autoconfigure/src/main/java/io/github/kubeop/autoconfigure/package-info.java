/**
 * Auto-configuration of Kubeop: the Kubernetes client, the informer registry, handler
 * discovery and work queues, built from {@code kubeop.*} properties.
 */
package io.github.kubeop.autoconfigure;
