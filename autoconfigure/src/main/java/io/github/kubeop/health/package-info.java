/**
 * Health of Kubeop's informers, for Actuator's readiness group.
 */
package io.github.kubeop.health;
