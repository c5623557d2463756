/**
 * Micrometer meters for work queues, handlers, informers and leader election, named so
 * that controller-runtime's Prometheus dashboards work unchanged.
 */
package io.github.kubeop.metrics;
