/**
 * Actuator endpoints of Kubeop.
 */
package io.github.kubeop.actuate;
