/**
 * Auto-configuration of Kubeop's Micrometer meters.
 */
package io.github.kubeop.autoconfigure.metrics;
