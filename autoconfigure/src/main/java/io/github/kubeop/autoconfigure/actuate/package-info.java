/**
 * Auto-configuration of Kubeop's actuator endpoints.
 */
package io.github.kubeop.autoconfigure.actuate;
