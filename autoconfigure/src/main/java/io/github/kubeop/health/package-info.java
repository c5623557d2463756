/**
 * Health of Kubeop's informers, for Actuator's readiness group, and of its handler
 * workers.
 */
package io.github.kubeop.health;
